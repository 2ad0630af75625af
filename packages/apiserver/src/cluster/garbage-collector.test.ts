import type { KubernetesObject, OwnerReference } from '@ops/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ClusterFixture,
  configMap,
  eventually,
  sleep,
  startClusterFixture,
} from './cluster-fixture.test-helper.js';

let f: ClusterFixture;
beforeAll(async () => {
  f = await startClusterFixture();
});
afterAll(async () => {
  await f.stop();
});

const ref = (owner: KubernetesObject, extra: Partial<OwnerReference> = {}): OwnerReference => ({
  apiVersion: owner.apiVersion ?? '',
  kind: owner.kind ?? '',
  name: owner.metadata?.name ?? '',
  uid: owner.metadata?.uid ?? '',
  ...extra,
});
const cm = (name: string) => f.get('', 'configmaps', 'default', name);

describe('GarbageCollector', () => {
  it('deletes dependents in the background once their owner is gone', async () => {
    const owner = await f.create('', 'configmaps', 'default', configMap('bg-owner'));
    await f.create(
      '',
      'configmaps',
      'default',
      configMap('bg-child-1', { ownerReferences: [ref(owner)] }),
    );
    await f.create(
      '',
      'configmaps',
      'default',
      configMap('bg-child-2', { ownerReferences: [ref(owner, { controller: true })] }),
    );
    await f.cluster.idle();
    expect(cm('bg-child-1')).toBeDefined();
    await f.remove('', 'configmaps', 'default', 'bg-owner');
    expect(cm('bg-owner')).toBeUndefined();
    await eventually(() => cm('bg-child-1') === undefined && cm('bg-child-2') === undefined);
  });

  it('deletes a whole Deployment tree in the background', async () => {
    await f.create('apps', 'deployments', 'default', {
      metadata: { name: 'tree' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'tree' } },
        template: {
          metadata: { labels: { app: 'tree' } },
          spec: { containers: [{ name: 'c', image: 'nginx' }] },
        },
      },
    });
    await eventually(
      () =>
        f.list('', 'pods', 'default').filter((p) => p.metadata?.labels?.app === 'tree').length ===
        2,
    );
    await f.remove('apps', 'deployments', 'default', 'tree');
    await eventually(
      () =>
        f
          .list('apps', 'replicasets', 'default')
          .every((rs) => rs.metadata?.labels?.app !== 'tree') &&
        f.list('', 'pods', 'default').every((p) => p.metadata?.labels?.app !== 'tree'),
    );
  });

  it('deletes blocking dependents first with foreground deletion', async () => {
    const owner = await f.create('', 'configmaps', 'default', configMap('fg-owner'));
    await f.create(
      '',
      'configmaps',
      'default',
      configMap('fg-blocker', {
        ownerReferences: [ref(owner, { blockOwnerDeletion: true })],
        finalizers: ['example.com/hold'],
      }),
    );
    await f.create(
      '',
      'configmaps',
      'default',
      configMap('fg-plain', { ownerReferences: [ref(owner)] }),
    );
    await f.remove('', 'configmaps', 'default', 'fg-owner', { propagationPolicy: 'Foreground' });
    // The blocker is being deleted but its own finalizer holds it, and with it the owner.
    await eventually(
      () =>
        cm('fg-blocker')?.metadata?.deletionTimestamp !== undefined && cm('fg-plain') === undefined,
    );
    await f.cluster.idle();
    expect(cm('fg-owner')?.metadata?.finalizers).toEqual(['foregroundDeletion']);
    await f.patch('', 'configmaps', 'default', 'fg-blocker', { metadata: { finalizers: null } });
    await eventually(() => cm('fg-blocker') === undefined && cm('fg-owner') === undefined);
  });

  it('removes the owner at once in the foreground when nothing blocks it', async () => {
    const owner = await f.create('', 'configmaps', 'default', configMap('fg2-owner'));
    await f.create(
      '',
      'configmaps',
      'default',
      configMap('fg2-child', {
        ownerReferences: [ref(owner, { blockOwnerDeletion: false })],
        finalizers: ['example.com/hold'],
      }),
    );
    await f.remove('', 'configmaps', 'default', 'fg2-owner', { propagationPolicy: 'Foreground' });
    await eventually(() => cm('fg2-owner') === undefined);
    expect(cm('fg2-child')?.metadata?.deletionTimestamp).toBeDefined();
    await f.patch('', 'configmaps', 'default', 'fg2-child', { metadata: { finalizers: null } });
  });

  it('deletes a Deployment in the foreground only after its ReplicaSet and Pods', async () => {
    await f.create('apps', 'deployments', 'default', {
      metadata: { name: 'fgtree' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'fgtree' } },
        template: {
          metadata: { labels: { app: 'fgtree' } },
          spec: { containers: [{ name: 'c', image: 'nginx' }] },
        },
      },
    });
    await eventually(() =>
      f
        .list('', 'pods', 'default')
        .some(
          (p) => p.metadata?.labels?.app === 'fgtree' && (p.status as any)?.phase === 'Running',
        ),
    );
    const seen: string[] = [];
    const unsubscribe = f.server.store.subscribeAll((resource, event) => {
      if (event.type === 'DELETED' && event.current.object.metadata?.labels?.app === 'fgtree')
        seen.push(resource);
      if (
        event.type === 'DELETED' &&
        resource === 'apps/deployments' &&
        event.current.key === 'default/fgtree'
      )
        seen.push(resource);
    });
    await f.remove('apps', 'deployments', 'default', 'fgtree', { propagationPolicy: 'Foreground' });
    expect(f.get('apps', 'deployments', 'default', 'fgtree')?.metadata?.finalizers).toEqual([
      'foregroundDeletion',
    ]);
    await eventually(() => f.get('apps', 'deployments', 'default', 'fgtree') === undefined);
    unsubscribe();
    expect(seen).toEqual(['/pods', 'apps/replicasets', 'apps/deployments']);
  });

  it('orphans dependents: references removed, dependents kept', async () => {
    const owner = await f.create('', 'configmaps', 'default', configMap('or-owner'));
    const other = await f.create('', 'configmaps', 'default', configMap('or-other'));
    await f.create(
      '',
      'configmaps',
      'default',
      configMap('or-child', { ownerReferences: [ref(owner), ref(other)] }),
    );
    await f.create(
      '',
      'configmaps',
      'default',
      configMap('or-only', {
        ownerReferences: [ref(owner, { controller: true, blockOwnerDeletion: true })],
      }),
    );
    await f.remove('', 'configmaps', 'default', 'or-owner', { propagationPolicy: 'Orphan' });
    await eventually(() => cm('or-owner') === undefined);
    await f.cluster.idle();
    expect(cm('or-child')?.metadata?.ownerReferences).toEqual([ref(other)]);
    expect(cm('or-only')?.metadata).not.toHaveProperty('ownerReferences');
  });

  it('deletes dependents created with owners that do not exist', async () => {
    const owner = await f.create('', 'configmaps', 'default', configMap('dg-owner'));
    await f.create(
      '',
      'configmaps',
      'default',
      configMap('dg-wrong-uid', { ownerReferences: [{ ...ref(owner), uid: 'not-the-uid' }] }),
    );
    await f.create(
      '',
      'configmaps',
      'default',
      configMap('dg-missing', {
        ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'nobody', uid: '123' }],
      }),
    );
    await f.create(
      '',
      'configmaps',
      'default',
      configMap('dg-half', {
        ownerReferences: [
          ref(owner),
          { apiVersion: 'v1', kind: 'Secret', name: 'gone', uid: '456' },
        ],
      }),
    );
    await eventually(() => cm('dg-wrong-uid') === undefined && cm('dg-missing') === undefined);
    const half = await eventually(() => {
      const current = cm('dg-half');
      return current?.metadata?.ownerReferences?.length === 1 && current;
    });
    expect(half.metadata?.ownerReferences).toEqual([ref(owner)]);
  });

  it('resolves cluster-scoped owners and leaves unknown kinds alone', async () => {
    const role = await f.create('rbac.authorization.k8s.io', 'clusterroles', '', {
      metadata: { name: 'gc-owner' },
      rules: [],
    });
    await f.create(
      '',
      'configmaps',
      'default',
      configMap('cs-child', { ownerReferences: [ref(role)] }),
    );
    await f.create(
      '',
      'configmaps',
      'default',
      configMap('unknown-kind', {
        ownerReferences: [{ apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: '789' }],
      }),
    );
    await f.cluster.idle();
    await sleep(20);
    expect(cm('cs-child')).toBeDefined();
    expect(cm('unknown-kind')).toBeDefined();
    await f.remove('rbac.authorization.k8s.io', 'clusterroles', '', 'gc-owner');
    await eventually(() => cm('cs-child') === undefined);
    expect(cm('unknown-kind')).toBeDefined();
  });
});
