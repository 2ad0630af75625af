import { configMaps } from '@ops/core';
import { Informer, type InformerTransport } from '@ops/core/cache';
import { KubeTransport, type TransportRequest, type WatchHandlers } from '@ops/core/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../src/index.js';
import { startCluster, type TestCluster } from '../cluster.js';

// @ops/core's informer syncs by WatchList (a streaming list) where the server supports it and
// falls back to a paged LIST where it does not: against the local API server in `pnpm test`,
// against kube-apiserver in `pnpm test:binaries`.
let cluster: TestCluster;
let transport: KubeTransport;
const namespace = 'informer-watch-list';
const objects = 40;

beforeAll(async () => {
  cluster = await startCluster();
  transport = new KubeTransport(cluster.kubeConfig);
  await cluster.request('POST', '/api/v1/namespaces', { metadata: { name: namespace } });
  for (let i = 0; i < objects; i++)
    await cluster.request('POST', `/api/v1/namespaces/${namespace}/configmaps`, {
      metadata: { name: `cm-${i}` },
      data: { i: String(i) },
    });
});
afterAll(async () => {
  transport?.close();
  await cluster?.stop();
});

/** The transport, recording each request's and each watch's query; `rewrite` may change a watch's. */
class RecordingTransport implements InformerTransport {
  readonly lists: TransportRequest['query'][] = [];
  readonly watches: TransportRequest['query'][] = [];

  constructor(
    private readonly rewrite: (query: TransportRequest['query']) => TransportRequest['query'] = (
      query,
    ) => query,
  ) {}

  request(request: TransportRequest) {
    this.lists.push(request.query);
    return transport.request(request);
  }

  watch(path: string, query: TransportRequest['query'], handlers: WatchHandlers) {
    this.watches.push(query);
    return transport.watch(path, this.rewrite(query), handlers);
  }
}

async function synced(recording: RecordingTransport, options: { bookmarkTimeoutMs?: number } = {}) {
  const informer = new Informer({
    transport: recording,
    descriptor: configMaps.descriptor,
    namespace,
    ...(options.bookmarkTimeoutMs === undefined
      ? {}
      : { watchListBookmarkTimeoutMs: options.bookmarkTimeoutMs }),
  });
  informer.start();
  await informer.waitForSync(30_000);
  return informer;
}

describe('the informer and WatchList', () => {
  it('syncs by one WatchList, without a LIST, and goes on watching on it', async () => {
    const recording = new RecordingTransport();
    const informer = await synced(recording);
    try {
      expect(informer.objectCount()).toBe(objects);
      expect(recording.lists).toEqual([]);
      expect(recording.watches).toEqual([
        expect.objectContaining({
          sendInitialEvents: true,
          resourceVersionMatch: 'NotOlderThan',
          allowWatchBookmarks: true,
        }),
      ]);
      expect(informer.stats()).toMatchObject({ watchLists: 1, watchListFallbacks: 0, lists: 1 });
      // The bookmark's resourceVersion is the state's: at least that of the last object.
      const newest = Math.max(
        ...informer.list().map((o) => Number(o.metadata?.resourceVersion ?? 0)),
      );
      expect(Number(informer.lastSyncResourceVersion)).toBeGreaterThanOrEqual(newest);
      await cluster.request('POST', `/api/v1/namespaces/${namespace}/configmaps`, {
        metadata: { name: 'after-sync' },
      });
      await eventually(() => informer.get(namespace, 'after-sync') !== undefined, {
        timeoutMs: 20_000,
      });
      expect(recording.watches).toHaveLength(1);
    } finally {
      await informer.stop();
      await cluster.request('DELETE', `/api/v1/namespaces/${namespace}/configmaps/after-sync`);
    }
  });

  it('falls back to a paged LIST when the server refuses the parameters (422)', async () => {
    // `resourceVersionMatch=Exact` is not accepted with sendInitialEvents: the server's own
    // validation answers 422, as one without the feature does.
    const recording = new RecordingTransport((query) =>
      query?.sendInitialEvents ? { ...query, resourceVersionMatch: 'Exact' } : query,
    );
    const informer = await synced(recording);
    try {
      expect(informer.objectCount()).toBe(objects);
      expect(recording.lists).toHaveLength(1);
      expect(recording.watches).toHaveLength(2);
      expect(recording.watches[1]?.sendInitialEvents).toBeUndefined();
      expect(recording.watches[1]?.resourceVersion).toBe(informer.lastSyncResourceVersion);
      expect(informer.stats()).toMatchObject({ watchLists: 1, watchListFallbacks: 1 });
    } finally {
      await informer.stop();
    }
  });

  it('falls back to a paged LIST when the server ignores sendInitialEvents and sends no bookmark', async () => {
    // As a server older than streaming lists: a plain watch without a resourceVersion, whose
    // ADDED events are the current state but which never says it is complete. (Without
    // allowWatchBookmarks: kube-apiserver 1.37 ends even a plain watch's initial ADDED
    // events with the annotated bookmark when bookmarks are allowed.)
    const recording = new RecordingTransport((query) => {
      if (!query?.sendInitialEvents) return query;
      const {
        sendInitialEvents: _s,
        resourceVersionMatch: _m,
        allowWatchBookmarks: _b,
        ...plain
      } = query;
      return plain;
    });
    const informer = await synced(recording, { bookmarkTimeoutMs: 1_000 });
    try {
      expect(informer.objectCount()).toBe(objects);
      expect(recording.lists).toHaveLength(1);
      expect(informer.stats()).toMatchObject({ watchLists: 1, watchListFallbacks: 1 });
    } finally {
      await informer.stop();
    }
  });
});
