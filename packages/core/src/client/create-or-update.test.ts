import type { KubernetesObject } from '@ops/api';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors/api-error.js';
import { notFoundError } from './api-error-from-response.js';
import type { ConfigMap } from './built-in-kinds.js';
import type { CallOptions, ObjectRef } from './client.js';
import { type CreateOrUpdateClient, createOrUpdate } from './create-or-update.js';

/** An in-memory client that counts every write. */
function countingClient(initial: KubernetesObject[] = []) {
  const store = new Map<string, KubernetesObject>();
  const keyOf = (o: { name?: string; namespace?: string }) =>
    `${o.namespace ?? ''}/${o.name ?? ''}`;
  for (const object of initial) store.set(keyOf(object.metadata ?? {}), structuredClone(object));
  const writes: string[] = [];
  /** The signal each call was given, in order: `get`, then the write. */
  const signals: (AbortSignal | undefined)[] = [];
  let version = 1;
  const client: CreateOrUpdateClient = {
    get: (async (target: ObjectRef | KubernetesObject, options?: CallOptions) => {
      signals.push(options?.signal);
      const meta =
        'metadata' in target && target.metadata ? target.metadata : (target as ObjectRef);
      const found = store.get(keyOf(meta));
      if (!found) throw notFoundError('', 'configmaps', meta.name ?? '');
      return structuredClone(found);
    }) as CreateOrUpdateClient['get'],
    create: async <T extends KubernetesObject>(obj: T, options?: CallOptions) => {
      signals.push(options?.signal);
      writes.push('create');
      const stored = {
        ...structuredClone(obj),
        metadata: { ...obj.metadata, resourceVersion: String(version++) },
      };
      store.set(keyOf(stored.metadata), stored);
      return structuredClone(stored) as T;
    },
    update: async <T extends KubernetesObject>(obj: T, options?: CallOptions) => {
      signals.push(options?.signal);
      writes.push('update');
      const stored = {
        ...structuredClone(obj),
        metadata: { ...obj.metadata, resourceVersion: String(version++) },
      };
      store.set(keyOf(stored.metadata), stored);
      return structuredClone(stored) as T;
    },
  };
  return { client, writes, store, signals };
}

const desired = (): ConfigMap => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'app', namespace: 'default' },
});

describe('createOrUpdate', () => {
  it("gives the read and the write the caller's signal (a reconcile's, aborted on its timeout)", async () => {
    const { client, signals } = countingClient();
    const { signal } = new AbortController();
    const setData = (value: string) => (cm: ConfigMap) => {
      cm.data = { a: value };
    };
    await createOrUpdate(client, desired(), setData('1'), { signal });
    await createOrUpdate(client, desired(), setData('2'), { signal });
    expect(signals).toEqual([signal, signal, signal, signal]);
    // Without one, no call gets a signal.
    signals.length = 0;
    await createOrUpdate(client, desired(), setData('3'));
    expect(signals).toEqual([undefined, undefined]);
  });

  it('creates a missing object after mutating a copy', async () => {
    const { client, writes } = countingClient();
    const obj = desired();
    const { result, object } = await createOrUpdate(client, obj, (cm) => {
      cm.data = { key: 'value' };
    });
    expect(result).toBe('created');
    expect(object.data).toEqual({ key: 'value' });
    expect(object.metadata?.resourceVersion).toBe('1');
    expect(obj.data).toBeUndefined();
    expect(writes).toEqual(['create']);
  });

  it('writes nothing when mutate leaves the live object as it was', async () => {
    const live = { ...desired(), data: { key: 'value', other: 'kept' } };
    const { client, writes } = countingClient([live]);
    for (let i = 0; i < 3; i++) {
      const { result, object } = await createOrUpdate(client, desired(), (cm) => {
        cm.data = { ...cm.data, key: 'value' };
      });
      expect(result).toBe('unchanged');
      expect(object.data).toEqual({ key: 'value', other: 'kept' });
    }
    expect(writes).toEqual([]);
  });

  it('updates the live object, keeping what mutate does not manage', async () => {
    const live = { ...desired(), data: { key: 'old', other: 'kept' } };
    const { client, writes, store } = countingClient([live]);
    const { result, object } = await createOrUpdate(client, desired(), async (cm) => {
      await Promise.resolve();
      cm.data = { ...cm.data, key: 'new' };
    });
    expect(result).toBe('updated');
    expect(object.data).toEqual({ key: 'new', other: 'kept' });
    expect(store.get('default/app')).toMatchObject({ data: { key: 'new', other: 'kept' } });
    expect(writes).toEqual(['update']);
  });

  it('refuses a mutate that changes the identity, and passes read errors through', async () => {
    const { client, writes } = countingClient([desired()]);
    const error = await createOrUpdate(client, desired(), (cm) => {
      cm.metadata = { ...cm.metadata, name: 'renamed' };
    }).catch((e) => e);
    expect(ApiError.isInstance(error) && error.reason).toBe('BadRequest');
    expect((error as Error).message).toContain('mutate changed the object');
    expect(writes).toEqual([]);

    const failing: CreateOrUpdateClient = {
      ...client,
      get: (() => Promise.reject(new Error('boom'))) as CreateOrUpdateClient['get'],
    };
    await expect(createOrUpdate(failing, desired(), () => {})).rejects.toThrow('boom');
  });
});
