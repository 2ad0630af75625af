import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { constants, createGzip, gzipSync } from 'node:zlib';
import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { isLoopback, KubeTransport } from '../transport/kube-transport.js';

let server: http.Server | undefined;
let transport: KubeTransport | undefined;
afterEach(async () => {
  transport?.close();
  transport = undefined;
  const closing = server;
  server = undefined;
  closing?.closeAllConnections();
  if (closing !== undefined) await new Promise((resolve) => closing.close(resolve));
});

const body = JSON.stringify({
  items: Array.from({ length: 2_000 }, (_, i) => ({ name: `o-${i}` })),
});

/** A kubeconfig whose one cluster is `server`, with a token user. */
function kubeConfigFor(server: string): KubeConfig {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'c', server }],
    users: [{ name: 'u', token: 't' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  return kubeConfig;
}

/**
 * A server that gzips whenever the request accepts it, as kube-apiserver does: `/list`
 * answers `body`; `/watch` sends one event, then a second when `/next` is requested.
 */
async function gzipServer(compression: boolean | 'auto' | undefined) {
  const acceptEncodings: Array<string | undefined> = [];
  let next: (() => void) | undefined;
  server = http.createServer((req, res) => {
    acceptEncodings.push(req.headers['accept-encoding']);
    const gzip = req.headers['accept-encoding']?.includes('gzip') === true;
    if (req.url?.startsWith('/next')) {
      next?.();
      res.end();
      return;
    }
    if (req.url?.startsWith('/watch')) {
      res.writeHead(200, {
        'Content-Type': 'application/json',
        ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
      });
      const out = gzip ? createGzip({ flush: constants.Z_SYNC_FLUSH }) : undefined;
      out?.pipe(res);
      const write = (line: string) => (out ?? res).write(`${line}\n`);
      write('{"type":"ADDED","object":{"metadata":{"name":"a"}}}');
      next = () => {
        write('{"type":"ADDED","object":{"metadata":{"name":"b"}}}');
        if (out) out.end();
        else res.end();
      };
      return;
    }
    if (gzip) {
      res.writeHead(200, { 'Content-Encoding': 'gzip' });
      res.end(gzipSync(body));
    } else res.end(body);
  });
  const listening = server;
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
  const { port } = listening.address() as AddressInfo;
  transport = new KubeTransport(
    kubeConfigFor(`http://127.0.0.1:${port}`),
    compression === undefined ? {} : { compression },
  );
  return { transport, acceptEncodings };
}

describe('KubeTransport compression', () => {
  it('does not ask for gzip by default on a loopback server, as with compression auto', async () => {
    const { transport: client, acceptEncodings } = await gzipServer(undefined);
    expect(client.compression).toBe(false);
    expect((await client.request({ method: 'GET', path: '/list' })).text).toBe(body);
    expect(acceptEncodings).toEqual([undefined]);
    client.close();
    const closing = server;
    closing?.closeAllConnections();
    if (closing !== undefined) await new Promise((resolve) => closing.close(resolve));
    const auto = await gzipServer('auto');
    expect(auto.transport.compression).toBe(false);
    expect((await auto.transport.request({ method: 'GET', path: '/list' })).text).toBe(body);
    expect(auto.acceptEncodings).toEqual([undefined]);
  });

  it('asks for gzip by default when the server is not on a loopback address', () => {
    for (const address of [
      'https://10.96.0.1',
      'https://api.cluster.example:6443',
      'https://[fd00::1]',
    ]) {
      const kubeConfig = kubeConfigFor(address);
      const remote = new KubeTransport(kubeConfig);
      expect(remote.compression, address).toBe(true);
      remote.close();
      const never = new KubeTransport(kubeConfig, { compression: false });
      expect(never.compression).toBe(false);
      never.close();
    }
  });

  it('asks for gzip when told to, and decompresses answers on this thread, on the helper thread and in watches', async () => {
    const { transport: client, acceptEncodings } = await gzipServer(true);
    expect(client.compression).toBe(true);
    const here = await client.request({ method: 'GET', path: '/list' });
    expect(here.headers['content-encoding']).toBe('gzip');
    expect(here.text).toBe(body);
    // The helper thread starts with the first off-thread request: ask until it answers.
    for (let i = 0; i < 50; i++) {
      const there = await client.request({ method: 'GET', path: '/list', offThread: true });
      expect(there.text).toBe(body);
    }

    const lines: string[] = [];
    const done = Promise.withResolvers<Error | undefined>();
    const first = Promise.withResolvers<void>();
    await client.watch(
      '/watch',
      {},
      {
        onLine: (line) => {
          lines.push(line);
          first.resolve();
        },
        onDone: (error) => done.resolve(error),
      },
    );
    // The first event arrives while the stream is still open: gunzip holds nothing back.
    await first.promise;
    expect(lines).toHaveLength(1);
    await client.request({ method: 'GET', path: '/next' });
    expect(await done.promise).toBeUndefined();
    expect(lines.map((line) => JSON.parse(line).object.metadata.name)).toEqual(['a', 'b']);
    expect(acceptEncodings.every((value) => value === 'gzip')).toBe(true);
  });

  it('knows loopback hosts', () => {
    for (const host of ['localhost', '127.0.0.1', '127.1.2.3', '[::1]', '::1'])
      expect(isLoopback(host)).toBe(true);
    for (const host of ['10.0.0.1', 'kubernetes.default.svc', '[fd00::1]', '128.0.0.1'])
      expect(isLoopback(host)).toBe(false);
  });
});
