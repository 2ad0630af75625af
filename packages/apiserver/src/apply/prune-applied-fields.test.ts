import { describe, expect, it } from 'vitest';
import { FieldSet } from './field-set.js';
import { pruneAppliedFields } from './prune-applied-fields.js';
import { widgetType } from './test-types.js';

const type = widgetType;

describe('pruneAppliedFields', () => {
  const object = {
    spec: {
      size: 1,
      color: 'red',
      ports: [
        { name: 'p', port: 1 },
        { name: 'q', port: 2 },
      ],
    },
  };
  const last = FieldSet.of(
    ['f:spec', 'f:size'],
    ['f:spec', 'f:color'],
    ['f:spec', 'f:ports', 'k:{"name":"q"}'],
    ['f:spec', 'f:ports', 'k:{"name":"q"}', 'f:name'],
    ['f:spec', 'f:ports', 'k:{"name":"q"}', 'f:port'],
  );

  it('removes what the applier applied before and nobody owns now', () => {
    const owned = FieldSet.of(['f:spec', 'f:size'], ['f:spec', 'f:ports', 'k:{"name":"p"}']);
    expect(pruneAppliedFields(object, last, owned, type)).toEqual({
      spec: { size: 1, ports: [{ name: 'p', port: 1 }] },
    });
  });

  it('keeps fields another manager owns, and everything when nothing was applied before', () => {
    const owned = FieldSet.of(['f:spec', 'f:color'], ['f:spec', 'f:size']);
    const pruned = pruneAppliedFields(object, FieldSet.of(['f:spec', 'f:color']), owned, type);
    expect(pruned).toEqual(object);
    expect(pruneAppliedFields(object, new FieldSet(), new FieldSet(), type)).toBe(object);
  });
});
