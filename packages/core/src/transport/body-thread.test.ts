import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BodyThread, type BodyThreadRequest } from './body-thread.js';

/** A server whose paths say what to answer. */
function testServer(): http.Server {
  return http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/big') {
      const size = Number(url.searchParams.get('bytes'));
      res.writeHead(200, { 'Content-Type': 'application/json' });
      // Written in many pieces, as a large list arrives.
      for (let sent = 0; sent < size; sent += 65_536) {
        res.write(Buffer.alloc(Math.min(65_536, size - sent), 'x'));
      }
      res.end();
    } else if (url.pathname === '/echo') {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        res.writeHead(201, { 'Content-Type': 'application/json', 'X-Method': req.method ?? '' });
        res.end(
          JSON.stringify({
            method: req.method,
            body: Buffer.concat(chunks).toString('utf8'),
            authorization: req.headers.authorization,
          }),
        );
      });
    } else if (url.pathname === '/unicode') {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end('{"message":"ünïcode ☃"}');
    } else if (url.pathname === '/hang') {
      // Never answers.
    } else {
      res.writeHead(500);
      res.end();
    }
  });
}

describe('BodyThread', () => {
  const server = testServer();
  const thread = new BodyThread();
  let base = '';

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    thread.start();
    const deadline = Date.now() + 10_000;
    while (!thread.isReady() && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  });

  afterAll(async () => {
    await thread.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const request = (path: string, extra: Partial<BodyThreadRequest> = {}) =>
    thread.request({
      url: `${base}${path}`,
      options: { method: 'GET', headers: { Accept: 'application/json' } },
      timeoutMs: 10_000,
      timeoutMessage: `GET ${path} timed out`,
      ...extra,
    });

  it('becomes ready after start', () => {
    expect(thread.isReady()).toBe(true);
  });

  it('refuses requests before it is started', async () => {
    await expect(
      new BodyThread().request({
        url: `${base}/big?bytes=1`,
        options: {},
        timeoutMs: 0,
        timeoutMessage: '',
      }),
    ).rejects.toThrow('the HTTP helper thread is not running');
  });

  it('answers with status, headers and the whole body, received in many chunks', async () => {
    const answer = await request('/big?bytes=5000000');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.body.length).toBe(5_000_000);
    expect(answer.body.every((byte) => byte === 0x78)).toBe(true);
    expect(answer.ascii).toBe(true);
  });

  it('sends the method, headers and payload', async () => {
    const answer = await request('/echo', {
      options: { method: 'POST', headers: { Authorization: 'Bearer secret' } },
      payload: '{"hello":"wörld"}',
    });
    expect(answer.status).toBe(201);
    expect(answer.headers['x-method']).toBe('POST');
    expect(JSON.parse(answer.body.toString('utf8'))).toEqual({
      method: 'POST',
      body: '{"hello":"wörld"}',
      authorization: 'Bearer secret',
    });
  });

  it('reports bodies that are not ASCII, and every status', async () => {
    const answer = await request('/unicode');
    expect(answer.status).toBe(404);
    expect(answer.ascii).toBe(false);
    expect(answer.body.toString('utf8')).toBe('{"message":"ünïcode ☃"}');
  });

  it('serves requests concurrently', async () => {
    const answers = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => request(`/big?bytes=${n * 100_000}`)),
    );
    expect(answers.map((answer) => answer.body.length)).toEqual([
      100_000, 200_000, 300_000, 400_000, 500_000,
    ]);
  });

  it('times out with the given message', async () => {
    await expect(request('/hang', { timeoutMs: 100 })).rejects.toThrow('GET /hang timed out');
  });

  it('aborts a request in flight, and one aborted before it is sent', async () => {
    const controller = new AbortController();
    const pending = request('/hang', { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await expect(request('/hang', { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    });
    // The thread goes on serving.
    expect((await request('/big?bytes=10')).body.length).toBe(10);
  });

  it('fails with the connection error when the server cannot be reached', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(
      thread.request({
        url: `http://127.0.0.1:${port}/`,
        options: { method: 'GET' },
        timeoutMs: 5_000,
        timeoutMessage: 'timed out',
      }),
    ).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('rejects what is pending when the thread dies, and is not ready afterwards', async () => {
    const other = new BodyThread();
    other.start();
    while (!other.isReady()) await new Promise((resolve) => setTimeout(resolve, 5));
    const pending = other.request({
      url: `${base}/hang`,
      options: { method: 'GET' },
      timeoutMs: 0,
      timeoutMessage: '',
    });
    const rejected = expect(pending).rejects.toThrow(/the HTTP helper thread failed: .*exited/);
    // Kill the thread behind the object's back, as a crash would.
    await (other as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    await rejected;
    expect(other.isReady()).toBe(false);
    await expect(
      other.request({ url: `${base}/big?bytes=1`, options: {}, timeoutMs: 0, timeoutMessage: '' }),
    ).rejects.toThrow('the HTTP helper thread is not running');
  });

  it('rejects what is pending when closed, and is not ready afterwards', async () => {
    const other = new BodyThread();
    other.start();
    while (!other.isReady()) await new Promise((resolve) => setTimeout(resolve, 5));
    const pending = other.request({
      url: `${base}/hang`,
      options: { method: 'GET' },
      timeoutMs: 0,
      timeoutMessage: '',
    });
    const rejected = expect(pending).rejects.toThrow('the HTTP helper thread was closed');
    await other.close();
    await rejected;
    expect(other.isReady()).toBe(false);
  });
});
