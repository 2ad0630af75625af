import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BodyTooLongError } from '../errors/body-too-long-error.js';
import { BodyText } from './body-text.js';
import { KubeTransport } from './kube-transport.js';

let server: http.Server | undefined;
let transport: KubeTransport | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  transport?.close();
  transport = undefined;
  const closing = server;
  server = undefined;
  if (closing !== undefined) await new Promise((resolve) => closing.close(resolve));
});

/** A plain HTTP server that answers `pong`, and a transport to it. */
async function pingTransport(): Promise<KubeTransport> {
  server = http.createServer((_req, res) => res.end('pong'));
  const listening = server;
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
  const { port } = listening.address() as AddressInfo;
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'c', server: `http://127.0.0.1:${port}` }],
    users: [{ name: 'u', token: 't' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  transport = new KubeTransport(kubeConfig);
  return transport;
}

describe('KubeTransport.request of a body too long for a string', () => {
  it('rejects with BodyTooLongError naming the request, and the process goes on', async () => {
    const client = await pingTransport();
    // Serving 512 MiB would take seconds: the body's own check stands in for it.
    vi.spyOn(BodyText.prototype, 'text').mockImplementation(() => {
      throw new BodyTooLongError(600_000_000);
    });
    const failure = await client
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
    const answer = await client.request({ method: 'GET', path: '/ping' });
    expect(answer.text).toBe('pong');
  });
});
