import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiServer } from '../src/index.js';
import { expectServing, httpRequest } from './http-request.js';

// What a caller without credentials may do: with RBAC enforced, only what RBAC grants
// `system:anonymous` / `system:unauthenticated` (by the bootstrap policy: health and version);
// without, the ordinary verbs on everything but Secrets. In both modes no Secret, no token,
// no impersonation, no RBAC write.
describe.each([
  { rbac: true, mode: 'with --rbac' },
  { rbac: false, mode: 'without --rbac' },
])('anonymous callers $mode', ({ rbac }) => {
  let server: ApiServer;

  beforeAll(async () => {
    server = await ApiServer.start({ https: false, rbac, cluster: false });
    await httpRequest(server, 'POST', '/api/v1/namespaces/default/secrets', {
      token: server.adminToken,
      body: { metadata: { name: 'db' }, stringData: { password: 'hunter2' } },
    });
    await httpRequest(server, 'POST', '/api/v1/namespaces/default/serviceaccounts', {
      token: server.adminToken,
      body: { metadata: { name: 'builder' } },
    });
  });

  afterAll(async () => {
    await server.stop();
  });

  it(
    rbac
      ? 'may read health and version only'
      : 'may use the ordinary verbs on everything but Secrets',
    async () => {
      for (const path of ['/readyz', '/livez', '/healthz', '/version'])
        expect((await httpRequest(server, 'GET', path)).status).toBe(200);
      const discovery = await httpRequest(server, 'GET', '/api');
      const created = await httpRequest(server, 'POST', '/api/v1/namespaces/default/configmaps', {
        body: { metadata: { name: 'anonymous' } },
      });
      if (rbac) {
        expect(discovery).toMatchObject({
          status: 403,
          body: { message: 'forbidden: User "system:anonymous" cannot get path "/api"' },
        });
        expect(created.body.message).toBe(
          'configmaps is forbidden: User "system:anonymous" cannot create resource "configmaps" in API group "" in the namespace "default"',
        );
      } else {
        expect(discovery.status).toBe(200);
        expect(created.status).toBe(201);
        expect((await httpRequest(server, 'GET', '/api/v1/namespaces/default/pods')).status).toBe(
          200,
        );
      }
    },
  );

  it('cannot read Secrets, list them or watch them', async () => {
    const get = await httpRequest(server, 'GET', '/api/v1/namespaces/default/secrets/db');
    expect(get).toMatchObject({
      status: 403,
      body: {
        reason: 'Forbidden',
        message:
          'secrets "db" is forbidden: User "system:anonymous" cannot get resource "secrets" in API group "" in the namespace "default"',
      },
    });
    expect((await httpRequest(server, 'GET', '/api/v1/secrets')).status).toBe(403);
    expect((await httpRequest(server, 'GET', '/api/v1/secrets?watch=1')).status).toBe(403);
    expect(
      JSON.stringify((await httpRequest(server, 'GET', '/api/v1/secrets')).body),
    ).not.toContain('hunter2');
    await expectServing(server);
  });

  it('cannot get a token, impersonate, or grant itself rights', async () => {
    const token = await httpRequest(
      server,
      'POST',
      '/api/v1/namespaces/default/serviceaccounts/builder/token',
      { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} } },
    );
    expect(token.status).toBe(403);
    const impersonating = await httpRequest(
      server,
      'GET',
      '/api/v1/namespaces/default/secrets/db',
      {
        headers: { 'Impersonate-User': 'admin', 'Impersonate-Group': 'system:masters' },
      },
    );
    expect(impersonating).toMatchObject({
      status: 403,
      body: {
        message:
          'secrets "db" is forbidden: User "system:anonymous" cannot impersonate-on:user-info:get resource "secrets" in API group "" in the namespace "default"',
      },
    });
    const grant = await httpRequest(
      server,
      'POST',
      '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
      {
        body: {
          metadata: { name: 'everyone-admin' },
          roleRef: {
            apiGroup: 'rbac.authorization.k8s.io',
            kind: 'ClusterRole',
            name: 'cluster-admin',
          },
          subjects: [{ kind: 'Group', name: 'system:unauthenticated' }],
        },
      },
    );
    expect(grant.status).toBe(403);
    expect((await httpRequest(server, 'GET', '/api/v1/namespaces/default/secrets/db')).status).toBe(
      403,
    );
    await expectServing(server);
  });

  it('is still authenticated: a bad token is 401, a good one is its user', async () => {
    const bad = await httpRequest(server, 'GET', '/api/v1/namespaces', { token: 'not-a-token' });
    expect(bad).toMatchObject({
      status: 401,
      body: { reason: 'Unauthorized', message: 'Unauthorized' },
    });
    const jane = server.issueToken({ name: 'jane', groups: ['system:authenticated'] });
    const secret = await httpRequest(server, 'GET', '/api/v1/namespaces/default/secrets/db', {
      token: jane,
    });
    // Without RBAC every authenticated user may do anything; with it, jane has no binding.
    expect(secret.status).toBe(rbac ? 403 : 200);
    await expectServing(server);
  });
});
