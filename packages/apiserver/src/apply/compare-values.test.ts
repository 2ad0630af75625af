import { describe, expect, it } from 'vitest';
import { compareValues } from './compare-values.js';
import { widgetType } from './test-types.js';

const type = widgetType;

describe('compareValues', () => {
  it('reports added maps and items as well as their fields', () => {
    const result = compareValues({}, { spec: { size: 1, ports: [{ name: 'p', port: 1 }] } }, type);
    expect(result.added.toFieldsV1()).toEqual({
      'f:spec': {
        '.': {},
        'f:ports': { '.': {}, 'k:{"name":"p"}': { '.': {}, 'f:name': {}, 'f:port': {} } },
        'f:size': {},
      },
    });
    expect(result.modified.isEmpty()).toBe(true);
  });

  it('reports changed leaves as modified (atomic lists whole) and gone ones as removed', () => {
    const before = {
      spec: { size: 1, args: ['a'], ports: [{ name: 'p', port: 1 }, { name: 'q' }] },
    };
    const after = { spec: { size: 2, args: ['b'], ports: [{ name: 'p', port: 1 }] } };
    const result = compareValues(before, after, type);
    expect(result.modified.toFieldsV1()).toEqual({ 'f:spec': { 'f:args': {}, 'f:size': {} } });
    expect(result.removed.toFieldsV1()).toEqual({
      'f:spec': { 'f:ports': { 'k:{"name":"q"}': { '.': {}, 'f:name': {} } } },
    });
    expect(result.added.isEmpty()).toBe(true);
  });
});
