import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyObjects } from '../apply-objects.js';
import { Environment } from '../environment.js';
import {
  findOrphans,
  type Outcome,
  outcomeDifferences,
  readOutcome,
  renameNamespace,
  withSortedKeys,
} from './outcome.js';

const outcome = (objects: unknown[], events: string[] = [], orphans: string[] = []): Outcome => ({
  objects: { 'v1/ConfigMap': objects },
  events,
  orphans,
});

describe('outcomeDifferences', () => {
  it('is empty for equal outcomes, and tolerates a missing Event (Events are best-effort)', () => {
    const reference = outcome([{ a: 1 }], ['Created Widget', 'Synced Widget']);
    expect(outcomeDifferences(reference, outcome([{ a: 1 }], ['Created Widget']))).toEqual([]);
  });

  it('names duplicated, missing and changed objects, orphans and unexpected Events', () => {
    const reference = outcome([{ a: 1 }], ['Created Widget']);
    expect(outcomeDifferences(reference, outcome([{ a: 1 }, { a: 2 }]))).toEqual([
      'v1/ConfigMap: 2 object(s) where the reference run left 1 (duplicated or leaked)',
      'v1/ConfigMap: unexpected {"a":2}',
    ]);
    expect(outcomeDifferences(reference, outcome([]))).toEqual([
      'v1/ConfigMap: 0 object(s) where the reference run left 1 (missing)',
      'v1/ConfigMap: missing {"a":1}',
    ]);
    expect(
      outcomeDifferences(
        reference,
        outcome([{ a: 1 }], ['Deleted Widget'], ['ConfigMap/x owned by Widget/w (uid u, gone)']),
      ),
    ).toEqual([
      'orphaned child: ConfigMap/x owned by Widget/w (uid u, gone)',
      'Event Deleted Widget: recorded here, never in the reference run',
    ]);
  });
});

describe('outcomeDifferences on a plane without a garbage collector', () => {
  it('passes an orphan the reference also left (uids differ between runs), and names a new one', () => {
    const reference = outcome([], [], ['ConfigMap/x owned by Widget/w (uid u1, gone)']);
    expect(
      outcomeDifferences(
        reference,
        outcome([], [], ['ConfigMap/x owned by Widget/w (uid u2, gone)']),
      ),
    ).toEqual([]);
    expect(
      outcomeDifferences(
        reference,
        outcome([], [], ['ConfigMap/y owned by Widget/w (uid u2, gone)']),
      ),
    ).toEqual(['orphaned child: ConfigMap/y owned by Widget/w (uid u2, gone)']);
  });
});

describe('renameNamespace', () => {
  it('renames the run namespace where it is a value or a whole word, and nothing else', () => {
    expect(
      renameNamespace(
        {
          metadata: { name: 'explore-12-data', namespace: 'explore-12' },
          data: {
            target: 'explore-12/app',
            host: 'app.explore-12.svc.cluster.local',
            other: 'explore-123',
            list: ['explore-12'],
          },
          count: 12,
        },
        'explore-12',
        'explore',
      ),
    ).toEqual({
      metadata: { name: 'explore-12-data', namespace: 'explore' },
      data: {
        target: 'explore/app',
        host: 'app.explore.svc.cluster.local',
        other: 'explore-123',
        list: ['explore'],
      },
      count: 12,
    });
  });
});

describe('withSortedKeys', () => {
  it('orders the keys of objects at every depth, and keeps the order of arrays', () => {
    const written = {
      status: {
        phase: 'done',
        containers: [{ name: 'b', code: 0 }, { name: 'a' }],
        conditions: [],
      },
    };
    const patchedInAnotherOrder = {
      status: {
        conditions: [],
        containers: [{ code: 0, name: 'b' }, { name: 'a' }],
        phase: 'done',
      },
    };
    expect(JSON.stringify(withSortedKeys(written))).toBe(
      JSON.stringify(withSortedKeys(patchedInAnotherOrder)),
    );
    expect(JSON.stringify(withSortedKeys(written))).toBe(
      '{"status":{"conditions":[],"containers":[{"code":0,"name":"b"},{"name":"a"}],"phase":"done"}}',
    );
  });
});

describe('findOrphans', () => {
  it('compares objects whatever the order their fields were written in', () => {
    const stored = (status: Record<string, string>): Outcome => ({
      objects: { 'explore.ops.dev/v1/Widget': [{ kind: 'Widget', status }] },
      events: [],
      orphans: [],
    });
    expect(
      outcomeDifferences(
        stored({ child: 'app-data', value: 'one' }),
        stored({ value: 'one', child: 'app-data' }),
      ),
    ).toEqual([]);
    expect(withSortedKeys({ b: [{ d: 1, c: 2 }], a: null })).toEqual({
      a: null,
      b: [{ c: 2, d: 1 }],
    });
    expect(JSON.stringify(withSortedKeys({ b: 1, a: { d: 1, c: 2 } }))).toBe(
      '{"a":{"c":2,"d":1},"b":1}',
    );
  });

  it('names the children whose owner of a listed kind is not listed, and only those', () => {
    const owned = (name: string, ownerKind: string, uid: string) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name,
        uid: `${name}-uid`,
        ownerReferences: [{ apiVersion: 'v1', kind: ownerKind, name: 'w', uid }],
      },
    });
    const widget = { apiVersion: 'g/v1', kind: 'Widget', metadata: { name: 'w', uid: 'live' } };
    expect(
      findOrphans(
        [
          widget,
          owned('kept', 'Widget', 'live'),
          owned('orphan', 'Widget', 'dead'),
          owned('other', 'Gadget', 'x'),
        ],
        new Set(['Widget', 'ConfigMap']),
      ),
    ).toEqual(['ConfigMap/orphan owned by Widget/w (uid dead, gone)']);
  });
});

describe('readOutcome', () => {
  let env: Environment;
  beforeAll(async () => {
    env = await Environment.start({ controlPlane: 'local' });
  });
  afterAll(async () => {
    await env.stop();
  });

  it('leaves out server-set and declared fields, and reduces owner references to kind and name', async () => {
    const [owner] = await applyObjects(env.kubeConfig, [
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owner', namespace: 'default' } },
    ]);
    await applyObjects(env.kubeConfig, [
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: 'child',
          namespace: 'default',
          ownerReferences: [
            { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner?.metadata?.uid ?? '' },
          ],
        },
        data: { stable: 'yes', random: 'r1' },
      } as never,
    ]);
    const read = await readOutcome(env.kubeConfig, {
      namespace: 'default',
      kinds: [{ apiVersion: 'v1', kind: 'ConfigMap' }],
      nondeterministic: [{ kind: 'ConfigMap', path: 'data.random' }],
    });
    const child = read.objects['v1/ConfigMap']?.find(
      (object) => (object as { metadata: { name: string } }).metadata.name === 'child',
    ) as { metadata: Record<string, unknown>; data: Record<string, string> };
    expect(child.data).toEqual({ stable: 'yes' });
    expect(child.metadata.uid).toBeUndefined();
    expect(child.metadata.resourceVersion).toBeUndefined();
    expect(child.metadata.creationTimestamp).toBeUndefined();
    expect(child.metadata.ownerReferences).toEqual([{ kind: 'ConfigMap', name: 'owner' }]);
    expect(read.orphans).toEqual([]);
  });

  it('names the namespace as reportedNamespace says, so runs in namespaces of their own compare', async () => {
    await applyObjects(env.kubeConfig, [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'run-7' } },
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'app', namespace: 'run-7' },
        data: { peer: 'db.run-7.svc' },
      },
    ]);
    const read = await readOutcome(env.kubeConfig, {
      namespace: 'run-7',
      reportedNamespace: 'run',
      kinds: [{ apiVersion: 'v1', kind: 'ConfigMap' }],
    });
    expect(read.objects['v1/ConfigMap']).toMatchObject([
      { metadata: { name: 'app', namespace: 'run' }, data: { peer: 'db.run.svc' } },
    ]);
  });
});
