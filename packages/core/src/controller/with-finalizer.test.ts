import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConfigMap, configMaps } from '../client/built-in-kinds.js';
import { Client } from '../client/client.js';
import { type LocalApiServer, startLocalApiServer } from '../client/local-api-server.fixture.js';
import { FinalizerError } from '../errors/finalizer-error.js';
import { withFinalizer } from './with-finalizer.js';

const ours = 'example.com/cleanup';
const theirs = 'other.example.com/keep';

let server: LocalApiServer;
let client: Client;
const requests: string[] = [];

beforeAll(async () => {
  server = await startLocalApiServer();
  client = new Client({
    kubeConfig: server.kubeConfig,
    onRequest: (verb, resource) => requests.push(`${verb} ${resource}`),
  });
}, 30_000);

afterAll(async () => {
  client?.close();
  await server?.stop();
});

async function createConfigMap(finalizers: string[] = []): Promise<ConfigMap> {
  return client.create<ConfigMap>({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `cm-${randomUUID().slice(0, 8)}`, namespace: 'default', finalizers },
    data: { a: '1' },
  });
}

/** Handlers that record their calls; `cleanup` answers with the results given, in turn. */
function recording(cleanupResults: ({ requeueAfterMs: number } | undefined)[] = []) {
  const calls: string[] = [];
  const seen: ConfigMap[] = [];
  return {
    calls,
    seen,
    handlers: {
      apply: (object: ConfigMap) => {
        calls.push('apply');
        seen.push(object);
        return { requeueAfterMs: 60_000 };
      },
      cleanup: (object: ConfigMap) => {
        calls.push('cleanup');
        seen.push(object);
        return cleanupResults.shift();
      },
    },
  };
}

describe('withFinalizer', () => {
  it('adds the finalizer after the others, then applies to the stored object', async () => {
    const created = await createConfigMap([theirs]);
    const { calls, seen, handlers } = recording();
    const result = await withFinalizer(client, created, ours, handlers);
    expect(result).toEqual({ requeueAfterMs: 60_000 });
    expect(calls).toEqual(['apply']);
    expect(seen[0]?.metadata?.finalizers).toEqual([theirs, ours]);
    const stored = await client.get(configMaps, created.metadata?.name ?? '', 'default');
    expect(stored.metadata?.finalizers).toEqual([theirs, ours]);
  });

  it('sends nothing but the handler when the finalizer is already there', async () => {
    const created = await createConfigMap([ours]);
    const { calls, handlers } = recording();
    requests.length = 0;
    await withFinalizer(client, created, ours, handlers);
    expect(calls).toEqual(['apply']);
    expect(requests).toEqual([]);
  });

  it('keeps a finalizer another writer added after the read (the guard fails, it reads again)', async () => {
    const stale = await createConfigMap([theirs]);
    const name = stale.metadata?.name ?? '';
    const live = await client.get(configMaps, name, 'default');
    await client.patch(
      live,
      [{ op: 'add', path: '/metadata/finalizers/-', value: 'third.example.com/x' }],
      'json',
    );
    const { seen, handlers } = recording();
    await withFinalizer(client, stale, ours, handlers);
    const stored = await client.get(configMaps, name, 'default');
    expect(stored.metadata?.finalizers).toEqual([theirs, 'third.example.com/x', ours]);
    expect(seen[0]?.metadata?.finalizers).toEqual(stored.metadata?.finalizers);
  });

  it('runs cleanup on deletion, keeps the finalizer while cleanup asks to requeue, then removes only its own', async () => {
    const created = await createConfigMap([theirs, ours]);
    const name = created.metadata?.name ?? '';
    await client.delete(created);
    const deleting = await client.get(configMaps, name, 'default');
    expect(deleting.metadata?.deletionTimestamp).toBeDefined();
    const { calls, handlers } = recording([{ requeueAfterMs: 500 }, undefined]);

    expect(await withFinalizer(client, deleting, ours, handlers)).toEqual({ requeueAfterMs: 500 });
    const still = await client.get(configMaps, name, 'default');
    expect(still.metadata?.finalizers).toEqual([theirs, ours]);

    expect(await withFinalizer(client, still, ours, handlers)).toBeUndefined();
    expect(calls).toEqual(['cleanup', 'cleanup']);
    const after = await client.get(configMaps, name, 'default');
    expect(after.metadata?.finalizers).toEqual([theirs]);
  });

  it('lets the API server delete the object once its finalizer was the last', async () => {
    const created = await createConfigMap([ours]);
    const name = created.metadata?.name ?? '';
    await client.delete(created);
    const deleting = await client.get(configMaps, name, 'default');
    const { calls, handlers } = recording();
    await withFinalizer(client, deleting, ours, handlers);
    expect(calls).toEqual(['cleanup']);
    await expect(client.get(configMaps, name, 'default')).rejects.toMatchObject({
      reason: 'NotFound',
    });
  });

  it('calls neither handler for a deleting object without its finalizer', async () => {
    const created = await createConfigMap([theirs]);
    await client.delete(created);
    const deleting = await client.get(configMaps, created.metadata?.name ?? '', 'default');
    const { calls, handlers } = recording();
    expect(await withFinalizer(client, deleting, ours, handlers)).toBeUndefined();
    expect(calls).toEqual([]);
  });

  it("stops at the caller's signal: an aborted reconcile adds no finalizer and applies nothing", async () => {
    const created = await createConfigMap([theirs]);
    const { calls, handlers } = recording();
    const aborted = new AbortController();
    aborted.abort(new Error('the reconcile ran past its timeout'));
    await expect(
      withFinalizer(client, created, ours, handlers, { signal: aborted.signal }),
    ).rejects.toMatchObject({ reason: 'ConnectionFailed' });
    expect(calls).toEqual([]);
    expect((await client.get<ConfigMap>(created)).metadata?.finalizers).toEqual([theirs]);
  });

  it('rejects a finalizer name Kubernetes would refuse, naming a valid form', async () => {
    const created = await createConfigMap();
    const { calls, handlers } = recording();
    const attempt = withFinalizer(client, created, 'not a name', handlers);
    await expect(attempt).rejects.toBeInstanceOf(FinalizerError);
    await expect(attempt).rejects.toThrow(/example\.com\/cleanup/);
    expect(calls).toEqual([]);
  });
});
