import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiServer } from '../src/index.js';
import { expectRefusal, expectServing, rawRequest } from './raw-http.js';

// Request bodies and stored objects within the limits kube-apiserver and etcd set, refused
// before anything is stored; whatever is stored can be read, listed, watched, patched and
// deleted, and its namespace still terminates.
let server: ApiServer;
const blobs = '/apis/example.com/v1/namespaces/default/blobs';
const lists = ['/api/v1/configmaps', '/apis/example.com/v1/blobs', blobs];
const deep = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
const blob = (name: string, spec: string) =>
  `{"apiVersion":"example.com/v1","kind":"Blob","metadata":{"name":"${name}"},"spec":${spec}}`;

beforeAll(async () => {
  server = await ApiServer.start({ https: false });
  const crd = await rawRequest(
    server,
    'POST',
    '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
    JSON.stringify({
      metadata: { name: 'blobs.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'blobs', singular: 'blob', kind: 'Blob' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
            },
          },
        ],
      },
    }),
  );
  expect(crd.status, crd.text).toBe(201);
});
afterAll(async () => {
  await server.stop();
});

const expectRefused = (
  method: string,
  path: string,
  body: string,
  code: number,
  message: string | RegExp,
  contentType?: string,
) => expectRefusal(server, { method, path, body, code, message, contentType }, lists);

describe('nesting depth', () => {
  const tooDeep = /exceeded max depth: objects and arrays may nest at most 1000 levels deep/;

  it('refuses the 10,000-level body (object, array, YAML, custom resource) with a 400, storing nothing', async () => {
    await expectRefused(
      'POST',
      '/api/v1/namespaces/default/configmaps',
      `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deep"},"x":${deep(10_000)}}`,
      400,
      tooDeep,
    );
    await expectRefused(
      'POST',
      '/api/v1/namespaces/default/configmaps',
      `{"metadata":{"name":"deep"},"x":${'['.repeat(10_000)}${']'.repeat(10_000)}}`,
      400,
      tooDeep,
    );
    await expectRefused('POST', blobs, blob('deep', deep(10_000)), 400, tooDeep);
    await expectRefused(
      'POST',
      blobs,
      `{apiVersion: example.com/v1, kind: Blob, metadata: {name: deep}, spec: ${'{a: '.repeat(10_000)}1${'}'.repeat(10_000)}}`,
      400,
      /exceeded max depth|not valid YAML/,
      'application/yaml',
    );
    expect((await rawRequest(server, 'GET', `${blobs}/deep`)).status).toBe(404);
    expect(
      (await rawRequest(server, 'GET', '/api/v1/namespaces/default/configmaps/deep')).status,
    ).toBe(404);
  });

  it('serves an object at the limit through every verb, and its namespace terminates', async () => {
    const ns = await rawRequest(
      server,
      'POST',
      '/api/v1/namespaces',
      '{"metadata":{"name":"depths"}}',
    );
    expect(ns.status).toBe(201);
    const here = '/apis/example.com/v1/namespaces/depths/blobs';
    // The outer object is level 1 and spec level 2: 998 more levels reach the limit.
    const created = await rawRequest(server, 'POST', here, blob('edge', deep(999)));
    expect(created.status, created.text.slice(0, 300)).toBe(201);
    const rv = created.json().metadata.resourceVersion;
    expect((await rawRequest(server, 'GET', `${here}/edge`)).status).toBe(200);
    const list = await rawRequest(server, 'GET', '/apis/example.com/v1/blobs');
    expect(list.json().items.map((i: any) => i.metadata.name)).toContain('edge');
    const watch = await rawRequest(
      server,
      'GET',
      `${here}?watch=1&timeoutSeconds=1&resourceVersion=${Number(rv) - 1}`,
    );
    expect(JSON.parse(watch.text.split('\n')[0] ?? '').type).toBe('ADDED');
    const patched = await rawRequest(
      server,
      'PATCH',
      `${here}/edge`,
      '{"metadata":{"labels":{"a":"b"}}}',
      {
        'content-type': 'application/merge-patch+json',
      },
    );
    expect(patched.status, patched.text.slice(0, 300)).toBe(200);
    // A patch may not push it past the limit (the body is within it; the result is not): the
    // stored object stays as it was.
    const deeper = await rawRequest(
      server,
      'PATCH',
      `${here}/edge`,
      `[{"op":"add","path":"/spec/a/b","value":${deep(998)}}]`,
      { 'content-type': 'application/json-patch+json' },
    );
    expect(deeper.status).toBe(400);
    expect(deeper.json().message).toMatch(/the object exceeded max depth/);
    expect((await rawRequest(server, 'GET', `${here}/edge`)).json().spec.a.b).toBeUndefined();
    const gone = await rawRequest(server, 'DELETE', '/api/v1/namespaces/depths');
    expect(gone.status).toBe(200);
    for (let i = 0; i < 100; i++) {
      if ((await rawRequest(server, 'GET', '/api/v1/namespaces/depths')).status === 404) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await rawRequest(server, 'GET', '/api/v1/namespaces/depths')).status).toBe(404);
    await expectServing(server, lists);
  });
});

describe('sizes', () => {
  it("refuses a body over 3 MiB with kube-apiserver's 413", async () => {
    await expectRefused(
      'POST',
      '/api/v1/namespaces/default/configmaps',
      JSON.stringify({ metadata: { name: 'huge' }, data: { a: 'x'.repeat(3 * 1024 * 1024) } }),
      413,
      'Request entity too large: limit is 3145728',
    );
  });

  it("refuses an object over 1.5 MiB (etcd's limit) with a 413 before storing it", async () => {
    await expectRefused(
      'POST',
      blobs,
      blob('large', JSON.stringify({ a: 'x'.repeat(2 * 1024 * 1024) })),
      413,
      /^etcdserver: request is too large: the object is \d+ bytes encoded, over the 1572864 bytes/,
    );
    expect((await rawRequest(server, 'GET', `${blobs}/large`)).status).toBe(404);
  });

  it("holds ConfigMap data to 1 MiB with kube's 422 (exactly 1 MiB is fine)", async () => {
    const configMap = (name: string, data: Record<string, string>) =>
      JSON.stringify({ metadata: { name }, data });
    const ok = await rawRequest(
      server,
      'POST',
      '/api/v1/namespaces/default/configmaps',
      configMap('mib', { a: 'x'.repeat(1024 * 1024) }),
    );
    expect(ok.status).toBe(201);
    await expectRefused(
      'POST',
      '/api/v1/namespaces/default/configmaps',
      configMap('cm1', { a: 'x'.repeat(1024 * 1024), b: 'y' }),
      422,
      'ConfigMap "cm1" is invalid: []: Too long: may not be more than 1048576 bytes',
    );
  });

  it("holds Secret data to 1 MiB decoded, stringData included, with kube's 422", async () => {
    const secrets = '/api/v1/namespaces/default/secrets';
    await expectRefused(
      'POST',
      secrets,
      JSON.stringify({
        metadata: { name: 'big' },
        data: { a: Buffer.alloc(1024 * 1024 + 1).toString('base64') },
      }),
      422,
      'Secret "big" is invalid: data: Too long: may not be more than 1048576 bytes',
    );
    await expectRefused(
      'POST',
      secrets,
      JSON.stringify({
        metadata: { name: 'big' },
        data: { a: Buffer.alloc(1024 * 1024).toString('base64') },
        stringData: { b: 'y' },
      }),
      422,
      'Secret "big" is invalid: data: Too long: may not be more than 1048576 bytes',
    );
    expect((await rawRequest(server, 'GET', `${secrets}/big`)).status).toBe(404);
  });
});
