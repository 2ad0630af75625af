import { Writable } from 'node:stream';
import type { KubernetesObject } from '@ops/api';
import { parseLabelSelector, Selector } from '@ops/api';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { InformerRequestError } from '../errors/informer-request-error.js';
import { InformerSyncError } from '../errors/informer-sync-error.js';
import type { ResourceDescriptor } from '../kinds/resource-descriptor.js';
import type { TransportRequest, WatchHandlers } from '../transport/kube-transport.js';
import { Informer, type InformerOptions, type InformerTransport } from './informer.js';
import {
  CountingTransport,
  configMaps,
  eventually,
  LocalCluster,
} from './local-cluster.test-helper.js';

let cluster: LocalCluster;
const informers: Informer[] = [];
let namespaceCounter = 0;

beforeAll(async () => {
  cluster = await LocalCluster.start();
});

afterEach(async () => {
  await Promise.all(informers.splice(0).map((informer) => informer.stop()));
  await cluster.clearFaults();
});

afterAll(async () => {
  await cluster?.stop();
});

/** A fresh namespace per test keeps tests apart on the shared server. */
async function freshNamespace(): Promise<string> {
  const name = `informer-test-${++namespaceCounter}`;
  await cluster.createNamespace(name);
  return name;
}

/** An informer with test-friendly backoff, stopped after the test. */
function informer(
  options: Partial<InformerOptions> & { descriptor?: ResourceDescriptor } = {},
): Informer {
  const created = new Informer({
    transport: cluster.transport,
    descriptor: configMaps,
    backoff: { initialMs: 50, maxMs: 200 },
    ...options,
  });
  informers.push(created);
  return created;
}

type Recorded = string;

/** Records events as `add ns/name rv`, `update ns/name oldRv->newRv`, `delete ns/name`. */
function recorder(): { events: Recorded[]; handlers: Parameters<Informer['addEventHandler']>[0] } {
  const events: Recorded[] = [];
  const id = (o: KubernetesObject) => `${o.metadata?.namespace}/${o.metadata?.name}`;
  return {
    events,
    handlers: {
      onAdd: (o) => events.push(`add ${id(o)}`),
      onUpdate: (a, b) =>
        events.push(
          `update ${id(b)} ${a.data ? JSON.stringify(a.data) : '{}'}->${JSON.stringify(b.data)}`,
        ),
      onDelete: (o, unknown) =>
        events.push(`delete ${id(o)}${unknown ? ' (final state unknown)' : ''}`),
    },
  };
}

function namesOf(objects: KubernetesObject[]): string[] {
  return objects.map((o) => o.metadata?.name ?? '').sort();
}

/** name → resourceVersion, for comparing a cache with the server. */
function versions(objects: KubernetesObject[]): Record<string, string> {
  return Object.fromEntries(
    objects.map((o) => [o.metadata?.name ?? '', o.metadata?.resourceVersion ?? '']).sort(),
  );
}

describe('Informer against the local API server', () => {
  it('lists in pages of 500 and caches every object', async () => {
    const ns = await freshNamespace();
    await cluster.createConfigMaps(ns, 'cm', 1200);
    const transport = new CountingTransport(cluster.transport);
    const added: string[] = [];
    const subject = informer({
      transport,
      watchList: false, // the paged LIST path
      namespace: ns,
      pageSize: 500,
    });
    subject.addEventHandler({
      onAdd: (o, initial) => added.push(`${o.metadata?.name}:${initial}`),
    });
    subject.start();
    await subject.waitForSync(10_000);

    expect(subject.hasSynced()).toBe(true);
    expect(subject.objectCount()).toBe(1200);
    expect(transport.lists).toBe(3); // 500 + 500 + 200
    expect(subject.stats()).toMatchObject({ listRequests: 3, lists: 1 });
    expect(added).toHaveLength(1200);
    expect(added.every((a) => a.endsWith(':true'))).toBe(true);
    expect(subject.get(ns, 'cm-1199')?.data).toEqual({ i: '1199' });
    expect(subject.getByKey(`${ns}/cm-7`)?.metadata?.name).toBe('cm-7');
    expect(subject.keys()).toContain(`${ns}/cm-0`);
    expect(Number(subject.lastSyncResourceVersion)).toBeGreaterThan(0);
    // Items of a list carry apiVersion and kind.
    expect(subject.get(ns, 'cm-0')).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap' });
  });

  it('restarts a list whose continue token expired (410)', async () => {
    const ns = await freshNamespace();
    await cluster.createConfigMaps(ns, 'cm', 120);
    const transport = new CountingTransport(cluster.transport);
    let injected = false;
    transport.beforeRequest = async (request: TransportRequest) => {
      if (request.query?.continue !== undefined && !injected) {
        injected = true;
        await cluster.addFault({
          verb: 'list',
          resource: 'configmaps',
          namespace: ns,
          code: 410,
          count: 1,
        });
      }
    };
    const subject = informer({ transport, namespace: ns, pageSize: 50, watchList: false });
    subject.start();
    await subject.waitForSync(5_000);

    expect(subject.objectCount()).toBe(120);
    // page 1, page 2 (410), then page 1, 2, 3 again
    expect(transport.lists).toBe(5);
    expect(subject.stats().expiredContinues).toBe(1);
  });

  it('delivers add, update and delete in order, once the store has changed', async () => {
    const ns = await freshNamespace();
    const subject = informer({ namespace: ns });
    const { events, handlers } = recorder();
    const seenInStore: Array<string | undefined> = [];
    subject.addEventHandler(handlers);
    subject.addEventHandler({
      onUpdate: (_old, next) =>
        seenInStore.push(subject.get(ns, next.metadata?.name ?? '')?.data?.toString()),
    });
    subject.start();
    await subject.waitForSync(5_000);

    await cluster.createConfigMap(ns, 'a', { data: { v: '1' } });
    await cluster.updateConfigMap(ns, 'a', { v: '2' });
    await cluster.createConfigMap(ns, 'b');
    await cluster.deleteConfigMap(ns, 'a');
    await eventually(
      () => events.length >= 4,
      () => `events so far: ${events.join(', ')}`,
    );

    expect(events).toEqual([
      `add ${ns}/a`,
      `update ${ns}/a {"v":"1"}->{"v":"2"}`,
      `add ${ns}/b`,
      `delete ${ns}/a`,
    ]);
    expect(seenInStore).toHaveLength(1);
    expect(namesOf(subject.list())).toEqual(['b']);
  });

  it('gives a handler added after sync synthetic adds, then the live events', async () => {
    const ns = await freshNamespace();
    await cluster.createConfigMap(ns, 'one');
    await cluster.createConfigMap(ns, 'two');
    const subject = informer({ namespace: ns });
    subject.start();
    await subject.waitForSync(5_000);

    const added: Array<[string, boolean]> = [];
    const registration = subject.addEventHandler({
      onAdd: (o, initial) => added.push([o.metadata?.name ?? '', initial]),
    });
    expect(added.sort()).toEqual([
      ['one', true],
      ['two', true],
    ]);

    await cluster.createConfigMap(ns, 'three');
    await eventually(() => added.length === 3, 'the live add');
    expect(added[2]).toEqual(['three', false]);

    registration.remove();
    await cluster.createConfigMap(ns, 'four');
    await eventually(() => subject.get(ns, 'four') !== undefined, 'four in the store');
    expect(added).toHaveLength(3);
  });

  it('watches only its namespace', async () => {
    const mine = await freshNamespace();
    const other = await freshNamespace();
    const subject = informer({ namespace: mine });
    const { events, handlers } = recorder();
    subject.addEventHandler(handlers);
    await cluster.createConfigMap(mine, 'before');
    await cluster.createConfigMap(other, 'before');
    subject.start();
    await subject.waitForSync(5_000);
    await cluster.createConfigMap(other, 'after');
    await cluster.createConfigMap(mine, 'after');
    await eventually(
      () => events.length === 2,
      () => events.join(', '),
    );

    expect(events).toEqual([`add ${mine}/before`, `add ${mine}/after`]);
    expect(subject.list().every((o) => o.metadata?.namespace === mine)).toBe(true);
    expect(subject.namespace).toBe(mine);
  });

  it('watches only objects matching its label selector, and sees them leave it', async () => {
    const ns = await freshNamespace();
    await cluster.createConfigMap(ns, 'blue', { labels: { color: 'blue' } });
    await cluster.createConfigMap(ns, 'red', { labels: { color: 'red' } });
    const subject = informer({ namespace: ns, labelSelector: parseLabelSelector('color=blue') });
    const { events, handlers } = recorder();
    subject.addEventHandler(handlers);
    subject.start();
    await subject.waitForSync(5_000);
    expect(namesOf(subject.list())).toEqual(['blue']);
    expect(subject.description).toContain('with labels "color=blue"');

    await cluster.createConfigMap(ns, 'blue-2', { labels: { color: 'blue' } });
    await cluster.createConfigMap(ns, 'red-2', { labels: { color: 'red' } });
    await cluster.call(
      'PATCH',
      `/api/v1/namespaces/${ns}/configmaps/blue`,
      JSON.stringify({ metadata: { labels: { color: 'green' } } }),
      undefined,
      'application/merge-patch+json',
    );
    await eventually(
      () => events.length === 3,
      () => events.join(', '),
    );
    expect(events).toEqual([`add ${ns}/blue`, `add ${ns}/blue-2`, `delete ${ns}/blue`]);
    expect(namesOf(subject.list())).toEqual(['blue-2']);
  });

  it('rejects a selector that selects nothing, and accepts the string form', () => {
    expect(
      () =>
        new Informer({
          transport: cluster.transport,
          descriptor: configMaps,
          labelSelector: Selector.nothing,
        }),
    ).toThrow(/selects nothing/);
    const fromString = informer({
      labelSelector: 'color in (blue,red)',
      fieldSelector: 'metadata.name=x',
    });
    expect(fromString.description).toBe(
      'configmaps (v1 ConfigMap) with labels "color in (blue,red)" with fields "metadata.name=x"',
    );
  });

  it('applies the default transform (strips managedFields) to listed and watched objects', async () => {
    const ns = await freshNamespace();
    await cluster.createConfigMap(ns, 'listed');
    // The local server drops managedFields, so this transport adds them to what it answers,
    // as a real API server would send them.
    const managed = [{ manager: 'kubectl', operation: 'Update', fieldsV1: { 'f:data': {} } }];
    const withManagedFields = (object: KubernetesObject) => {
      object.metadata = { ...object.metadata, managedFields: managed };
      return object;
    };
    const transport: InformerTransport = {
      async request(request) {
        const response = await cluster.transport.request(request);
        const body = JSON.parse(response.text) as { items: KubernetesObject[] };
        body.items = body.items.map(withManagedFields);
        return { ...response, text: JSON.stringify(body) };
      },
      watch(path, query, handlers: WatchHandlers) {
        return cluster.transport.watch(path, query, {
          onDone: (error) => handlers.onDone(error),
          onLine: (line) => {
            const event = JSON.parse(line) as { type: string; object: KubernetesObject };
            if (event.type !== 'BOOKMARK') event.object = withManagedFields(event.object);
            handlers.onLine(JSON.stringify(event));
          },
        });
      },
    };
    const seen: KubernetesObject[] = [];
    const subject = informer({ transport, namespace: ns });
    subject.addEventHandler({ onAdd: (o) => seen.push(o) });
    subject.start();
    await subject.waitForSync(5_000);
    await cluster.createConfigMap(ns, 'watched');
    await eventually(() => seen.length === 2, 'two adds');

    for (const object of [...seen, ...subject.list()]) {
      expect(object.metadata?.managedFields).toBeUndefined();
      expect(object.metadata?.name).toBeTypeOf('string');
      expect(object.metadata?.uid).toBeTypeOf('string');
    }
  });

  it('applies a custom transform before storing and before handlers', async () => {
    const ns = await freshNamespace();
    await cluster.createConfigMap(ns, 'big', { data: { payload: 'x'.repeat(1000) } });
    const subject = informer({
      namespace: ns,
      transform: (object) => {
        object.data = { size: String(JSON.stringify(object.data ?? {}).length) };
        return object;
      },
    });
    const seen: unknown[] = [];
    subject.addEventHandler({ onAdd: (o) => seen.push(o.data) });
    subject.start();
    await subject.waitForSync(5_000);
    expect(subject.get(ns, 'big')?.data).toEqual({ size: '1014' });
    expect(seen).toEqual([{ size: '1014' }]);
  });

  it('maintains field indexes through adds, updates and deletes', async () => {
    const ns = await freshNamespace();
    await cluster.createConfigMap(ns, 'a', { data: { owner: 'alice' } });
    await cluster.createConfigMap(ns, 'b', { data: { owner: 'bob' } });
    const subject = informer({ namespace: ns });
    const byOwner = (o: KubernetesObject) => {
      const owner = (o.data as Record<string, string> | undefined)?.owner;
      return owner ? [owner] : [];
    };
    subject.addIndex('owner', byOwner);
    subject.start();
    await subject.waitForSync(5_000);
    expect(namesOf(subject.byIndex('owner', 'alice'))).toEqual(['a']);

    await cluster.createConfigMap(ns, 'c', { data: { owner: 'alice' } });
    await cluster.updateConfigMap(ns, 'a', { owner: 'bob' });
    await cluster.deleteConfigMap(ns, 'b');
    await eventually(() => subject.get(ns, 'b') === undefined, 'b deleted');
    expect(namesOf(subject.byIndex('owner', 'alice'))).toEqual(['c']);
    expect(namesOf(subject.byIndex('owner', 'bob'))).toEqual(['a']);
    expect(namesOf(subject.byIndex('namespace', ns))).toEqual(['a', 'c']);

    // An index added after sync indexes what is already cached.
    subject.addIndex('has-owner', (o) => (byOwner(o).length > 0 ? ['yes'] : []));
    expect(namesOf(subject.byIndex('has-owner', 'yes'))).toEqual(['a', 'c']);
    expect(() => subject.addIndex('owner', byOwner)).toThrow(/already exists/);
    expect(() => subject.byIndex('missing', 'x')).toThrow(/no index named "missing"/);
  });

  it('rejects waitForSync after the timeout with an error naming the resource, and keeps retrying a 404', async () => {
    const widgets: ResourceDescriptor = {
      group: 'example.com',
      version: 'v1',
      kind: 'Widget',
      plural: 'widgets',
      namespaced: true,
    };
    const transport = new CountingTransport(cluster.transport);
    const errors: InformerRequestError[] = [];
    const subject = informer({
      transport,
      descriptor: widgets,
      namespace: 'default',
      onError: (error) => errors.push(error),
    });
    const neverStarted = await subject.waitForSync(10).catch((error: unknown) => error);
    expect((neverStarted as Error).message).toMatch(/never started/);

    subject.start();
    const error = await subject.waitForSync(400).catch((e: unknown) => e);
    expect(InformerSyncError.isInstance(error)).toBe(true);
    const syncError = error as InformerSyncError;
    expect(syncError.reason).toBe('Timeout');
    expect(syncError.message).toContain(
      'widgets.example.com (example.com/v1 Widget) in namespace "default"',
    );
    expect(syncError.message).toContain('did not sync within 400 ms');
    expect(syncError.message).toMatch(/404/);
    expect(syncError.message).toMatch(/CRD/);
    expect(subject.hasSynced()).toBe(false);
    expect(subject.lastError?.status).toBe(404);
    // The WatchList's 404, then the paged LIST it fell back to (for this sync only).
    expect(errors.slice(0, 2).map((e) => e.verb)).toEqual(['watch', 'list']);
    // Still retrying, with backoff.
    await eventually(
      () => transport.lists >= 3,
      () => `only ${transport.lists} lists`,
    );

    // Stopping rejects pending waits with reason Stopped.
    const pending = subject.waitForSync(60_000).catch((e: unknown) => e);
    await subject.stop();
    expect(((await pending) as InformerSyncError).reason).toBe('Stopped');
  });

  it('recovers from dropped watches without relisting', async () => {
    const ns = await freshNamespace();
    const transport = new CountingTransport(cluster.transport);
    const subject = informer({ transport, namespace: ns });
    const { events, handlers } = recorder();
    subject.addEventHandler(handlers);
    subject.start();
    await subject.waitForSync(5_000);
    await eventually(() => subject.stats().watches === 1, 'the first watch');

    for (let round = 0; round < 2; round++) {
      expect(await cluster.dropWatches()).toBeGreaterThanOrEqual(1);
      await cluster.createConfigMap(ns, `after-drop-${round}`);
      await eventually(
        () => events.length === round + 1,
        () => events.join(', '),
      );
    }
    expect(events).toEqual([`add ${ns}/after-drop-0`, `add ${ns}/after-drop-1`]);
    expect(transport.watches).toBeGreaterThanOrEqual(3);
    expect(subject.stats().lists).toBe(1);
  });

  it('relists after a restart without history (410) and converges on the server state', async () => {
    const ns = await freshNamespace();
    for (const name of ['keep', 'change', 'remove'])
      await cluster.createConfigMap(ns, name, { data: { v: '1' } });
    const subject = informer({ namespace: ns });
    const { events, handlers } = recorder();
    subject.start();
    await subject.waitForSync(5_000);
    subject.addEventHandler(handlers);
    events.length = 0;

    // Disconnect the informer: watches are now throttled (429 backs off without relisting),
    // and the open one is cut.
    await cluster.addFault({ verb: 'watch', resource: 'configmaps', namespace: ns, code: 429 });
    await cluster.dropWatches();
    await eventually(() => subject.lastError?.status === 429, 'a throttled watch');
    // Change the world while it is away, then lose the watch history.
    await cluster.createConfigMap(ns, 'new');
    await cluster.updateConfigMap(ns, 'change', { v: '2' });
    await cluster.deleteConfigMap(ns, 'remove');
    await cluster.restart(false);
    await cluster.clearFaults();

    await eventually(
      () => subject.stats().goneRelists >= 1 && events.length === 3,
      () => events.join(', '),
    );
    expect(events.sort()).toEqual(
      [
        `add ${ns}/new`,
        `update ${ns}/change {"v":"1"}->{"v":"2"}`,
        `delete ${ns}/remove (final state unknown)`,
      ].sort(),
    );
    expect(versions(subject.list())).toEqual(versions(await cluster.listConfigMaps(ns)));
    expect(subject.stats().lists).toBe(2);

    // And it keeps watching afterwards.
    await cluster.createConfigMap(ns, 'later');
    await eventually(() => subject.get(ns, 'later') !== undefined, 'later');
  });

  it('relists after the API server restarts at the same address (connections refused) and keeps watching', async () => {
    const ns = await freshNamespace();
    await cluster.createConfigMap(ns, 'before');
    const subject = informer({ namespace: ns });
    subject.start();
    await subject.waitForSync(5_000);
    await cluster.restartListening(600);
    await cluster.createConfigMap(ns, 'after');
    await eventually(() => subject.get(ns, 'after') !== undefined, 'the object made after');
    await eventually(() => subject.stats().errorRelists >= 1, 'a relist after the refusal');
    expect(subject.stats().lists).toBeGreaterThanOrEqual(2);
    expect(versions(subject.list())).toEqual(versions(await cluster.listConfigMaps(ns)));
  });

  it('relists when the API server comes back with its store reset, and converges on the new state', async () => {
    const ns = await freshNamespace();
    await cluster.createConfigMap(ns, 'old-world');
    const subject = informer({ namespace: ns });
    subject.start();
    await subject.waitForSync(5_000);
    const { events, handlers } = recorder();
    subject.addEventHandler(handlers);
    events.length = 0;

    // A wiped etcd: the informer's resourceVersion is now ahead of the server's.
    await cluster.restartListening(600, true);
    await cluster.createNamespace(ns);
    await cluster.createConfigMap(ns, 'new-world');

    await eventually(
      () =>
        subject.get(ns, 'new-world') !== undefined && subject.get(ns, 'old-world') === undefined,
      () => events.join(', '),
      10_000,
    );
    expect(events).toContain(`delete ${ns}/old-world (final state unknown)`);
    expect(subject.stats().errorRelists).toBeGreaterThanOrEqual(1);
    expect(versions(subject.list())).toEqual(versions(await cluster.listConfigMaps(ns)));
  });

  it('replaces a watch that hangs before answering (silent) and loses nothing', async () => {
    const ns = await freshNamespace();
    const subject = informer({ namespace: ns, silentWatchTimeoutMs: 300 });
    subject.start();
    await subject.waitForSync(5_000);
    // The next watch request hangs; the current one is cut.
    await cluster.addFault({
      verb: 'watch',
      resource: 'configmaps',
      namespace: ns,
      delayMs: 20_000,
      count: 1,
    });
    await cluster.dropWatches();
    await cluster.createConfigMap(ns, 'while-hung');
    await eventually(() => subject.stats().silentWatches >= 1, 'a silent watch', 5_000);
    await eventually(
      () => subject.get(ns, 'while-hung') !== undefined,
      'the object created meanwhile',
    );
    expect(subject.stats().lists).toBe(1);
  });

  it('replaces an open watch that stays silent longer than the threshold', async () => {
    const ns = await freshNamespace();
    const subject = informer({ namespace: ns, silentWatchTimeoutMs: 150 });
    subject.start();
    await subject.waitForSync(5_000);
    // The server sends bookmarks only every 5 s: with nothing happening, the watch is silent.
    await eventually(() => subject.stats().silentWatches >= 2, 'two silent watches', 5_000);
    await cluster.createConfigMap(ns, 'still-watching');
    await eventually(() => subject.get(ns, 'still-watching') !== undefined, 'the later object');
    expect(subject.stats().lists).toBe(1);
  });

  it('does not tear down a watch that stays busy', async () => {
    const ns = await freshNamespace();
    const subject = informer({ namespace: ns, silentWatchTimeoutMs: 400 });
    subject.start();
    await subject.waitForSync(5_000);
    for (let i = 0; i < 10; i++) {
      await cluster.createConfigMap(ns, `busy-${i}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await eventually(() => subject.objectCount() === 10, 'ten objects');
    expect(subject.stats()).toMatchObject({ silentWatches: 0, watches: 1 });
  });

  it('sends no request and calls no handler after stop()', async () => {
    const ns = await freshNamespace();
    const transport = new CountingTransport(cluster.transport);
    const subject = informer({ transport, namespace: ns });
    const { events, handlers } = recorder();
    subject.addEventHandler(handlers);
    subject.start();
    await subject.waitForSync(5_000);
    await eventually(() => transport.watches === 1, 'the watch');

    await subject.stop();
    expect(subject.isStopped()).toBe(true);
    const counts = [transport.lists, transport.watches];
    await cluster.createConfigMap(ns, 'after-stop');
    await cluster.dropWatches();
    await new Promise((r) => setTimeout(r, 300));
    expect([transport.lists, transport.watches]).toEqual(counts);
    expect(events).toEqual([]);
    expect(() => subject.start()).toThrow(/cannot be restarted/);
    await expect(subject.waitForSync(10)).resolves.toBeUndefined(); // it had synced
  });

  it('stops while backing off from failures', async () => {
    const ns = await freshNamespace();
    await cluster.addFault({ verb: 'list', resource: 'configmaps', namespace: ns, code: 500 });
    const transport = new CountingTransport(cluster.transport);
    const subject = informer({
      transport,
      watchList: false, // the paged LIST path
      namespace: ns,
      backoff: { initialMs: 60_000 },
    });
    subject.start();
    await eventually(() => subject.lastError?.status === 500, 'a failed list');
    const started = Date.now();
    await subject.stop();
    expect(Date.now() - started).toBeLessThan(1_000);
    await expect(subject.waitForSync(10)).rejects.toThrow(/stopped before it synced/);
    expect(transport.lists).toBe(1);
  });

  it('logs handler exceptions and keeps delivering to other handlers', async () => {
    const ns = await freshNamespace();
    const lines: string[] = [];
    const logger = pino(
      { level: 'error' },
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    const subject = informer({ namespace: ns, logger });
    const seen: string[] = [];
    subject.addEventHandler({
      onAdd: () => {
        throw new Error('handler bug');
      },
    });
    subject.addEventHandler({ onAdd: async () => Promise.reject(new Error('async handler bug')) });
    subject.addEventHandler({ onAdd: (o) => seen.push(o.metadata?.name ?? '') });
    subject.start();
    await subject.waitForSync(5_000);
    await cluster.createConfigMap(ns, 'x');
    await cluster.createConfigMap(ns, 'y');
    await eventually(
      () => seen.length === 2 && lines.length >= 4,
      () => `${seen} / ${lines.length} log lines`,
    );
    expect(seen).toEqual(['x', 'y']);
    expect(lines.join('')).toContain('handler bug');
    expect(lines.join('')).toContain('async handler bug');
    expect(lines.join('')).toContain('event handler threw');
  });
});
