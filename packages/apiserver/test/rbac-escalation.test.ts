import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiServer } from '../src/index.js';
import { expectServing, httpRequest } from './http-request.js';

const rbac = 'rbac.authorization.k8s.io';
const rbacPath = `/apis/${rbac}/v1`;
let server: ApiServer;
let bob: string;

const bobGroups = '(groups=["system:authenticated"])';
const notHeld = `user "bob" ${bobGroups} is attempting to grant RBAC permissions not currently held:`;

async function asAdmin(method: string, path: string, body?: unknown) {
  const answer = await httpRequest(server, method, path, { token: server.adminToken, body });
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  return answer.body;
}

async function asBob(method: string, path: string, body?: unknown) {
  return httpRequest(server, method, path, { token: bob, body });
}

const role = (name: string, rules: object[], namespace = 'team') => ({
  apiVersion: `${rbac}/v1`,
  kind: 'Role',
  metadata: { name, namespace },
  rules,
});
const binding = (
  kind: string,
  name: string,
  roleKind: string,
  roleName: string,
  namespace?: string,
) => ({
  apiVersion: `${rbac}/v1`,
  kind,
  metadata: { name, ...(namespace === undefined ? {} : { namespace }) },
  roleRef: { apiGroup: rbac, kind: roleKind, name: roleName },
  subjects: [{ apiGroup: rbac, kind: 'User', name: 'bob' }],
});

// A user allowed to write RBAC objects, and to read ConfigMaps in "team" only, tries to give
// himself more over real HTTP; kube-apiserver's escalation checks refuse it with its words.
describe('RBAC escalation prevention', () => {
  beforeAll(async () => {
    server = await ApiServer.start({ https: false, rbac: true, cluster: false });
    bob = server.issueToken({ name: 'bob', groups: ['system:authenticated'] });
    await asAdmin('POST', '/api/v1/namespaces', { metadata: { name: 'team' } });
    await asAdmin('POST', `${rbacPath}/clusterroles`, {
      metadata: { name: 'rbac-writer' },
      rules: [
        {
          apiGroups: [rbac],
          resources: ['roles', 'rolebindings', 'clusterroles', 'clusterrolebindings'],
          verbs: ['create', 'update', 'patch', 'get', 'list'],
        },
      ],
    });
    await asAdmin(
      'POST',
      `${rbacPath}/clusterrolebindings`,
      binding('ClusterRoleBinding', 'bob-rbac-writer', 'ClusterRole', 'rbac-writer'),
    );
    await asAdmin(
      'POST',
      `${rbacPath}/namespaces/team/roles`,
      role('configmap-reader', [
        { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] },
      ]),
    );
    await asAdmin(
      'POST',
      `${rbacPath}/namespaces/team/rolebindings`,
      binding('RoleBinding', 'bob-configmaps', 'Role', 'configmap-reader', 'team'),
    );
    await asAdmin('POST', `${rbacPath}/clusterroles`, {
      metadata: { name: 'secret-reader' },
      rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] }],
    });
  });

  afterAll(async () => {
    await server.stop();
  });

  it('refuses a ClusterRoleBinding to cluster-admin, naming every permission not held', async () => {
    const answer = await asBob(
      'POST',
      `${rbacPath}/clusterrolebindings`,
      binding('ClusterRoleBinding', 'bob-admin', 'ClusterRole', 'cluster-admin'),
    );
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      code: 403,
      details: { name: 'bob-admin', group: rbac, kind: 'clusterrolebindings' },
      message: `clusterrolebindings.${rbac} "bob-admin" is forbidden: ${notHeld}\n{APIGroups:["*"], Resources:["*"], Verbs:["*"]}\n{NonResourceURLs:["*"], Verbs:["*"]}`,
    });
    expect((await asBob('GET', '/api/v1/namespaces/team/secrets')).status).toBe(403);
    expect(
      (
        await httpRequest(server, 'GET', `${rbacPath}/clusterrolebindings/bob-admin`, {
          token: server.adminToken,
        })
      ).status,
    ).toBe(404);
    await expectServing(server);
  });

  it('refuses a RoleBinding to a ClusterRole whose rules are not held, and binding a missing Role', async () => {
    const answer = await asBob(
      'POST',
      `${rbacPath}/namespaces/team/rolebindings`,
      binding('RoleBinding', 'bob-secrets', 'ClusterRole', 'secret-reader', 'team'),
    );
    expect(answer.status).toBe(403);
    expect(answer.body.message).toBe(
      `rolebindings.${rbac} "bob-secrets" is forbidden: ${notHeld}\n{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}`,
    );
    const ghost = await asBob(
      'POST',
      `${rbacPath}/namespaces/team/rolebindings`,
      binding('RoleBinding', 'bob-ghost', 'Role', 'ghost', 'team'),
    );
    expect(ghost.status).toBe(403);
    expect(ghost.body.message).toBe(
      `rolebindings.${rbac} "bob-ghost" is forbidden: role.${rbac} "ghost" not found`,
    );
    await expectServing(server);
  });

  it('lets a user grant what they hold, only where they hold it', async () => {
    const held = await asBob(
      'POST',
      `${rbacPath}/namespaces/team/roles`,
      role('configmap-getter', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }]),
    );
    expect(held.status).toBe(201);
    const bound = await asBob(
      'POST',
      `${rbacPath}/namespaces/team/rolebindings`,
      binding('RoleBinding', 'bob-getter', 'Role', 'configmap-getter', 'team'),
    );
    expect(bound.status).toBe(201);
    // Held in "team" only, so not cluster-wide.
    const clusterWide = await asBob('POST', `${rbacPath}/clusterroles`, {
      metadata: { name: 'configmap-getter' },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
    });
    expect(clusterWide.status).toBe(403);
    expect(clusterWide.body.message).toBe(
      `clusterroles.${rbac} "configmap-getter" is forbidden: ${notHeld}\n{APIGroups:[""], Resources:["configmaps"], Verbs:["get"]}`,
    );
    await expectServing(server);
  });

  it('refuses a Role or an update of one that grants more, and an aggregationRule', async () => {
    const created = await asBob(
      'POST',
      `${rbacPath}/namespaces/team/roles`,
      role('grabber', [
        { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] },
        { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'delete'] },
      ]),
    );
    expect(created.status).toBe(403);
    expect(created.body.message).toBe(
      `roles.${rbac} "grabber" is forbidden: ${notHeld}\n{APIGroups:[""], Resources:["configmaps"], Verbs:["delete"]}\n{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}`,
    );
    const patched = await httpRequest(
      server,
      'PATCH',
      `${rbacPath}/namespaces/team/roles/configmap-getter`,
      {
        token: bob,
        headers: { 'Content-Type': 'application/merge-patch+json' },
        body: { rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }] },
      },
    );
    expect(patched.status).toBe(403);
    expect(patched.body.message).toBe(
      `roles.${rbac} "configmap-getter" is forbidden: ${notHeld}\n{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}`,
    );
    const aggregated = await asBob('POST', `${rbacPath}/clusterroles`, {
      metadata: { name: 'gatherer' },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { gather: 'yes' } }] },
      rules: [],
    });
    expect(aggregated.status).toBe(403);
    expect(aggregated.body.message).toBe(
      `clusterroles.${rbac} "gatherer" is forbidden: must have cluster-admin privileges to use the aggregationRule`,
    );
    expect((await asBob('GET', '/api/v1/namespaces/team/secrets')).status).toBe(403);
    await expectServing(server);
  });

  it('lets `escalate` create any role and `bind` bind the roles it names', async () => {
    await asAdmin('POST', `${rbacPath}/clusterroles`, {
      metadata: { name: 'delegator' },
      rules: [
        { apiGroups: [rbac], resources: ['roles'], verbs: ['escalate'] },
        {
          apiGroups: [rbac],
          resources: ['clusterroles'],
          verbs: ['bind'],
          resourceNames: ['secret-reader'],
        },
      ],
    });
    await asAdmin(
      'POST',
      `${rbacPath}/namespaces/team/rolebindings`,
      binding('RoleBinding', 'bob-delegator', 'ClusterRole', 'delegator', 'team'),
    );
    const escalated = await asBob(
      'POST',
      `${rbacPath}/namespaces/team/roles`,
      role('anything', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]),
    );
    expect(escalated.status).toBe(201);
    const bound = await asBob(
      'POST',
      `${rbacPath}/namespaces/team/rolebindings`,
      binding('RoleBinding', 'bob-secrets', 'ClusterRole', 'secret-reader', 'team'),
    );
    expect(bound.status).toBe(201);
    expect((await asBob('GET', '/api/v1/namespaces/team/secrets')).status).toBe(200);
    // `bind` names secret-reader only: cluster-admin stays out of reach.
    const admin = await asBob(
      'POST',
      `${rbacPath}/namespaces/team/rolebindings`,
      binding('RoleBinding', 'bob-admin', 'ClusterRole', 'cluster-admin', 'team'),
    );
    expect(admin.status).toBe(403);
    await expectServing(server);
  });
});
