import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiServer } from '../src/index.js';
import { expectServing, rawRequest } from './raw-http.js';

// Paths are split into segments before any segment is decoded, as Go's net/http and
// kube-apiserver's router do, so no escape can change which object a request addresses.
let server: ApiServer;
const victim = '/api/v1/namespaces/victim';

beforeAll(async () => {
  server = await ApiServer.start({ https: false, cluster: false });
  const ns = await rawRequest(
    server,
    'POST',
    '/api/v1/namespaces',
    '{"metadata":{"name":"victim"}}',
  );
  expect(ns.status).toBe(201);
  const cm = await rawRequest(
    server,
    'POST',
    `${victim}/configmaps`,
    '{"metadata":{"name":"precious"},"data":{"a":"1"}}',
  );
  expect(cm.status).toBe(201);
});
afterAll(async () => {
  await server.stop();
});

async function expectUntouched(): Promise<void> {
  const ns = await rawRequest(server, 'GET', victim);
  expect(ns.status).toBe(200);
  expect(ns.json().metadata.deletionTimestamp).toBeUndefined();
  expect((await rawRequest(server, 'GET', `${victim}/configmaps/precious`)).status).toBe(200);
  await expectServing(server, ['/api/v1/configmaps', `${victim}/configmaps`]);
}

describe('request paths', () => {
  it.each([
    ['%2e%2e', '..', "may not be '..'"],
    ['%2E%2E', '..', "may not be '..'"],
    ['..', '..', "may not be '..'"],
    ['.', '.', "may not be '.'"],
    ['%2e', '.', "may not be '.'"],
    ['a%2525', 'a%25', "may not contain '%'"],
  ])(
    'DELETE .../configmaps/%s is a 400 naming the bad name, and the namespace stays',
    async (segment, name, why) => {
      const res = await rawRequest(server, 'DELETE', `${victim}/configmaps/${segment}`);
      expect(res.status, res.text).toBe(400);
      expect(res.json()).toMatchObject({
        reason: 'BadRequest',
        message: `Name parameter invalid: ${JSON.stringify(name)}: ${why}`,
      });
      await expectUntouched();
    },
  );

  // Checked on kube-apiserver v1.37.2: Go decodes %2F into the path that kube routes and
  // authorizes, so an encoded slash separates segments; one segment too many is no route.
  it.each([
    ['GET', '/api/v1/namespaces/kube-system%2F..%2Fx/configmaps'],
    ['GET', '/api/v1/namespaces/victim%2F..%2Fvictim/configmaps'],
    ['GET', '/api/v1/namespaces/..%2Fvictim/configmaps'],
    ['GET', '/api/v1/watch/namespaces/kube-system%2F..%2Fx/configmaps'],
    ['POST', '/api/v1/namespaces/kube-system%2F..%2Fx/configmaps'],
    ['GET', '/api/v1/namespaces/a%2Fb/configmaps/precious'],
    ['GET', '/api/v1/namespaces/victim/configmaps/precious%2Fx'],
    ['DELETE', '/api/v1/namespaces/victim/configmaps/a%2fb'],
    ['GET', '/api/v1/namespaces/victim/pods/p%2Fq/status'],
    ['GET', '/api/v1/configmaps%2F..%2Fsecrets'],
  ])(
    '%s %s (an encoded / in a segment) is 404 NotFound, not a list or a write',
    async (method, path) => {
      const res = await rawRequest(
        server,
        method,
        path,
        method === 'POST' ? '{"metadata":{"name":"z"}}' : undefined,
      );
      expect(res.status, res.text).toBe(404);
      expect(res.json()).toMatchObject({
        kind: 'Status',
        reason: 'NotFound',
        message: 'the server could not find the requested resource',
        details: {},
      });
      await expectUntouched();
    },
  );

  it('routes an encoded / where it makes a valid path, as kube-apiserver does', async () => {
    const res = await rawRequest(server, 'GET', `${victim}/configmaps%2Fprecious`);
    expect(res.status, res.text).toBe(200);
    expect(res.json().metadata.name).toBe('precious');
    const list = await rawRequest(server, 'GET', '/apis/apps%2Fv1/deployments');
    expect(list.status, list.text).toBe(200);
    expect(list.json().kind).toBe('DeploymentList');
  });

  it('refuses a dot-segment namespace name the same way', async () => {
    const res = await rawRequest(server, 'DELETE', '/api/v1/namespaces/%2e%2e');
    expect(res.status).toBe(400);
    expect(res.json().message).toBe(`Name parameter invalid: "..": may not be '..'`);
    await expectUntouched();
  });

  it.each(['%zz', '%', 'a%2', '%E2%82'])(
    'answers 400 for malformed percent-encoding %s',
    async (segment) => {
      const res = await rawRequest(server, 'DELETE', `${victim}/configmaps/${segment}`);
      expect(res.status).toBe(400);
      expect(res.json().message).toContain('has invalid percent-encoding');
      await expectUntouched();
    },
  );

  it('decodes each segment on its own: de%66ault is default, %70recious is precious', async () => {
    const res = await rawRequest(
      server,
      'GET',
      '/api/v1/namespaces/vic%74im/configmaps/%70recious',
    );
    expect(res.status).toBe(200);
    expect(res.json().metadata.name).toBe('precious');
  });

  it('does not resolve dot segments into another route (list under .../configmaps/x/..)', async () => {
    const res = await rawRequest(server, 'DELETE', `${victim}/configmaps/x/../..`);
    expect(res.status).toBe(404);
    await expectUntouched();
  });
});
