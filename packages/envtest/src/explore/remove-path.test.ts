import { describe, expect, it } from 'vitest';
import { removePath } from './remove-path.js';

describe('removePath', () => {
  it('removes a nested field and leaves its siblings', () => {
    const object = { metadata: { name: 'a', uid: 'u' }, data: { x: '1' } };
    removePath(object, 'metadata.uid');
    expect(object).toEqual({ metadata: { name: 'a' }, data: { x: '1' } });
  });

  it('goes through a list item by item', () => {
    const object = {
      status: {
        conditions: [
          { type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' },
          { type: 'Synced', status: 'False', lastTransitionTime: '2026-01-02T00:00:00Z' },
        ],
      },
    };
    removePath(object, 'status.conditions.lastTransitionTime');
    expect(object.status.conditions).toEqual([
      { type: 'Ready', status: 'True' },
      { type: 'Synced', status: 'False' },
    ]);
  });

  it('picks one item of a list by a whole number', () => {
    const object = {
      status: {
        conditions: [
          { type: 'Ready', lastTransitionTime: '2026-01-01T00:00:00Z' },
          { type: 'Synced', lastTransitionTime: '2026-01-02T00:00:00Z' },
        ],
        containerStatuses: [{ name: 'a' }, { name: 'b' }],
      },
    };
    removePath(object, 'status.conditions.1.lastTransitionTime');
    removePath(object, 'status.containerStatuses.0');
    expect(object.status).toEqual({
      conditions: [
        { type: 'Ready', lastTransitionTime: '2026-01-01T00:00:00Z' },
        { type: 'Synced' },
      ],
      containerStatuses: [{ name: 'b' }],
    });
  });

  it('does nothing where the path leads nowhere', () => {
    const object = { spec: { replicas: 1 }, status: 'plain' };
    removePath(object, 'spec.template.metadata');
    removePath(object, 'status.ready');
    removePath(object, 'missing.field');
    expect(object).toEqual({ spec: { replicas: 1 }, status: 'plain' });
  });
});
