import { type ChildProcess, fork } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

// The server's resident memory, measured in a child process of its own (test/memory-server.mjs,
// the built package) after full garbage collections, so that neither this process nor garbage
// not yet collected counts. The child runs with V8's young generation capped
// (--max-semi-space-size=1): by default Node.js grows it to ~100 MB under a burst of requests
// and keeps it, which is a one-time plateau (a plain node:http server shows the same), not
// memory held per watch. The bounds are generous: what is measured is a few MB; holding what
// the issue measured (3.4 KB per watch, or every event of a stalled watcher) exceeds them.
const MiB = 2 ** 20;
const fixture = fileURLToPath(new URL('./memory-server.mjs', import.meta.url));

interface Measure {
  rss: number;
  heapUsed: number;
  /** heapUsed plus the Buffers JavaScript holds (process.memoryUsage().external). */
  held: number;
  watches: number;
  storeListeners: number;
}

let child: ChildProcess | undefined;
afterEach(() => {
  child?.disconnect();
  child = undefined;
});

async function startChild(options: Record<string, unknown>) {
  const started = fork(fixture, [JSON.stringify(options)], {
    execArgv: ['--expose-gc', '--max-semi-space-size=1'],
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  child = started;
  const { url, token } = await new Promise<{ url: string; token: string }>((resolve, reject) => {
    let out = '';
    started.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(JSON.parse(out.slice(0, out.indexOf('\n'))));
    });
    started.on('exit', (code) => reject(new Error(`memory-server exited with ${code}`)));
  });
  const measure = () =>
    new Promise<Measure>((resolve) => {
      started.once('message', (message) => resolve(message as Measure));
      started.send('measure');
    });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const send = (method: string, path: string, body?: unknown) =>
    new Promise<{ status: number; body: any }>((resolve, reject) => {
      const request = http.request(`${url}${path}`, { method, agent, headers }, (response) => {
        let text = '';
        response.on('data', (chunk) => {
          text += chunk;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }),
        );
      });
      request.on('error', reject);
      request.end(body === undefined ? undefined : JSON.stringify(body));
    });
  return { url, headers, agent, measure, send };
}

const collection = '/api/v1/namespaces/default/configmaps';

describe('the server process memory (a process of its own)', () => {
  it('does not grow with the number of short watches (open, first event, close)', async () => {
    const { url, headers, agent, measure, send } = await startChild({});
    await send('POST', collection, { metadata: { name: 'one' }, data: { a: '1' } });
    const watchOnce = () =>
      new Promise<void>((resolve, reject) => {
        const request = http.get(
          `${url}${collection}?watch=true`,
          { agent, headers },
          (response) => {
            response.once('data', () => {
              request.destroy();
              resolve();
            });
          },
        );
        request.on('error', (error: NodeJS.ErrnoException) =>
          error.code === 'ECONNRESET' ? resolve() : reject(error),
        );
      });
    const watches = async (count: number) => {
      let started = 0;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (started++ < count) await watchOnce();
        }),
      );
    };
    // The server sees each close when the socket's end arrives: wait for that, not for time.
    const settled = async () => {
      const deadline = Date.now() + 60_000;
      let measured = await measure();
      while (measured.watches !== 0 && Date.now() < deadline) measured = await measure();
      return measured;
    };
    // The first thousands grow the heap's pools to their working size; measure after them.
    await watches(10_000);
    const before = await settled();
    await watches(10_000);
    const after = await settled();
    console.info(
      `10,000 short watches: rss ${(before.rss / MiB).toFixed(1)} → ${(after.rss / MiB).toFixed(1)} MiB, JS heap +${((after.heapUsed - before.heapUsed) / MiB).toFixed(2)} MiB`,
    );
    // No simulated cluster: with every watch ended, nothing listens to the store.
    expect({ watches: after.watches, storeListeners: after.storeListeners }).toEqual({
      watches: 0,
      storeListeners: 0,
    });
    expect(after.heapUsed - before.heapUsed).toBeLessThan(4 * MiB);
    expect(after.rss - before.rss).toBeLessThan(24 * MiB);
  }, 180_000);

  // Against a control run without the stalled watcher. What is judged is the memory
  // JavaScript still holds (heap and Buffers) once the reader has every event, not the resident
  // size: the process keeps its peak resident pages, and that peak depends on how far the
  // reader lagged behind the writes, which is the machine's load (RSS is printed, not judged).
  it('does not buffer a stalled watcher beyond watchBufferBytes, while a reader gets everything', async () => {
    const watchBufferBytes = 8 * MiB;
    // 100 MB of events, twelve times the bound: a stalled watcher that is never cut off holds
    // them all until it is closed. The limit, 60% of the events' bytes, is far above what the
    // bounded one leaves (the watch is closed, its queue released) and far below that.
    const updates = 1000;
    const payloadBytes = 100 * 1024;
    const run = async (stall: boolean) => {
      // A short history, so that the events the store keeps are not what is measured.
      const { url, headers, measure, send } = await startChild({
        historySize: 5,
        watchBufferBytes,
      });
      const made = await send('POST', collection, { metadata: { name: 'big' }, data: { v: 'x' } });
      const from = made.body.metadata.resourceVersion as string;
      const open = (onData: (response: http.IncomingMessage) => void) =>
        new Promise<http.IncomingMessage>((resolve) => {
          http.get(
            `${url}${collection}?watch=true&resourceVersion=${from}`,
            { headers },
            (response) => {
              onData(response);
              resolve(response);
            },
          );
        });
      const stalled = stall ? await open((response) => response.pause()) : undefined;
      let readerLines = 0;
      const reader = await open((response) =>
        response.on('data', (chunk: Buffer) => {
          for (const byte of chunk) if (byte === 10) readerLines++;
        }),
      );
      const before = await measure();
      expect(before.watches).toBe(stall ? 2 : 1);
      const payload = 'x'.repeat(payloadBytes);
      for (let i = 1; i <= updates; i++)
        await send('PUT', `${collection}/big`, {
          metadata: { name: 'big' },
          data: { v: payload, i: String(i) },
        });
      const deadline = Date.now() + 90_000;
      while (readerLines < updates && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      const after = await measure();
      expect(readerLines).toBe(updates);
      // The stalled watcher was closed by the server; the reader is still open.
      expect(after.watches).toBe(1);
      stalled?.destroy();
      reader.destroy();
      child?.disconnect();
      child = undefined;
      return { rss: after.rss - before.rss, held: after.held - before.held };
    };
    const control = await run(false);
    const withStalled = await run(true);
    const mib = (bytes: number) => (bytes / MiB).toFixed(1);
    console.info(
      `${updates} events of 100 KiB: held +${mib(control.held)} MiB (rss +${mib(control.rss)}) with a reader, held +${mib(withStalled.held)} MiB (rss +${mib(withStalled.rss)}) with a reader and a stalled watcher (bound ${watchBufferBytes / MiB} MiB)`,
    );
    expect(withStalled.held - control.held).toBeLessThan(updates * payloadBytes * 0.6);
  }, 360_000);
});
