import type { KubernetesObject } from '@ops/api';
import { describe, expect, it } from 'vitest';
import { ObjectStore } from '../store/object-store.js';
import { ClusterIndex } from './cluster-index.js';
import { type LabelMap, labelsMatch, mapSelectorOf } from './resource-index.js';

const pods = '/pods';
const services = '/services';

/** A store whose events reach an index as the simulated cluster passes them on. */
function followed(): { store: ObjectStore; index: ClusterIndex } {
  const store = new ObjectStore();
  const index = new ClusterIndex(store);
  store.subscribeAll((resource, event) => index.apply(resource, event));
  index.follow();
  return { store, index };
}

const key = (namespace: string, name: string) => `${namespace}/${name}`;

function put(store: ObjectStore, resource: string, object: KubernetesObject): void {
  const revision = store.nextRevision();
  const meta = object.metadata ?? {};
  store.update(resource, key(meta.namespace ?? '', meta.name ?? ''), object, revision);
}

function drop(store: ObjectStore, resource: string, namespace: string, name: string): void {
  const stored = store.get(resource, key(namespace, name));
  if (stored === undefined) return;
  store.remove(resource, stored.key, stored.object, store.nextRevision());
}

const pod = (namespace: string, name: string, labels: LabelMap, owner?: string) => ({
  metadata: {
    namespace,
    name,
    labels,
    ...(owner === undefined
      ? {}
      : {
          ownerReferences: [
            { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: owner, controller: true },
          ],
        }),
  },
});
const service = (namespace: string, name: string, selector: LabelMap | undefined) => ({
  metadata: { namespace, name },
  spec: selector === undefined ? {} : { selector },
});

/** What each lookup must answer: a scan of the store in key order with the same test. */
const scan = (store: ObjectStore, resource: string, test: (o: KubernetesObject) => boolean) =>
  store
    .list(resource)
    .map((s) => s.object)
    .filter(test);
const inNamespace = (namespace: string) => (o: KubernetesObject) =>
  (o.metadata?.namespace ?? '') === namespace;

describe('ClusterIndex', () => {
  it('follows label changes, namespace moves and selector changes', () => {
    const { store, index } = followed();
    put(store, pods, pod('a', 'p1', { app: 'web', tier: 'front' }, 'rs-1'));
    put(store, services, service('a', 'web', { app: 'web' }));
    put(store, services, service('a', 'front', { tier: 'front', app: 'web' }));
    const names = (objects: KubernetesObject[]) => objects.map((o) => o.metadata?.name);

    expect(names(index.of(pods).withLabels('a', { app: 'web' }))).toEqual(['p1']);
    expect(names(index.of(services).selecting('a', { app: 'web', tier: 'front' }))).toEqual([
      'front',
      'web',
    ]);
    expect(names(index.of(pods).controlledBy('a', 'rs-1'))).toEqual(['p1']);

    // A label change: the Pod leaves one bucket for another.
    put(store, pods, pod('a', 'p1', { app: 'api', tier: 'front' }, 'rs-1'));
    expect(index.of(pods).withLabels('a', { app: 'web' })).toEqual([]);
    expect(names(index.of(pods).withLabels('a', { app: 'api' }))).toEqual(['p1']);
    expect(index.of(services).selecting('a', { app: 'api', tier: 'front' })).toEqual([]);

    // A namespace move (delete, recreate elsewhere): found only in the new namespace.
    drop(store, pods, 'a', 'p1');
    put(store, pods, pod('b', 'p1', { app: 'web' }, 'rs-1'));
    expect(index.of(pods).withLabels('a', { app: 'web' })).toEqual([]);
    expect(index.of(pods).controlledBy('a', 'rs-1')).toEqual([]);
    expect(names(index.of(pods).withLabels('b', { app: 'web' }))).toEqual(['p1']);
    expect(names(index.of(pods).controlledBy('b', 'rs-1'))).toEqual(['p1']);
    expect(index.of(services).selecting('b', { app: 'web' })).toEqual([]);

    // A selector change, including to one indexed under another first key, and to none.
    put(store, services, service('a', 'web', { zone: 'x' }));
    expect(index.of(services).selecting('a', { app: 'web' })).toEqual([]);
    expect(names(index.of(services).selecting('a', { zone: 'x', app: 'web' }))).toEqual(['web']);
    put(store, services, service('a', 'web', undefined));
    expect(index.of(services).selecting('a', { zone: 'x' })).toEqual([]);
    expect(names(index.of(services).inNamespace('a'))).toEqual(['front', 'web']);
  });

  it('answers every lookup as a scan would, through a long run of random writes', () => {
    const { store, index } = followed();
    let seed = 42;
    const random = (n: number) => {
      // Park-Miller: exact in doubles, so the sequence is the same on every run.
      seed = (seed * 48_271) % 2_147_483_647;
      return seed % n;
    };
    const namespaces = ['a', 'b', ''];
    const values = ['1', '2', '3'];
    const labelsOf = (): LabelMap => {
      const labels: LabelMap = {};
      for (const name of ['app', 'tier', 'zone'])
        if (random(2) === 0) labels[name] = values[random(3)] as string;
      return labels;
    };
    for (let step = 0; step < 3_000; step++) {
      const namespace = namespaces[random(3)] as string;
      const name = `o${random(12)}`;
      switch (random(4)) {
        case 0:
          drop(store, pods, namespace, name);
          drop(store, services, namespace, name);
          break;
        case 1:
          put(store, services, service(namespace, name, random(4) === 0 ? undefined : labelsOf()));
          break;
        default:
          put(
            store,
            pods,
            pod(namespace, name, labelsOf(), random(3) === 0 ? undefined : `uid-${random(3)}`),
          );
      }
      if (step % 10 !== 0) continue;
      const ns = namespaces[random(3)] as string;
      const labels = labelsOf();
      const uid = `uid-${random(3)}`;
      expect(index.of(pods).inNamespace(ns)).toEqual(scan(store, pods, inNamespace(ns)));
      expect(index.of(pods).withLabels(ns, labels)).toEqual(
        scan(store, pods, (o) => inNamespace(ns)(o) && labelsMatch(labels, o.metadata?.labels)),
      );
      expect(index.of(pods).controlledBy(ns, uid)).toEqual(
        scan(
          store,
          pods,
          (o) =>
            inNamespace(ns)(o) &&
            o.metadata?.ownerReferences?.find((r) => r.controller === true)?.uid === uid,
        ),
      );
      expect(index.of(services).selecting(ns, labels)).toEqual(
        scan(store, services, (o) => {
          const selector = mapSelectorOf(o);
          return inNamespace(ns)(o) && selector !== undefined && labelsMatch(selector, labels);
        }),
      );
    }
    // The run reached a varied state: both kinds present, in every namespace.
    expect(index.of(pods).size).toBe(store.count(pods));
    for (const ns of namespaces) {
      expect(index.of(pods).inNamespace(ns).length).toBeGreaterThan(0);
      expect(index.of(services).inNamespace(ns).length).toBeGreaterThan(0);
    }
  });

  it('rebuilds when the store drops objects without events, and scans when not following', () => {
    const { store, index } = followed();
    put(store, pods, pod('a', 'p1', { app: 'web' }));
    expect(index.of(pods).size).toBe(1);
    store.dropResource(pods);
    expect(index.of(pods).inNamespace('a')).toEqual([]);
    put(store, pods, pod('a', 'p2', { app: 'web' }));
    store.reset();
    put(store, pods, pod('a', 'p3', { app: 'web' }));
    expect(
      index
        .of(pods)
        .withLabels('a', { app: 'web' })
        .map((o) => o.metadata?.name),
    ).toEqual(['p3']);

    const unfollowed = new ClusterIndex(store);
    put(store, pods, pod('a', 'p4', { app: 'web' }));
    expect(
      unfollowed
        .of(pods)
        .withLabels('a', { app: 'web' })
        .map((o) => o.metadata?.name),
    ).toEqual(['p3', 'p4']);
    // Not following: nothing is kept, so a write it was not told of is still seen.
    put(store, pods, pod('a', 'p5', { app: 'web' }));
    expect(unfollowed.of(pods).size).toBe(3);
  });
});
