import { describe, expect, it } from 'vitest';
import { enqueueForOwner } from './event-handlers.js';
import {
  and,
  annotationsChanged,
  generationChanged,
  labelSelectorPredicate,
  labelsChanged,
  not,
  or,
  resourceVersionChanged,
} from './predicates.js';

const obj = (meta: Record<string, unknown>) => ({
  metadata: { name: 'x', namespace: 'ns', ...meta },
});

describe('predicates', () => {
  it('generationChanged passes spec changes, creates and deletes, and objects without generation', () => {
    expect(
      generationChanged({
        type: 'update',
        object: obj({ generation: 2 }),
        old: obj({ generation: 1 }),
      }),
    ).toBe(true);
    expect(
      generationChanged({
        type: 'update',
        object: obj({ generation: 1 }),
        old: obj({ generation: 1 }),
      }),
    ).toBe(false);
    expect(generationChanged({ type: 'update', object: obj({}), old: obj({}) })).toBe(true);
    expect(generationChanged({ type: 'create', object: obj({ generation: 1 }) })).toBe(true);
    expect(generationChanged({ type: 'delete', object: obj({ generation: 1 }) })).toBe(true);
  });

  it('resourceVersion, labels and annotations changes', () => {
    expect(
      resourceVersionChanged({
        type: 'update',
        object: obj({ resourceVersion: '2' }),
        old: obj({ resourceVersion: '2' }),
      }),
    ).toBe(false);
    expect(
      labelsChanged({
        type: 'update',
        object: obj({ labels: { a: '1' } }),
        old: obj({ labels: { a: '2' } }),
      }),
    ).toBe(true);
    expect(
      annotationsChanged({
        type: 'update',
        object: obj({ annotations: { a: '1' } }),
        old: obj({ annotations: { a: '1' } }),
      }),
    ).toBe(false);
  });

  it('labelSelectorPredicate matches the new or the old labels', () => {
    const web = labelSelectorPredicate('app=web');
    expect(web({ type: 'create', object: obj({ labels: { app: 'web' } }) })).toBe(true);
    expect(web({ type: 'create', object: obj({ labels: { app: 'db' } }) })).toBe(false);
    expect(
      web({
        type: 'update',
        object: obj({ labels: { app: 'db' } }),
        old: obj({ labels: { app: 'web' } }),
      }),
    ).toBe(true);
    expect(
      labelSelectorPredicate({ matchLabels: { app: 'web' } })({
        type: 'delete',
        object: obj({ labels: { app: 'web' } }),
      }),
    ).toBe(true);
    expect(() => labelSelectorPredicate('a in b')).toThrow(/invalid label selector/);
  });

  it('combines with and, or, not', () => {
    const yes = () => true;
    const no = () => false;
    const event = { type: 'create' as const, object: obj({}) };
    expect(and(yes, no)(event)).toBe(false);
    expect(or(yes, no)(event)).toBe(true);
    expect(not(no)(event)).toBe(true);
  });

  it('enqueueForOwner maps to the controlling owner of the kind, ignoring versions', () => {
    const child = obj({
      ownerReferences: [
        { apiVersion: 'apps/v1beta1', kind: 'Deployment', name: 'd', uid: '1', controller: true },
        { apiVersion: 'apps/v1', kind: 'Deployment', name: 'other', uid: '2' },
        { apiVersion: 'v1', kind: 'ConfigMap', name: 'cm', uid: '3', controller: true },
      ],
    });
    expect(enqueueForOwner('apps/v1', 'Deployment')(child)).toEqual([
      { namespace: 'ns', name: 'd' },
    ]);
    expect(enqueueForOwner('apps/v1', 'Deployment', { onlyController: false })(child)).toHaveLength(
      2,
    );
    expect(enqueueForOwner('apps/v1', 'Deployment', { ownerNamespaced: false })(child)).toEqual([
      { namespace: '', name: 'd' },
    ]);
  });
});
