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
import type { ResourceVersionOrder } from './resource-version-order.js';

/**
 * Passes requests through, and holds back the lines of watches while `holding`: an informer
 * that lags behind the API server as long as the test wants.
 */
class LaggingTransport implements InformerTransport {
  holding = false;
  private readonly held: Array<() => void> = [];
  private readonly watches: WatchHandlers[] = [];

  constructor(private readonly inner: InformerTransport) {}

  request(request: TransportRequest) {
    return this.inner.request(request);
  }

  watch(path: string, query: TransportRequest['query'], handlers: WatchHandlers) {
    this.watches.push(handlers);
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

  /**
   * Drops the lines held back and ends the watches as kube-apiserver does when their
   * resourceVersion is too old (an `ERROR` event with a 410 Status): the informer relists and
   * sees the objects as they are now, never the versions held back.
   */
  expire(): void {
    this.holding = false;
    this.held.length = 0;
    const expired = JSON.stringify({
      type: 'ERROR',
      object: {
        kind: 'Status',
        apiVersion: 'v1',
        code: 410,
        reason: 'Expired',
        message: 'too old resource version',
      },
    });
    for (const handlers of this.watches.splice(0)) handlers.onLine(expired);
  }
}

const local = localClusterForFile();
const { caches } = local;
let counter = 0;

async function setup(
  options: {
    readYourWrites?: boolean;
    timeoutMs?: number;
    clock?: FakeClock;
    resourceVersionOrder?: ResourceVersionOrder;
  } = {},
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
    ...(options.resourceVersionOrder ? { resourceVersionOrder: options.resourceVersionOrder } : {}),
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

/**
 * Advances `clock` a second at a time until `settled()`: a read that first asks the server's
 * /version and then waits on the fake clock gives up however long the first step takes.
 */
async function advanceUntil(clock: FakeClock, settled: () => boolean, what: string) {
  await eventually(() => {
    clock.advance(1000);
    return settled();
  }, what);
}

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
    await advanceUntil(clock, () => done, 'the read gives up waiting for the informer');
    expect(versionOf(await read)).toBe(versionOf(written));
    expect(requests).toEqual(['update configmaps', 'get configmaps']);
    // The write is forgotten: the next read does not wait again.
    expect(versionOf(await client.get('v1', 'ConfigMap', 'a', ns))).toBe(versionOf(before));
    transport.release();
  });

  it('a metadata read waits for the metadata-only informer to show the write, then answers from it', async () => {
    const { ns, transport, cache, client, requests } = await setup();
    await cache.getInformer(configMaps, { namespace: ns, metadataOnly: true }).waitForSync(10_000);
    transport.holding = true;
    const written = await client.patch(
      { apiVersion: 'v1', kind: 'ConfigMap', name: 'a', namespace: ns },
      { metadata: { labels: { written: 'yes' } } },
      'merge',
    );
    let answered = false;
    const read = client.getMetadata('v1', 'ConfigMap', 'a', ns).finally(() => {
      answered = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(answered).toBe(false);
    transport.release();
    const metadata = await read;
    expect(metadata).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: expect.objectContaining({ labels: { written: 'yes' } }),
    });
    expect(metadata.metadata.resourceVersion).toBe(versionOf(written));
    // Served by the metadata cache: no GET reached the API server.
    expect(requests).toEqual(['patch configmaps']);
  });

  describe('a foreign write right after the own one, seen only after a relist', () => {
    // The informer never sees the own write's version: its watch expires and the relist
    // finds the foreign write's newer one (what an API server restart does to a controller).
    async function ownThenForeign(resourceVersionOrder?: ResourceVersionOrder) {
      const clock = new FakeClock();
      const setupOptions = { clock, ...(resourceVersionOrder ? { resourceVersionOrder } : {}) };
      const { ns, transport, cache, client, requests } = await setup(setupOptions);
      const before = await client.get('v1', 'ConfigMap', 'a', ns);
      transport.holding = true;
      const own = await client.update({ ...before, data: { v: 'own' } });
      const foreignClient = new Client({
        transport: local.cluster.transport,
        restMapper: new StaticRestMapper([configMaps]),
      });
      const foreign = await foreignClient.patch(own, { data: { v: 'foreign' } }, 'merge');
      transport.expire();
      await eventually(
        () => versionOf(cache.get('v1', 'ConfigMap', ns, 'a') ?? {}) === versionOf(foreign),
        'the relist to show the foreign write',
      );
      return { ns, clock, cache, client, requests, own, foreign };
    }

    it('on the local API server (1.35+: comparable resourceVersions) the read answers from the cache without waiting', async () => {
      const { ns, cache, client, requests, own, foreign } = await ownThenForeign();
      expect(cache.resourceVersionOrder).toBe('comparable');
      expect(Number(versionOf(foreign))).toBeGreaterThan(Number(versionOf(own)));
      // The fake clock never moves: a read that waited for the bound would never answer.
      const read = await client.get('v1', 'ConfigMap', 'a', ns);
      expect(versionOf(read)).toBe(versionOf(foreign));
      expect(read.data).toEqual({ v: 'foreign' });
      expect(requests).toEqual(['update configmaps']);
    });

    it('with exact resourceVersions the same read waits the whole bound, then asks the server', async () => {
      const { ns, clock, client, requests, foreign } = await ownThenForeign('exact');
      let done = false;
      const read = client.get('v1', 'ConfigMap', 'a', ns).finally(() => {
        done = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(done).toBe(false);
      await advanceUntil(clock, () => done, 'the read gives up waiting for the own write');
      expect(versionOf(await read)).toBe(versionOf(foreign));
      expect(requests).toEqual(['update configmaps', 'get configmaps']);
    });
  });
});
