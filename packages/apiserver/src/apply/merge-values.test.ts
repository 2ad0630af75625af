import { describe, expect, it } from 'vitest';
import { mergeValues } from './merge-values.js';
import { widgetType } from './test-types.js';

const type = widgetType;

describe('mergeValues', () => {
  it('keeps live fields the configuration leaves out and replaces atomic values whole', () => {
    const live = { spec: { args: ['a', 'b'], sel: { a: '1', b: '2' }, other: 1 } };
    const merged = mergeValues(live, { spec: { args: ['c'], sel: { c: '3' } } }, type);
    expect(merged).toEqual({ spec: { args: ['c'], sel: { c: '3' }, other: 1 } });
    expect(live.spec.args).toEqual(['a', 'b']);
  });

  it('merges keyed lists item by item, new items after the shared ones, live-only kept', () => {
    const live = {
      spec: {
        ports: [
          { name: 'a', port: 1 },
          { name: 'b', port: 2 },
        ],
      },
    };
    const merged = mergeValues(
      live,
      { spec: { ports: [{ name: 'b', port: 3 }, { name: 'c' }] } },
      type,
    );
    expect(merged).toEqual({
      spec: { ports: [{ name: 'a', port: 1 }, { name: 'b', port: 3 }, { name: 'c' }] },
    });
    const sets = mergeValues({ spec: { tags: ['x', 'y'] } }, { spec: { tags: ['z', 'x'] } }, type);
    // structured-merge-diff's order: z before the shared x, then the live-only y.
    expect(sets).toEqual({ spec: { tags: ['z', 'x', 'y'] } });
  });

  it('refuses a configuration with two items under one key', () => {
    expect(() =>
      mergeValues(
        { spec: { ports: [] } },
        { spec: { ports: [{ name: 'a' }, { name: 'a' }] } },
        type,
      ),
    ).toThrow('duplicate entries for key');
  });
});
