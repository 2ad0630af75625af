/**
 * The informer's list/watch protocol against a scripted transport on fake time: exact
 * query parameters, resume points, backoff delays and silence detection.
 */

import type { KubernetesObject } from '@ops/api';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../clock/fake-clock.js';
import type { InformerRequestError } from '../errors/informer-request-error.js';
import type {
  TransportRequest,
  TransportResponse,
  WatchConnection,
  WatchHandlers,
} from '../transport/kube-transport.js';
import {
  defaultInformerPageSize,
  Informer,
  type InformerOptions,
  type InformerTransport,
} from './informer.js';
import { configMaps } from './local-cluster.test-helper.js';

interface ScriptedWatch {
  path: string;
  query: TransportRequest['query'];
  handlers: WatchHandlers;
  closed: boolean;
  /** Sends one event line. */
  send(type: string, object: unknown): void;
  /** Ends the stream, cleanly or with an error. */
  end(error?: Error & { status?: number }): void;
}

class ScriptedTransport implements InformerTransport {
  readonly requests: TransportRequest[] = [];
  readonly watches: ScriptedWatch[] = [];
  readonly responses: Array<(request: TransportRequest) => TransportResponse> = [];

  async request(request: TransportRequest): Promise<TransportResponse> {
    this.requests.push(request);
    const next = this.responses.shift();
    if (next === undefined) throw new Error('connect ECONNREFUSED (no scripted response)');
    return next(request);
  }

  async watch(
    path: string,
    query: TransportRequest['query'],
    handlers: WatchHandlers,
  ): Promise<WatchConnection> {
    let done = false;
    const watch: ScriptedWatch = {
      path,
      query,
      handlers,
      closed: false,
      send: (type, object) => handlers.onLine(JSON.stringify({ type, object })),
      end: (error) => {
        if (done) return;
        done = true;
        handlers.onDone(error);
      },
    };
    this.watches.push(watch);
    return {
      close: () => {
        watch.closed = true;
        watch.end();
      },
    };
  }

  get lastWatch(): ScriptedWatch {
    const watch = this.watches[this.watches.length - 1];
    if (watch === undefined) throw new Error('no watch yet');
    return watch;
  }
}

function cm(name: string, rv: string, data: Record<string, string> = {}): KubernetesObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { namespace: 'ns', name, resourceVersion: rv },
    data,
  };
}

function listPage(
  items: KubernetesObject[],
  resourceVersion: string,
  next?: string,
  remainingItemCount?: number,
) {
  return (): TransportResponse => ({
    status: 200,
    headers: {},
    text: JSON.stringify({
      kind: 'ConfigMapList',
      apiVersion: 'v1',
      metadata: {
        resourceVersion,
        ...(next ? { continue: next } : {}),
        ...(remainingItemCount === undefined ? {} : { remainingItemCount }),
      },
      // Real API servers leave apiVersion and kind out of list items.
      items: items.map(({ apiVersion: _a, kind: _k, ...rest }) => rest),
    }),
  });
}

function status(code: number, message: string) {
  return (): TransportResponse => ({
    status: code,
    headers: {},
    text: JSON.stringify({ kind: 'Status', status: 'Failure', code, message }),
  });
}

/** Lets the informer's promises settle. */
async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

async function started(options: Partial<InformerOptions> = {}) {
  const transport = new ScriptedTransport();
  const clock = new FakeClock(1_000_000);
  const events: string[] = [];
  const informer = new Informer({
    transport,
    descriptor: configMaps,
    namespace: 'ns',
    clock,
    random: () => 0.5,
    // These tests are of the paged LIST path; the WatchList tests below turn it on.
    watchList: false,
    ...options,
  });
  informer.addEventHandler({
    onAdd: (o, initial) => events.push(`add ${o.metadata?.name}${initial ? ' initial' : ''}`),
    onUpdate: (a, b) =>
      events.push(
        `update ${b.metadata?.name} ${a.metadata?.resourceVersion}->${b.metadata?.resourceVersion}`,
      ),
    onDelete: (o, unknown) => events.push(`delete ${o.metadata?.name}${unknown ? ' unknown' : ''}`),
  });
  return { transport, clock, events, informer };
}

describe('Informer protocol', () => {
  it('lists with limit and continue (continue pages on the helper thread), then watches from the list version with bookmarks and a 5–10 minute timeout', async () => {
    const { transport, informer, events } = await started({ labelSelector: 'app=x' });
    transport.responses.push(
      listPage([cm('a', '5')], '10', 'token-1'),
      listPage([cm('b', '7')], '10'),
    );
    informer.start();
    await flush();

    expect(transport.requests.map((r) => r.query)).toEqual([
      {
        labelSelector: 'app=x',
        fieldSelector: undefined,
        limit: defaultInformerPageSize,
        continue: undefined,
      },
      {
        labelSelector: 'app=x',
        fieldSelector: undefined,
        limit: defaultInformerPageSize,
        continue: 'token-1',
      },
    ]);
    expect(transport.requests[0]?.path).toBe('/api/v1/namespaces/ns/configmaps');
    // Only continue pages go to the helper thread: a one-page list never starts it.
    expect(transport.requests.map((r) => r.offThread)).toEqual([false, true]);
    expect(informer.hasSynced()).toBe(true);
    expect(informer.lastSyncResourceVersion).toBe('10');
    expect(informer.get('ns', 'a')).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap' });
    expect(events).toEqual(['add a initial', 'add b initial']);
    expect(transport.watches).toHaveLength(1);
    expect(transport.lastWatch.path).toBe('/api/v1/namespaces/ns/configmaps');
    expect(transport.lastWatch.query).toEqual({
      labelSelector: 'app=x',
      fieldSelector: undefined,
      watch: true,
      resourceVersion: '10',
      allowWatchBookmarks: true,
      timeoutSeconds: 450, // 300 × (1 + 0.5)
    });
    await informer.stop();
    expect(transport.lastWatch.closed).toBe(true);
  });

  it('resumes from the last event or bookmark at once when a watch ends cleanly', async () => {
    const { transport, clock, informer, events } = await started();
    transport.responses.push(listPage([], '10'));
    informer.start();
    await flush();
    transport.lastWatch.send('ADDED', cm('a', '11'));
    transport.lastWatch.send('MODIFIED', cm('a', '11')); // same version: no update
    transport.lastWatch.send('BOOKMARK', {
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { resourceVersion: '15' },
    });
    expect(informer.lastSyncResourceVersion).toBe('15');
    clock.advance(5_000);
    transport.lastWatch.end();
    await flush();

    expect(transport.watches).toHaveLength(2);
    expect(transport.lastWatch.query?.resourceVersion).toBe('15');
    expect(transport.requests).toHaveLength(1);
    expect(events).toEqual(['add a']);
    await informer.stop();
  });

  it('backs off, jittered and growing, after failed watches, and treats an instant empty end as a failure', async () => {
    const { transport, clock, informer } = await started();
    transport.responses.push(listPage([], '10'));
    informer.start();
    await flush();
    // A stream cut mid-watch: backoff, then a watch from the same version (no relist).
    transport.lastWatch.end(new Error('watch /api/v1/namespaces/ns/configmaps connection closed'));
    await flush();
    expect(informer.lastError?.message).toMatch(/connection closed/);
    // 800 ms × (1 − 0.2 × 0.5) = 720 ms
    clock.advance(719);
    await flush();
    expect(transport.watches).toHaveLength(1);
    clock.advance(1);
    await flush();
    expect(transport.watches).toHaveLength(2);

    transport.lastWatch.end(); // ends at once, nothing delivered
    await flush();
    clock.advance(1_439);
    await flush();
    expect(transport.watches).toHaveLength(2);
    clock.advance(1);
    await flush();
    expect(transport.watches).toHaveLength(3);
    expect(transport.lastWatch.query?.resourceVersion).toBe('10');
    expect(informer.stats()).toMatchObject({ errors: 2, lists: 1 });
    await informer.stop();
  });

  it('closes a watch that stays silent past the threshold, and not before', async () => {
    const { transport, clock, informer } = await started({ silentWatchTimeoutMs: 1_000 });
    transport.responses.push(listPage([], '10'));
    informer.start();
    await flush();
    clock.advance(999);
    transport.lastWatch.send('BOOKMARK', { metadata: { resourceVersion: '12' } });
    clock.advance(999);
    expect(transport.lastWatch.closed).toBe(false);
    clock.advance(1);
    expect(transport.watches[0]?.closed).toBe(true);
    await flush();
    // It had delivered something, so the next watch starts at once, from the bookmark.
    expect(transport.watches).toHaveLength(2);
    expect(transport.lastWatch.query?.resourceVersion).toBe('12');
    expect(informer.stats().silentWatches).toBe(1);
    await informer.stop();
  });

  it('never ends a healthy watch on a timer (bookmarks every minute for an hour)', async () => {
    const { transport, clock, informer } = await started();
    transport.responses.push(listPage([], '10'));
    informer.start();
    await flush();
    for (let minute = 1; minute <= 60; minute++) {
      clock.advance(60_000);
      transport.lastWatch.send('BOOKMARK', { metadata: { resourceVersion: String(10 + minute) } });
    }
    await flush();
    expect(transport.watches).toHaveLength(1);
    expect(transport.lastWatch.closed).toBe(false);
    await informer.stop();
  });

  it('relists on a 410 ERROR event and reconciles: adds, updates and deletes only the differences', async () => {
    const { transport, informer, events } = await started();
    transport.responses.push(
      listPage([cm('same', '1'), cm('changed', '2'), cm('gone', '3')], '10'),
    );
    informer.start();
    await flush();
    events.length = 0;
    transport.responses.push(
      listPage([cm('same', '1'), cm('changed', '20'), cm('new', '21')], '30'),
    );
    transport.lastWatch.send('ERROR', {
      kind: 'Status',
      code: 410,
      reason: 'Expired',
      message: 'too old resource version',
    });
    await flush();

    expect(transport.requests).toHaveLength(2);
    expect(events.sort()).toEqual(['add new', 'delete gone unknown', 'update changed 2->20']);
    expect(informer.keys().sort()).toEqual(['ns/changed', 'ns/new', 'ns/same']);
    expect(informer.lastSyncResourceVersion).toBe('30');
    expect(transport.lastWatch.query?.resourceVersion).toBe('30');
    expect(informer.stats()).toMatchObject({ goneRelists: 1, lists: 2 });
    await informer.stop();
  });

  it('relists on an HTTP 410 answer to a watch', async () => {
    const { transport, informer } = await started();
    transport.responses.push(listPage([], '10'), listPage([cm('a', '40')], '41'));
    informer.start();
    await flush();
    transport.lastWatch.end(Object.assign(new Error('watch answered 410: gone'), { status: 410 }));
    await flush();
    expect(transport.requests).toHaveLength(2);
    expect(informer.get('ns', 'a')).toBeDefined();
    expect(transport.lastWatch.query?.resourceVersion).toBe('41');
    await informer.stop();
  });

  it('asks for the helper thread only once a page says two or more pages follow, then keeps it', async () => {
    const two = await started({ pageSize: 1 });
    two.transport.responses.push(
      listPage([cm('a', '1')], '10', 't1', 1),
      listPage([cm('b', '2')], '10'),
    );
    two.informer.start();
    await flush();
    // Two pages: the thread would start for the last one and never be used.
    expect(two.transport.requests.map((r) => r.offThread)).toEqual([false, false]);
    expect(two.informer.objectCount()).toBe(2);
    await two.informer.stop();

    const three = await started({ pageSize: 1 });
    three.transport.responses.push(
      listPage([cm('a', '1')], '10', 't1', 2),
      listPage([cm('b', '2')], '10', 't2', 1),
      listPage([cm('c', '3')], '10'),
    );
    three.informer.start();
    await flush();
    expect(three.transport.requests.map((r) => [r.query?.continue, r.offThread])).toEqual([
      [undefined, false],
      ['t1', true],
      ['t2', true],
    ]);
    expect(three.informer.objectCount()).toBe(3);
    await three.informer.stop();
  });

  it('falls back to one unpaged list when continue tokens keep expiring', async () => {
    const { transport, informer } = await started({ pageSize: 1 });
    transport.responses.push(
      listPage([cm('a', '1')], '10', 't1'),
      status(410, 'continue token expired'),
      listPage([cm('a', '1')], '11', 't2'),
      status(410, 'continue token expired'),
      listPage([cm('a', '1'), cm('b', '2')], '12'),
    );
    informer.start();
    await flush();
    expect(transport.requests.map((r) => [r.query?.limit, r.query?.continue])).toEqual([
      [1, undefined],
      [1, 't1'],
      [1, undefined],
      [1, 't2'],
      [undefined, undefined],
    ]);
    expect(transport.requests.map((r) => r.offThread)).toEqual([false, true, false, true, false]);
    expect(informer.objectCount()).toBe(2);
    expect(informer.stats().expiredContinues).toBe(2);
    await informer.stop();
  });

  it('retries a 404 list with backoff, and relists when the kind comes back', async () => {
    const { transport, clock, informer } = await started();
    transport.responses.push(status(404, 'the server could not find the requested resource'));
    informer.start();
    await flush();
    expect(informer.hasSynced()).toBe(false);
    expect(informer.lastError?.message).toMatch(/answered 404.*CRD/);
    transport.responses.push(listPage([cm('a', '5')], '6'));
    clock.advance(720);
    await flush();
    expect(informer.hasSynced()).toBe(true);
    expect(informer.lastError).toBeUndefined();

    // The kind disappears while watched: 404 on the watch, then a relist after backoff.
    transport.lastWatch.end(
      Object.assign(new Error('watch answered 404: not found'), { status: 404 }),
    );
    transport.responses.push(listPage([], '9'));
    await flush();
    clock.advance(1_439); // the second failure in a row: 1600 ms jittered
    await flush();
    expect(transport.requests).toHaveLength(2);
    clock.advance(1);
    await flush();
    expect(transport.requests).toHaveLength(3);
    expect(informer.objectCount()).toBe(0);
    expect(informer.hasSynced()).toBe(true);
    await informer.stop();
  });

  it('reports a watch stream error (500 ERROR event) and rewatches from the last version', async () => {
    const { transport, clock, informer } = await started();
    transport.responses.push(listPage([], '10'));
    informer.start();
    await flush();
    transport.lastWatch.send('ADDED', cm('a', '12'));
    transport.lastWatch.send('ERROR', { kind: 'Status', code: 500, message: 'etcd is sad' });
    await flush();
    expect(informer.lastError?.message).toMatch(/reported an error \(500\): etcd is sad/);
    clock.advance(720);
    await flush();
    expect(transport.watches).toHaveLength(2);
    expect(transport.lastWatch.query?.resourceVersion).toBe('12');
    expect(transport.requests).toHaveLength(1);
    expect(informer.stats()).toMatchObject({ errorRelists: 0, lists: 1 });
    await informer.stop();
  });

  it('relists after "Too large resource version" (a server that came back with its store reset)', async () => {
    const { transport, clock, informer, events } = await started();
    transport.responses.push(listPage([cm('old', '90')], '100'));
    informer.start();
    await flush();
    events.length = 0;
    transport.lastWatch.send('ERROR', {
      kind: 'Status',
      code: 504,
      reason: 'Timeout',
      message: 'Too large resource version: 100, current: 12',
      details: { causes: [{ reason: 'ResourceVersionTooLarge' }], retryAfterSeconds: 1 },
    });
    transport.responses.push(listPage([cm('fresh', '11')], '12'));
    await flush();
    clock.advance(720);
    await flush();
    expect(events.sort()).toEqual(['add fresh', 'delete old unknown']);
    expect(transport.lastWatch.query?.resourceVersion).toBe('12');
    await informer.stop();
  });

  it('relists once a refused connection is accepted again; 429 and cut streams only back off', async () => {
    const { transport, clock, informer } = await started();
    transport.responses.push(listPage([], '10'));
    informer.start();
    await flush();
    // 429: back off, then watch again from the same version.
    transport.lastWatch.end(
      Object.assign(new Error('watch answered 429: slow down'), { status: 429 }),
    );
    await flush();
    clock.advance(720);
    await flush();
    expect(transport.watches).toHaveLength(2);
    expect(transport.requests).toHaveLength(1);
    // A refused connection (the server is restarting): relist once it answers again.
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6443'), {
      code: 'ECONNREFUSED',
    });
    transport.lastWatch.end(refused);
    transport.responses.push(listPage([cm('a', '3')], '4'));
    await flush();
    clock.advance(1_440);
    await flush();
    expect(transport.requests).toHaveLength(2);
    expect(informer.get('ns', 'a')).toBeDefined();
    expect(transport.lastWatch.query?.resourceVersion).toBe('4');
    expect(informer.stats()).toMatchObject({ errorRelists: 1, lists: 2, errors: 2 });
    await informer.stop();
  });
});

/** The annotated BOOKMARK that ends a WatchList's initial events. */
function initialEventsEnd(resourceVersion: string) {
  return {
    kind: 'ConfigMap',
    apiVersion: 'v1',
    metadata: { resourceVersion, annotations: { 'k8s.io/initial-events-end': 'true' } },
  };
}

describe('Informer protocol: WatchList', () => {
  const errors: InformerRequestError[] = [];
  const streaming = () => {
    errors.length = 0;
    return started({
      watchList: true,
      labelSelector: 'app=x',
      onError: (error) => errors.push(error),
    });
  };

  it('syncs by one WATCH with sendInitialEvents, stored in one step at the annotated bookmark, then goes on watching on it', async () => {
    const { transport, informer, events } = await streaming();
    informer.start();
    await flush();
    expect(transport.requests).toHaveLength(0);
    expect(transport.lastWatch.path).toBe('/api/v1/namespaces/ns/configmaps');
    expect(transport.lastWatch.query).toEqual({
      labelSelector: 'app=x',
      fieldSelector: undefined,
      watch: true,
      sendInitialEvents: true,
      resourceVersionMatch: 'NotOlderThan',
      allowWatchBookmarks: true,
      timeoutSeconds: 450,
    });
    const { apiVersion: _a, kind: _k, ...bare } = cm('a', '5');
    transport.lastWatch.send('ADDED', bare);
    transport.lastWatch.send('ADDED', cm('b', '7'));
    // A bookmark without the annotation does not end the initial events.
    transport.lastWatch.send('BOOKMARK', { metadata: { resourceVersion: '8' } });
    expect(informer.hasSynced()).toBe(false);
    expect(informer.keys()).toEqual([]);
    expect(events).toEqual([]);
    const synced = informer.waitForSync(1_000);
    transport.lastWatch.send('BOOKMARK', initialEventsEnd('10'));
    await synced;
    expect(informer.hasSynced()).toBe(true);
    expect(events).toEqual(['add a initial', 'add b initial']);
    expect(informer.get('ns', 'a')).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap' });
    expect(informer.lastSyncResourceVersion).toBe('10');
    // The same watch goes on delivering changes.
    transport.lastWatch.send('MODIFIED', cm('a', '11', { v: '2' }));
    expect(events).toEqual(['add a initial', 'add b initial', 'update a 5->11']);
    expect(transport.watches).toHaveLength(1);
    expect(transport.requests).toHaveLength(0);
    expect(informer.stats()).toMatchObject({
      watchLists: 1,
      watches: 1,
      lists: 1,
      listRequests: 0,
    });
    await informer.stop();
  });

  it('relists after a 410 by WatchList too, reconciling the differences at the bookmark', async () => {
    const { transport, informer, events } = await streaming();
    informer.start();
    await flush();
    transport.lastWatch.send('ADDED', cm('same', '1'));
    transport.lastWatch.send('ADDED', cm('gone', '2'));
    transport.lastWatch.send('BOOKMARK', initialEventsEnd('10'));
    events.length = 0;
    transport.lastWatch.send('ERROR', { kind: 'Status', code: 410, reason: 'Expired' });
    await flush();
    expect(transport.watches).toHaveLength(2);
    expect(transport.lastWatch.query).toMatchObject({ sendInitialEvents: true });
    expect(transport.lastWatch.query?.resourceVersion).toBeUndefined();
    transport.lastWatch.send('ADDED', cm('same', '1'));
    transport.lastWatch.send('ADDED', cm('new', '20'));
    expect(events).toEqual([]);
    transport.lastWatch.send('BOOKMARK', initialEventsEnd('30'));
    expect(events.sort()).toEqual(['add new', 'delete gone unknown']);
    expect(transport.requests).toHaveLength(0);
    expect(informer.stats()).toMatchObject({ goneRelists: 1, watchLists: 2, lists: 2 });
    await informer.stop();
  });

  it('falls back to a paged LIST for good when the server refuses the parameters (422)', async () => {
    const { transport, clock, informer, events } = await streaming();
    informer.start();
    await flush();
    transport.responses.push(listPage([cm('a', '5')], '10'));
    const refusal = Object.assign(
      new Error(
        'watch /api/v1/namespaces/ns/configmaps answered 422: {"message":"sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled"}',
      ),
      { status: 422 },
    );
    transport.lastWatch.end(refusal);
    await flush();
    // Reported, then cleared by the LIST that succeeded.
    expect(errors.map((e) => e.status)).toEqual([422]);
    expect(informer.lastError).toBeUndefined();
    // No backoff: the LIST goes out at once, then a plain WATCH from its version.
    expect(transport.requests).toHaveLength(1);
    expect(informer.hasSynced()).toBe(true);
    expect(events).toEqual(['add a initial']);
    expect(transport.lastWatch.query).toMatchObject({ resourceVersion: '10' });
    expect(transport.lastWatch.query?.sendInitialEvents).toBeUndefined();
    // Later relists list as well: the resource was found not to stream lists.
    transport.responses.push(listPage([cm('a', '5')], '20'));
    transport.lastWatch.send('ERROR', { kind: 'Status', code: 410, reason: 'Expired' });
    await flush();
    expect(transport.requests).toHaveLength(2);
    expect(transport.watches.filter((w) => w.query?.sendInitialEvents)).toHaveLength(1);
    expect(informer.stats()).toMatchObject({ watchLists: 1, watchListFallbacks: 1, lists: 2 });
    clock.advance(0);
    await informer.stop();
  });

  it('falls back to a paged LIST when no initial-events-end bookmark comes within the bookmark timeout', async () => {
    const { transport, clock, informer, events } = await started({
      watchList: true,
      watchListBookmarkTimeoutMs: 5_000,
    });
    informer.start();
    await flush();
    const first = transport.lastWatch;
    // A server that ignores sendInitialEvents: the current state as ADDED, then nothing.
    first.send('ADDED', cm('a', '5'));
    clock.advance(4_999);
    await flush();
    expect(transport.requests).toHaveLength(0);
    transport.responses.push(listPage([cm('a', '5'), cm('b', '6')], '10'));
    clock.advance(1);
    await flush();
    expect(first.closed).toBe(true);
    expect(transport.requests).toHaveLength(1);
    // Nothing of the abandoned stream reached handlers: the state is the LIST's.
    expect(events).toEqual(['add a initial', 'add b initial']);
    expect(informer.stats()).toMatchObject({ watchListFallbacks: 1, silentWatches: 0 });
    // After the bookmark wait, the watch's silence timeout is the ordinary one again.
    clock.advance(100_000);
    await flush();
    expect(transport.watches).toHaveLength(2);
    await informer.stop();
  });

  it('falls back for good when the stream ends cleanly before the bookmark', async () => {
    const { transport, clock, informer } = await streaming();
    informer.start();
    await flush();
    transport.lastWatch.send('ADDED', cm('a', '5'));
    clock.advance(2_000);
    transport.responses.push(listPage([cm('a', '5')], '10'));
    transport.lastWatch.end();
    await flush();
    expect(transport.requests).toHaveLength(1);
    expect(informer.hasSynced()).toBe(true);
    expect(informer.stats().watchListFallbacks).toBe(1);
    await informer.stop();
  });

  it('lists once after a 500 before the bookmark, and streams again at the next relist', async () => {
    const { transport, informer } = await streaming();
    informer.start();
    await flush();
    transport.responses.push(listPage([cm('a', '5')], '10'));
    transport.lastWatch.send('ERROR', { kind: 'Status', code: 500, message: 'etcd is down' });
    await flush();
    expect(errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/reported an error \(500\): etcd is down/),
    ]);
    expect(transport.requests).toHaveLength(1);
    expect(informer.hasSynced()).toBe(true);
    transport.lastWatch.send('ERROR', { kind: 'Status', code: 410, reason: 'Expired' });
    await flush();
    expect(transport.requests).toHaveLength(1);
    expect(transport.lastWatch.query).toMatchObject({ sendInitialEvents: true });
    await informer.stop();
  });

  it('backs off and streams again after a 429, a 504 or a 410 before the bookmark, without listing', async () => {
    const { transport, clock, informer } = await streaming();
    informer.start();
    await flush();
    transport.lastWatch.end(
      Object.assign(new Error('watch answered 429: too many requests'), { status: 429 }),
    );
    await flush();
    expect(informer.lastError?.status).toBe(429);
    clock.advance(720);
    await flush();
    expect(transport.watches).toHaveLength(2);
    transport.lastWatch.send('ERROR', {
      kind: 'Status',
      code: 504,
      message: 'Too large resource version',
    });
    await flush();
    clock.advance(1_440);
    await flush();
    expect(transport.watches).toHaveLength(3);
    transport.lastWatch.send('ERROR', { kind: 'Status', code: 410, reason: 'Expired' });
    await flush();
    clock.advance(2_880);
    await flush();
    expect(transport.watches).toHaveLength(4);
    expect(transport.watches.every((w) => w.query?.sendInitialEvents === true)).toBe(true);
    expect(transport.requests).toHaveLength(0);
    transport.lastWatch.send('BOOKMARK', initialEventsEnd('3'));
    expect(informer.hasSynced()).toBe(true);
    expect(informer.stats()).toMatchObject({ watchLists: 4, watchListFallbacks: 0, errors: 2 });
    await informer.stop();
  });
});
