import { describe, expect, it } from 'vitest';
import { FieldSet, formatFieldPath } from './field-set.js';

describe('FieldSet', () => {
  const fieldsV1 = {
    'f:data': { '.': {}, 'f:a': {} },
    'f:spec': {
      'f:containers': {
        'k:{"name":"c"}': { '.': {}, 'f:image': {}, 'f:name': {} },
      },
    },
  };

  it('round-trips fieldsV1: leaves and `.` are members, `.` first, children in order', () => {
    const set = FieldSet.fromFieldsV1(fieldsV1);
    expect(set.has(['f:data'])).toBe(true);
    expect(set.has(['f:spec'])).toBe(false);
    expect(set.has(['f:spec', 'f:containers', 'k:{"name":"c"}', 'f:image'])).toBe(true);
    expect(JSON.stringify(set.toFieldsV1())).toBe(JSON.stringify(fieldsV1));
    expect(set.paths().map(formatFieldPath)).toEqual([
      '.data',
      '.data.a',
      '.spec.containers[name="c"]',
      '.spec.containers[name="c"].image',
      '.spec.containers[name="c"].name',
    ]);
  });

  it('orders fields before keys, values and indexes, and indexes by number', () => {
    const set = FieldSet.of(['i:10'], ['i:9'], ['v:"a"'], ['k:{"a":1}'], ['f:z']);
    expect(Object.keys(set.toFieldsV1())).toEqual(['f:z', 'k:{"a":1}', 'v:"a"', 'i:9', 'i:10']);
  });

  it('unions, intersects and subtracts members, keeping children of removed members', () => {
    const a = FieldSet.of(['f:data'], ['f:data', 'f:a'], ['f:data', 'f:b']);
    const b = FieldSet.of(['f:data', 'f:a'], ['f:x']);
    expect(a.union(b).toFieldsV1()).toEqual({
      'f:data': { '.': {}, 'f:a': {}, 'f:b': {} },
      'f:x': {},
    });
    expect(a.intersection(b).toFieldsV1()).toEqual({ 'f:data': { 'f:a': {} } });
    expect(a.difference(b).toFieldsV1()).toEqual({ 'f:data': { '.': {}, 'f:b': {} } });
    expect(a.difference(FieldSet.of(['f:data'])).toFieldsV1()).toEqual({
      'f:data': { 'f:a': {}, 'f:b': {} },
    });
    expect(a.recursiveDifference(FieldSet.of(['f:data'])).isEmpty()).toBe(true);
    expect(new FieldSet().isEmpty()).toBe(true);
  });

  it('prints keys, set values and indexes as structured-merge-diff does', () => {
    expect(
      formatFieldPath(['f:spec', 'f:ports', 'k:{"containerPort":80,"protocol":"TCP"}', 'f:name']),
    ).toBe('.spec.ports[containerPort=80,protocol="TCP"].name');
    expect(formatFieldPath(['f:metadata', 'f:finalizers', 'v:"a"'])).toBe(
      '.metadata.finalizers[="a"]',
    );
    expect(formatFieldPath(['f:items', 'i:3'])).toBe('.items[3]');
  });

  it('rejects fieldsV1 that is not a tree of path elements, naming the key', () => {
    expect(() => FieldSet.fromFieldsV1({ spec: {} })).toThrow(
      'fieldsV1 key "spec" is not a path element (f:, k:, v:, i: or .)',
    );
    expect(() => FieldSet.fromFieldsV1({ 'f:a': 1 })).toThrow('fieldsV1 f:a must be an object');
    expect(() => FieldSet.fromFieldsV1([])).toThrow('fieldsV1 root must be an object');
  });
});
