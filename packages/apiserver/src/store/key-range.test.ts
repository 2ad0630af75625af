import type { KubernetesObject } from '@ops/api';
import { describe, expect, it } from 'vitest';
import { ObjectStore, type StoredObject } from './object-store.js';

const resource = '/configmaps';

function configMap(namespace: string, name: string, data = 'a'): KubernetesObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace, name }, data: { data } };
}

function create(store: ObjectStore, namespace: string, name: string, data = 'a'): void {
  store.create(
    resource,
    `${namespace}/${name}`,
    configMap(namespace, name, data),
    store.nextRevision(),
  );
}

function keys(objects: Iterable<StoredObject>): string[] {
  return [...objects].map((stored) => stored.key);
}

describe('ObjectStore.range', () => {
  it('reads one namespace in key order, after a cursor, and counts it', () => {
    const store = new ObjectStore();
    for (const ns of ['b', 'a', 'c']) for (const name of ['y', 'x', 'z']) create(store, ns, name);
    create(store, 'bb', 'x');
    const range = store.range(resource, { prefix: 'b/' });
    expect(keys(range)).toEqual(['b/x', 'b/y', 'b/z']);
    expect(range.size()).toBe(3);
    const afterCursor = store.range(resource, { prefix: 'b/', after: 'b/x' });
    expect(keys(afterCursor)).toEqual(['b/y', 'b/z']);
    expect(afterCursor.size()).toBe(2);
    expect(keys(store.range(resource, { after: 'c/x' }))).toEqual(['c/y', 'c/z']);
    expect(store.range('/secrets', {}).size()).toBe(0);
  });

  it('reads the range as it was at an earlier revision, whatever was written since', () => {
    const store = new ObjectStore();
    for (const name of ['a', 'b', 'c', 'd']) create(store, 'ns', name, 'v1');
    const revision = store.currentRevision();
    const before = [...store.range(resource, {})].map((stored) => stored.json());

    store.remove(resource, 'ns/b', configMap('ns', 'b'), store.nextRevision());
    create(store, 'ns', 'bb', 'new');
    store.update(resource, 'ns/c', configMap('ns', 'c', 'v2'), store.nextRevision());
    store.update(resource, 'ns/c', configMap('ns', 'c', 'v3'), store.nextRevision());
    create(store, 'ns', 'e', 'new');

    const past = store.range(resource, { prefix: 'ns/' }, revision);
    expect([...past].map((stored) => stored.json())).toEqual(before);
    expect(past.size()).toBe(4);
    const pastAfterA = store.range(resource, { prefix: 'ns/', after: 'ns/a' }, revision);
    expect(keys(pastAfterA)).toEqual(['ns/b', 'ns/c', 'ns/d']);
    expect(pastAfterA.size()).toBe(3);
    expect(keys(store.range(resource, {}))).toEqual(['ns/a', 'ns/bb', 'ns/c', 'ns/d', 'ns/e']);
  });

  it('fails as too old once history no longer reaches the revision', () => {
    const store = new ObjectStore({ historySize: 2 });
    for (const name of ['a', 'b', 'c', 'd']) create(store, 'ns', name);
    expect(() => store.range(resource, {}, 1)).toThrow(/too old resource version: 1/);
  });

  it('reads only as many objects as the caller consumes, not what follows the cursor', () => {
    const store = new ObjectStore();
    for (let i = 0; i < 10_000; i++) create(store, 'ns', `cm-${String(i).padStart(5, '0')}`);
    const revision = store.currentRevision();
    create(store, 'ns', 'cm-00000-new');
    // The page's reads are counted through the map the range reads objects from.
    const data = (
      store as unknown as { resources: Map<string, { objects: Map<string, unknown> }> }
    ).resources.get(resource);
    const objects = data?.objects as Map<string, unknown>;
    let gets = 0;
    const get = objects.get.bind(objects);
    objects.get = (key: string) => {
      gets++;
      return get(key);
    };
    let taken = 0;
    const seen: string[] = [];
    for (const stored of store.range(resource, { after: 'ns/cm-05000' }, revision)) {
      seen.push(stored.key);
      if (++taken === 10) break;
    }
    expect(seen[0]).toBe('ns/cm-05001');
    expect(seen).toHaveLength(10);
    expect(gets).toBe(10);
  });
});
