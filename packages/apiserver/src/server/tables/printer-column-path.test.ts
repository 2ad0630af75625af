import { describe, expect, it } from 'vitest';
import { printerColumnPath } from './printer-column-path.js';

const widget = {
  metadata: { name: 'w', labels: { 'app.kubernetes.io/name': 'shop' } },
  spec: { ports: [{ port: 80 }, { port: 443 }, { port: 8080 }], flag: false, replicas: 2 },
  status: {
    conditions: [
      { type: 'Synced', status: 'True', ok: false },
      { type: 'Ready', status: 'False', reason: 'Waiting' },
    ],
  },
};
const find = (path: string) => printerColumnPath(path).find(widget);

describe('printerColumnPath (client-go JSONPath, as CRD printer columns use it)', () => {
  it('reads fields, indexes, slices, unions and wildcards', () => {
    expect(find('.metadata.name')).toEqual(['w']);
    expect(find('{.spec.replicas}')).toEqual([2]);
    expect(find('.spec.ports[1].port')).toEqual([443]);
    expect(find('.spec.ports[0:2].port')).toEqual([80, 443]);
    expect(find('.spec.ports[0,2].port')).toEqual([80, 8080]);
    expect(find('.spec.ports[*].port')).toEqual([80, 443, 8080]);
    expect(find('.spec.ports')).toEqual([widget.spec.ports]);
    expect(find('..port')).toEqual([80, 443, 8080]);
  });

  it('evaluates filters with both quote styles and comparisons', () => {
    expect(find('.status.conditions[?(@.type=="Ready")].status')).toEqual(['False']);
    expect(find(".status.conditions[?(@.type=='Ready')].reason")).toEqual(['Waiting']);
    expect(find('.status.conditions[?(@.type!="Ready")].type')).toEqual(['Synced']);
    expect(find('.spec.ports[?(@.port>100)].port')).toEqual([443, 8080]);
    expect(find('.status.conditions[?(@.type=="Missing")].status')).toEqual([]);
  });

  it('keeps client-go semantics where jsonpath-plus differs', () => {
    // Negative indexes count from the end.
    expect(find('.spec.ports[-1].port')).toEqual([8080]);
    expect(find('.spec.ports[-2].port')).toEqual([443]);
    // Escaped dots belong to the field name.
    expect(find('.metadata.labels.app\\.kubernetes\\.io/name')).toEqual(['shop']);
    expect(find(".metadata.labels['app.kubernetes.io/name']")).toEqual(['shop']);
    // A filter without a comparison tests presence, false values included.
    expect(find('.status.conditions[?(@.ok)].type')).toEqual(['Synced']);
  });

  it('selects nothing for missing fields and non-objects', () => {
    expect(find('.status.missing.deeper')).toEqual([]);
    expect(find('.spec.replicas.nested')).toEqual([]);
    expect(printerColumnPath('.a').find(null)).toEqual([]);
  });

  it('refuses what is not a path, naming it', () => {
    expect(() => printerColumnPath('.spec.ports[0')).toThrow(
      'printer column JSONPath ".spec.ports[0" is not valid: "[" at character 12 is never closed',
    );
  });
});
