import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BodyTooLongError } from '../errors/body-too-long-error.js';
import { BodyText } from './body-text.js';
import { KubeTransport } from './kube-transport.js';

const events = 300;

/**
 * A server whose `/burst` streams `events` lines, each written in a turn of its own (as a
 * watch of a busy resource does), then ends; `/ping` answers `pong`.
 */
async function burstServer(): Promise<{ server: http.Server; kubeConfig: KubeConfig }> {
  const server = http.createServer((req, res) => {
    if (req.url?.startsWith('/ping')) {
      res.end('pong');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    let sent = 0;
    const next = () => {
      if (sent === events) {
        res.end();
        return;
      }
      res.write(
        `{"type":"MODIFIED","object":{"n":${sent},"text":"ünïcode ☃ ${'x'.repeat(200)}"}}\n`,
      );
      sent++;
      setImmediate(next);
    };
    next();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'c', server: `http://127.0.0.1:${port}` }],
    users: [{ name: 'u', token: 't' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  return { server, kubeConfig };
}

/** Watches `/burst` to its end; the lines and whether it ended with an error. */
function watchAll(transport: KubeTransport): Promise<{ lines: string[]; error?: Error }> {
  const lines: string[] = [];
  return new Promise((resolve) => {
    void transport.watch(
      '/burst',
      {},
      {
        onLine: (line) => lines.push(line),
        onDone: (error) => resolve({ lines, error }),
      },
    );
  });
}

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await stop?.();
  stop = undefined;
});

describe('KubeTransport.request of a body too long for a string', () => {
  it('rejects with BodyTooLongError naming the request, and the process goes on', async () => {
    const { server, kubeConfig } = await burstServer();
    const transport = new KubeTransport(kubeConfig);
    stop = async () => {
      transport.close();
      await new Promise((resolve) => server.close(resolve));
    };
    // Serving 512 MiB would take seconds: the body's own check stands in for it.
    vi.spyOn(BodyText.prototype, 'text').mockImplementation(() => {
      throw new BodyTooLongError(600_000_000);
    });
    const failure = await transport
      .request({ method: 'GET', path: '/ping', query: { limit: 0 } })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(BodyTooLongError.isInstance(failure)).toBe(true);
    expect((failure as Error).message).toMatch(
      /^the answer to GET \/ping is 600,000,000 bytes, longer than the longest string Node\.js can hold .*: ask for it in pages/,
    );
    vi.restoreAllMocks();
    const answer = await transport.request({ method: 'GET', path: '/ping' });
    expect(answer.text).toBe('pong');
  });
});
