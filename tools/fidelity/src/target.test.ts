import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpTarget, userAgent } from './target.js';

let server: Server;
let kubeConfig: KubeConfig;
const seen: Array<{
  method?: string;
  url?: string;
  headers: Record<string, unknown>;
  body: string;
}> = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen.push({
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      if (request.url?.startsWith('/watch')) {
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.write('{"type":"ADDED","object":{"kind":"ConfigMap"}}\n');
        response.end('{"type":"DELETED","object":{"kind":"ConfigMap"}}\n');
      } else if (request.url === '/text') {
        response
          .writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' })
          .end('404 page not found\n');
      } else {
        response
          .writeHead(201, {
            'Content-Type': 'application/json;charset=utf-8',
            Warning: ['299 - "unknown field \\"spec.x\\""', '299 - "second"'],
          })
          .end('{"kind":"ConfigMap"}');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'c', server: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
    users: [{ name: 'u', token: 'secret-token' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('httpTarget', () => {
  it('sends JSON bodies as the kubeconfig user and reads status, media type, warnings and JSON', async () => {
    const target = httpTarget('local', kubeConfig);
    const answer = await target.send({ method: 'POST', path: '/api?x=1', body: { a: 1 } });
    expect(answer).toEqual({
      status: 201,
      contentType: 'application/json',
      warnings: ['unknown field "spec.x"', 'second'],
      body: { kind: 'ConfigMap' },
    });
    const request = seen.at(-1);
    expect(request?.url).toBe('/api?x=1');
    expect(request?.body).toBe('{"a":1}');
    expect(request?.headers).toMatchObject({
      authorization: 'Bearer secret-token',
      'content-type': 'application/json',
      accept: 'application/json',
      'user-agent': userAgent,
    });
  });

  it('sends string bodies as they are, with their content type and accept header', async () => {
    const target = httpTarget('real', kubeConfig);
    await target.send({
      method: 'PATCH',
      path: '/x',
      body: 'data: {}',
      contentType: 'application/apply-patch+yaml',
      accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
    });
    expect(seen.at(-1)).toMatchObject({
      method: 'PATCH',
      body: 'data: {}',
      headers: {
        'content-type': 'application/apply-patch+yaml',
        accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
      },
    });
  });

  it('keeps a body that is not JSON as text', async () => {
    const answer = await httpTarget('real', kubeConfig).send({ method: 'GET', path: '/text' });
    expect(answer).toEqual({
      status: 404,
      contentType: 'text/plain',
      warnings: [],
      body: '404 page not found\n',
    });
  });

  it('reads a watch until the server ends it, one event a line', async () => {
    const answer = await httpTarget('real', kubeConfig).send({
      method: 'GET',
      path: '/watch?timeoutSeconds=1',
      stream: true,
    });
    expect(answer.body).toEqual([
      { type: 'ADDED', object: { kind: 'ConfigMap' } },
      { type: 'DELETED', object: { kind: 'ConfigMap' } },
    ]);
  });

  it('refuses a kubeconfig without a current cluster', () => {
    expect(() => httpTarget('local', new KubeConfig())).toThrow(
      "the local server's kubeconfig has no current cluster; set current-context",
    );
  });

  it('rejects when the server cannot be reached', async () => {
    const closed = new KubeConfig();
    closed.loadFromOptions({
      clusters: [{ name: 'c', server: 'http://127.0.0.1:1', skipTLSVerify: true }],
      users: [{ name: 'u' }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
      currentContext: 'x',
    });
    await expect(httpTarget('real', closed).send({ method: 'GET', path: '/' })).rejects.toThrow(
      /ECONNREFUSED/,
    );
  });
});
