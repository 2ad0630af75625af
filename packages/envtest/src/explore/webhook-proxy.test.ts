import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../eventually.js';
import { WebhookProxy } from './webhook-proxy.js';

/** An echo server standing in for a webhook server (the proxy passes bytes, TLS or not). */
async function echoServer(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = net.createServer((socket) => socket.pipe(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Sends `text` through the proxy; resolves with the echo, or with `reset` when the connection was reset. */
function exchange(port: number, text: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString();
      if (received.length >= text.length) {
        socket.end();
        resolve(received);
      }
    });
    socket.on('error', () => resolve('reset'));
    socket.on('close', () => resolve(received === '' ? 'reset' : received));
  });
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function proxyToEcho(): Promise<WebhookProxy> {
  const echo = await echoServer();
  const proxy = await WebhookProxy.start();
  cleanups.push(echo.close, () => proxy.stop());
  proxy.target(echo.port);
  return proxy;
}

describe('WebhookProxy', () => {
  it('passes bytes through to the server it targets, and resets connections when none runs', async () => {
    const proxy = await proxyToEcho();
    expect(await exchange(proxy.port, 'admission review')).toBe('admission review');
    proxy.target(undefined);
    expect(await exchange(proxy.port, 'nobody serves')).toBe('reset');
    expect(proxy.refused).toBe(1);
  });

  it('is unreachable while down, and reachable again after', async () => {
    const proxy = await proxyToEcho();
    proxy.down(400);
    expect(await exchange(proxy.port, 'refused')).toBe('reset');
    await eventually(async () => (await exchange(proxy.port, 'served')) === 'served', {
      description: 'a connection served once the outage is over',
    });
  });

  it('holds each connection of its slow window before passing it on', async () => {
    const proxy = await proxyToEcho();
    proxy.delay(300, 10_000);
    const started = Date.now();
    expect(await exchange(proxy.port, 'late')).toBe('late');
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });
});
