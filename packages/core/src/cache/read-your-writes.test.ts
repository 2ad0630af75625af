import type { KubernetesObject } from '@ops/api';
import { describe, expect, it } from 'vitest';
import { isNotFound } from '../client/api-error-helpers.js';
import { Client } from '../client/client.js';
import { FakeClock } from '../clock/fake-clock.js';
import type { TransportRequest, WatchHandlers } from '../transport/kube-transport.js';
import type { InformerTransport } from './informer.js';
import { InformerCache } from './informer-cache.js';
import {
  configMaps,
  eventually,
  localClusterForFile,
  namespaces,
  StaticRestMapper,
} from './local-cluster.test-helper.js';

/**
 * Passes requests through, and holds back the lines of watches while `holding`: an informer
 * that lags behind the API server as long as the test wants.
 */
class LaggingTransport implements InformerTransport {
  holding = false;
  private readonly held: Array<() => void> = [];

  constructor(private readonly inner: InformerTransport) {}

  request(request: TransportRequest) {
    return this.inner.request(request);
  }

  watch(path: string, query: TransportRequest['query'], handlers: WatchHandlers) {
    return this.inner.watch(path, query, {
      onLine: (line) => {
        if (this.holding) this.held.push(() => handlers.onLine(line));
        else handlers.onLine(line);
      },
      onDone: (error) => handlers.onDone(error),
    });
  }

  release(): void {
    this.holding = false;
    for (const deliver of this.held.splice(0)) deliver();
  }
}

const local = localClusterForFile();
const { caches } = local;
let counter = 0;

async function setup(
  options: { readYourWrites?: boolean; timeoutMs?: number; clock?: FakeClock } = {},
) {
  const ns = `ryw-${++counter}`;
  await local.cluster.createNamespace(ns);
  await local.cluster.createConfigMap(ns, 'a', { data: { v: '0' } });
  const transport = new LaggingTransport(local.cluster.transport);
  const restMapper = new StaticRestMapper([configMaps, namespaces]);
  const cache = new InformerCache({
    transport,
    restMapper,
    ...(options.readYourWrites === false ? { readYourWrites: false } : {}),
    ...(options.timeoutMs !== undefined ? { readYourWritesTimeoutMs: options.timeoutMs } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  caches.push(cache);
  await cache.getInformer(configMaps, { namespace: ns }).waitForSync(10_000);
  const requests: string[] = [];
  const client = new Client({
    transport: local.cluster.transport,
    restMapper,
    cache,
    onRequest: (verb, resource) => requests.push(`${verb} ${resource}`),
  });
  return { ns, transport, cache, client, requests };
}

const versionOf = (object: KubernetesObject) => object.metadata?.resourceVersion;

describe('read-your-writes through the client and the informer cache', () => {
  it('a read after an update waits for the informer to show it, then answers from the cache', async () => {
    const { ns, transport, client, requests } = await setup();
    const before = await client.get('v1', 'ConfigMap', 'a', ns);
    transport.holding = true;
    const written = await client.update({ ...before, data: { v: '1' } });
    let answered: KubernetesObject | undefined;
    const read = client.get('v1', 'ConfigMap', 'a', ns).then((object) => {
      answered = object;
      return object;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(answered).toBeUndefined();
    transport.release();
    expect(versionOf(await read)).toBe(versionOf(written));
    expect((await read).data).toEqual({ v: '1' });
    // Served by the cache: no GET reached the API server.
    expect(requests).toEqual(['update configmaps']);
  });

  it('without read-your-writes the same read answers the older version at once', async () => {
    const { ns, transport, client } = await setup({ readYourWrites: false });
    const before = await client.get('v1', 'ConfigMap', 'a', ns);
    transport.holding = true;
    await client.update({ ...before, data: { v: '1' } });
    const stale = await client.get('v1', 'ConfigMap', 'a', ns);
    expect(versionOf(stale)).toBe(versionOf(before));
    transport.release();
  });

  it('a list waits for writes of its namespace, status and patch writes included', async () => {
    const { ns, transport, client } = await setup();
    transport.holding = true;
    const patched = await client.patch(
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: ns, name: 'a' } },
      { data: { v: 'patched' } },
      'merge',
    );
    const created = await client.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { namespace: ns, name: 'b' },
    });
    const listed = client.list('v1', 'ConfigMap', { namespace: ns });
    setTimeout(() => transport.release(), 50);
    const items = (await listed).items;
    expect(Object.fromEntries(items.map((o) => [o.metadata?.name, versionOf(o)]))).toEqual({
      a: versionOf(patched),
      b: versionOf(created),
    });
  });

  it('a read after a delete does not find the object the informer still holds', async () => {
    const { ns, transport, client } = await setup();
    transport.holding = true;
    await client.delete({ apiVersion: 'v1', kind: 'ConfigMap', name: 'a', namespace: ns });
    const read = client.get('v1', 'ConfigMap', 'a', ns);
    setTimeout(() => transport.release(), 50);
    await expect(read).rejects.toSatisfy(isNotFound);
  });

  it('when the informer does not show the write in time, the read goes to the API server', async () => {
    const clock = new FakeClock();
    const { ns, transport, client, requests } = await setup({ clock, timeoutMs: 1000 });
    const before = await client.get('v1', 'ConfigMap', 'a', ns);
    transport.holding = true;
    const written = await client.update({ ...before, data: { v: '1' } });
    let done = false;
    const read = client.get('v1', 'ConfigMap', 'a', ns).finally(() => {
      done = true;
    });
    // The read first asks the server's /version, then waits on the fake clock: advance it
    // until the wait has given up, however long the first step takes.
    await eventually(() => {
      clock.advance(1000);
      return done;
    }, 'the read gives up waiting for the informer');
    expect(versionOf(await read)).toBe(versionOf(written));
    expect(requests).toEqual(['update configmaps', 'get configmaps']);
    // The write is forgotten: the next read does not wait again.
    expect(versionOf(await client.get('v1', 'ConfigMap', 'a', ns))).toBe(versionOf(before));
    transport.release();
  });
});
