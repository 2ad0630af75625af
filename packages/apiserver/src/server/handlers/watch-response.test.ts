import http from 'node:http';
import net from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiServer, type ApiServerOptions } from '../api-server.js';

// Watches over real HTTP: the bounded history window, too-new resourceVersions, kube's
// timeoutSeconds, and a stalled watcher that must not make the server hold its events.

let server: ApiServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function start(options: ApiServerOptions = {}): Promise<ApiServer> {
  server = await ApiServer.start({ https: false, cluster: false, ...options });
  return server;
}

const collection = '/api/v1/namespaces/default/configmaps';

async function call(
  target: ApiServer,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${target.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${target.adminToken}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const currentRevision = async (target: ApiServer): Promise<number> =>
  Number(
    ((await call(target, 'GET', collection)).body.metadata as { resourceVersion: string })
      .resourceVersion,
  );

interface WatchEventLine {
  type: string;
  object: { code?: number; reason?: string; message?: string; details?: unknown } & {
    metadata?: { name?: string; resourceVersion?: string };
  };
}

/** An open watch: its events as they arrive, whether it ended, and a way to stall or close it. */
interface OpenWatch {
  events: WatchEventLine[];
  ended: Promise<'end' | 'cut'>;
  response: http.IncomingMessage;
  close(): void;
}

function openWatch(target: ApiServer, query: string): Promise<OpenWatch> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${target.url}${collection}?watch=true&${query}`,
      { headers: { authorization: `Bearer ${target.adminToken}` } },
      (response) => {
        const events: WatchEventLine[] = [];
        let buffered = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          buffered += chunk;
          let newline = buffered.indexOf('\n');
          while (newline !== -1) {
            // Only what the tests look at is kept, not the objects' data.
            const { type, object } = JSON.parse(buffered.slice(0, newline)) as WatchEventLine;
            const { code, reason, message, details, metadata } = object;
            events.push({
              type,
              object: {
                code,
                reason,
                message,
                details,
                metadata: { name: metadata?.name, resourceVersion: metadata?.resourceVersion },
              },
            });
            buffered = buffered.slice(newline + 1);
            newline = buffered.indexOf('\n');
          }
        });
        const ended = new Promise<'end' | 'cut'>((done) => {
          response.on('end', () => done('end'));
          response.on('aborted', () => done('cut'));
          response.on('error', () => done('cut'));
          response.socket.on('close', () => done(response.complete ? 'end' : 'cut'));
        });
        resolve({ events, ended, response, close: () => request.destroy() });
      },
    );
    request.on('error', reject);
  });
}

describe('watch history window', () => {
  it('answers a watch from resourceVersion 1 with 410 Expired, as a real cluster does', async () => {
    const target = await start();
    await call(target, 'POST', collection, { metadata: { name: 'a' } });
    const watch = await openWatch(target, 'resourceVersion=1');
    await watch.ended;
    expect(watch.events).toEqual([
      {
        type: 'ERROR',
        object: expect.objectContaining({
          code: 410,
          reason: 'Expired',
          message: expect.stringMatching(/^too old resource version: 1 \(\d+\)$/),
        }),
      },
    ]);
    // From the server's start on, the history replays.
    const from = target.store.compactedRevision();
    const replay = await openWatch(target, `resourceVersion=${from}&timeoutSeconds=1`);
    await replay.ended;
    expect(replay.events.map((e) => `${e.type} ${e.object.metadata?.name}`)).toEqual(['ADDED a']);
  });

  it('replays from resourceVersion 1 when widened with historyFromStart', async () => {
    const target = await start({ historyFromStart: true });
    await call(target, 'POST', collection, { metadata: { name: 'a' } });
    const watch = await openWatch(target, 'resourceVersion=1&timeoutSeconds=1');
    await watch.ended;
    expect(watch.events.map((e) => `${e.type} ${e.object.metadata?.name}`)).toEqual(['ADDED a']);
  });
});

describe('watch from a resourceVersion the server has not reached', () => {
  it('waits for it, then answers "Too large resource version" (504) as kube does', async () => {
    const target = await start();
    const current = await currentRevision(target);
    const startedAt = Date.now();
    const watch = await openWatch(target, `resourceVersion=${current + 100}`);
    expect(await watch.ended).toBe('end');
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(2_900);
    expect(watch.events).toEqual([
      {
        type: 'ERROR',
        object: expect.objectContaining({
          code: 504,
          reason: 'Timeout',
          message: `Too large resource version: ${current + 100}, current: ${current}`,
          details: {
            causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
            retryAfterSeconds: 1,
          },
        }),
      },
    ]);
  });

  it('starts the watch when the store reaches the version during the wait', async () => {
    const target = await start();
    const current = await currentRevision(target);
    const opening = openWatch(target, `resourceVersion=${current + 1}&timeoutSeconds=2`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await call(target, 'POST', collection, { metadata: { name: 'first' } });
    await call(target, 'POST', collection, { metadata: { name: 'second' } });
    const watch = await opening;
    await watch.ended;
    // Events up to the requested version are not replayed; later ones are.
    expect(watch.events.map((e) => `${e.type} ${e.object.metadata?.name}`)).toEqual([
      'ADDED second',
    ]);
  });
});

describe('watch timeoutSeconds', () => {
  it('without timeoutSeconds (or 0) ends between the minimum request timeout and twice it', async () => {
    const target = await start({ minRequestTimeoutSeconds: 1 });
    for (const query of ['', 'timeoutSeconds=0']) {
      const startedAt = Date.now();
      const watch = await openWatch(target, query);
      expect(await watch.ended).toBe('end');
      const elapsed = Date.now() - startedAt;
      expect(elapsed).toBeGreaterThanOrEqual(950);
      expect(elapsed).toBeLessThan(2_500);
    }
  });

  it('caps a huge timeoutSeconds instead of overflowing the timer into an instant end', async () => {
    const target = await start();
    const watch = await openWatch(target, 'timeoutSeconds=99999999999');
    let ended = false;
    void watch.ended.then(() => {
      ended = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(ended).toBe(false);
    await call(target, 'POST', collection, { metadata: { name: 'still-watched' } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(watch.events.map((e) => e.object.metadata?.name)).toContain('still-watched');
    watch.close();
  });

  it('ends a watch with a negative timeoutSeconds at once, as kube-apiserver', async () => {
    const target = await start();
    const watch = await openWatch(target, 'timeoutSeconds=-5');
    expect(await watch.ended).toBe('end');
    expect(watch.events).toEqual([]);
  });
});

describe('what the server holds for its watches', () => {
  const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

  it('returns to its baseline after many watches, however they ended', async () => {
    const target = await start({ bookmarkIntervalMs: 60_000 });
    await call(target, 'POST', collection, { metadata: { name: 'one' }, data: { a: '1' } });
    const from = await currentRevision(target);
    const baseline = target.watchBookkeeping();
    const baselineTimers = timers();
    const opened = 300;
    // Closed by the client after the first event, with a bookmark timer, in batches of 30.
    for (let batch = 0; batch < opened / 30; batch++) {
      const watches = await Promise.all(
        Array.from({ length: 30 }, () =>
          openWatch(target, 'allowWatchBookmarks=true&timeoutSeconds=600'),
        ),
      );
      expect(target.watchBookkeeping().watches).toBe(baseline.watches + 30);
      const deadline = Date.now() + 10_000;
      while (watches.some((w) => w.events.length === 0) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 10));
      for (const watch of watches) watch.close();
      await Promise.all(watches.map((watch) => watch.ended));
    }
    // Ended by the server's timeout, and one that waited for a resourceVersion never reached.
    const timedOut = await Promise.all(
      Array.from({ length: 10 }, () => openWatch(target, 'timeoutSeconds=1')),
    );
    await Promise.all(timedOut.map((watch) => watch.ended));
    const waiting = openWatch(target, `resourceVersion=${from + 1000}`);
    await expect(waiting.then((watch) => watch.ended)).resolves.toBe('end');
    const deadline = Date.now() + 10_000;
    while (target.watchBookkeeping().watches !== baseline.watches && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(target.watchBookkeeping()).toEqual(baseline);
    // Other timers of the process (a client's keep-alive) may have ended meanwhile: none of
    // the 311 watches' timeout and bookmark timers may be left.
    expect(timers()).toBeLessThanOrEqual(baselineTimers);
  }, 60_000);
});

describe('a watcher that stops reading', () => {
  /** The process's memory after a full garbage collection: resident, and held by JS. */
  const settledMemory = (() => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    return () => {
      gc();
      const usage = process.memoryUsage();
      return { rss: usage.rss, held: usage.heapUsed + usage.external };
    };
  })();

  it('is closed once it falls a buffer behind, while the others keep up and memory stays flat', async () => {
    const target = await start({ watchBufferBytes: 2 * 1024 * 1024, historySize: 20 });
    const from = await currentRevision(target);
    const stalled = await openWatch(target, `resourceVersion=${from}`);
    stalled.response.pause();
    const reader = await openWatch(target, `resourceVersion=${from}`);
    const payload = 'x'.repeat(100 * 1024);
    const updates = 700;
    const warmUp = 150;
    await call(target, 'POST', collection, { metadata: { name: 'big' }, data: { v: payload } });
    let baseline = settledMemory();
    for (let i = 1; i < updates; i++) {
      await call(target, 'PUT', `${collection}/big`, {
        metadata: { name: 'big' },
        data: { v: payload, i: String(i) },
      });
      // The allocator's pools grow while the first events go out; measure from then on.
      if (i === warmUp) baseline = settledMemory();
    }
    // 70 MB went out; the reader saw every event; the stalled watcher was cut.
    const deadline = Date.now() + 10_000;
    while (reader.events.length < updates && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reader.events.length).toBe(updates);
    // A stalled watcher kept buffered would hold the 55 MB sent after the warm-up for as long as
    // it stays open (measured: held memory then grows by about that much); a bounded one holds
    // nothing once the events in flight are written. Those go within a few turns of the event
    // loop after the reader has its last event, later on a loaded machine (20 MiB were still
    // held then), so the bound is awaited: what stays is what the server keeps. It is on what
    // JS holds after a full GC: RSS is reported too, but it also counts allocator pools the
    // process keeps, so it cannot tell the two cases apart.
    const held = () => settledMemory().held - baseline.held;
    const bound = 16 * 1024 * 1024;
    let settled = held();
    const settling = Date.now() + 10_000;
    while (settled >= bound && Date.now() < settling) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      settled = held();
    }
    console.info(
      `stalled watcher: held +${(settled / 2 ** 20).toFixed(1)} MiB, rss +${((settledMemory().rss - baseline.rss) / 2 ** 20).toFixed(1)} MiB`,
    );
    expect(settled).toBeLessThan(bound);
    // Only the reader was still open: the stalled watcher had been cut.
    expect(target.dropWatches()).toBe(1);
    stalled.response.resume();
    expect(await stalled.ended).toBe('cut');
    expect(stalled.events.length).toBeLessThan(updates);
  }, 60_000);
});

describe('events written together', () => {
  /**
   * Opens a watch over a bare socket and splits what arrives into HTTP chunks, so a test can
   * see how the server framed its writes (an HTTP client would hide that).
   */
  function rawWatch(target: ApiServer, query: string) {
    const chunks: string[] = [];
    let raw = '';
    let headers = false;
    const url = new URL(target.url);
    const socket = net.connect(Number(url.port), url.hostname);
    const opened = new Promise<void>((resolve, reject) => {
      socket.on('error', reject);
      socket.on('data', (data: Buffer) => {
        raw += data.toString('utf8');
        if (!headers) {
          const end = raw.indexOf('\r\n\r\n');
          if (end === -1) return;
          headers = true;
          raw = raw.slice(end + 4);
          resolve();
        }
        for (;;) {
          const sizeEnd = raw.indexOf('\r\n');
          if (sizeEnd === -1) return;
          const size = Number.parseInt(raw.slice(0, sizeEnd), 16);
          if (raw.length < sizeEnd + 2 + size + 2) return;
          if (size > 0) chunks.push(raw.slice(sizeEnd + 2, sizeEnd + 2 + size));
          raw = raw.slice(sizeEnd + 2 + size + 2);
        }
      });
    });
    socket.write(
      `GET ${collection}?watch=true&${query} HTTP/1.1\r\nHost: ${url.host}\r\n` +
        `Authorization: Bearer ${target.adminToken}\r\n\r\n`,
    );
    return { chunks, opened, close: () => socket.destroy() };
  }

  it('sends the changes of one turn of the event loop as one chunk, as kube-apiserver flushes once its queue is empty', async () => {
    const target = await start();
    const watch = rawWatch(target, `resourceVersion=${await currentRevision(target)}`);
    await watch.opened;
    for (let i = 0; i < 20; i++) {
      const revision = target.store.nextRevision();
      target.store.create(
        '/configmaps',
        `default/burst-${i}`,
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: `burst-${i}`, namespace: 'default', resourceVersion: String(revision) },
          data: { i: String(i) },
        },
        revision,
      );
    }
    const deadline = Date.now() + 5_000;
    while (watch.chunks.join('').split('\n').length < 21 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    watch.close();
    // One chunk of 20 lines, in the order written: one socket write for the whole turn.
    expect(watch.chunks).toHaveLength(1);
    const lines = (watch.chunks[0] ?? '').trimEnd().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as WatchEventLine).object.metadata?.name)).toEqual(
      Array.from({ length: 20 }, (_, i) => `burst-${i}`),
    );
  });

  it('sends a later change in a chunk of its own', async () => {
    const target = await start();
    const watch = rawWatch(target, `resourceVersion=${await currentRevision(target)}`);
    await watch.opened;
    await call(target, 'POST', collection, { metadata: { name: 'first' } });
    await call(target, 'POST', collection, { metadata: { name: 'second' } });
    const deadline = Date.now() + 5_000;
    while (watch.chunks.length < 2 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    watch.close();
    expect(
      watch.chunks.map((chunk) => (JSON.parse(chunk) as WatchEventLine).object.metadata?.name),
    ).toEqual(['first', 'second']);
  });
});
