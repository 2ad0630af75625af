import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiServer } from '../src/index.js';
import { expectServing, httpRequest } from './http-request.js';

const run = promisify(execFile);
const kubectl = process.env.KUBECTL ?? 'kubectl';
const rbac = 'rbac.authorization.k8s.io';

let server: ApiServer;
let directory: string;
let adminConfig: string;
let aliceConfig: string;

/** kubectl's stdout; on failure, rejects with its stderr as the message. */
async function k(kubeconfig: string, ...args: string[]): Promise<string> {
  try {
    return (await run(kubectl, ['--kubeconfig', kubeconfig, ...args])).stdout;
  } catch (error) {
    throw new Error((error as { stderr?: string }).stderr ?? String(error));
  }
}

async function asAdmin(method: string, path: string, body: unknown): Promise<void> {
  const answer = await httpRequest(server, method, path, { token: server.adminToken, body });
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
}

// `Impersonate-*` headers, authorized with the `impersonate` verb, driven by the real kubectl
// (`--as`, `--as-group`, `--as-uid`, `auth can-i --as`, `auth whoami`) and by raw requests.
describe('impersonation', () => {
  beforeAll(async () => {
    server = await ApiServer.start({ rbac: true, cluster: false });
    directory = await mkdtemp(join(tmpdir(), 'apiserver-impersonation-'));
    adminConfig = join(directory, 'admin.kubeconfig');
    aliceConfig = join(directory, 'alice.kubeconfig');
    await writeFile(adminConfig, server.kubeconfig());
    const alice = server.issueToken({ name: 'alice', groups: ['system:authenticated'] });
    await writeFile(aliceConfig, server.kubeconfig({ token: alice }));
    await asAdmin('POST', '/api/v1/namespaces', { metadata: { name: 'team' } });
    await asAdmin('POST', `/apis/${rbac}/v1/namespaces/team/roles`, {
      metadata: { name: 'pod-reader' },
      rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }],
    });
    await asAdmin('POST', `/apis/${rbac}/v1/namespaces/team/rolebindings`, {
      metadata: { name: 'bob-pods' },
      roleRef: { apiGroup: rbac, kind: 'Role', name: 'pod-reader' },
      subjects: [
        { apiGroup: rbac, kind: 'User', name: 'bob' },
        { kind: 'ServiceAccount', name: 'builder', namespace: 'team' },
      ],
    });
  });

  afterAll(async () => {
    await server.stop();
    await rm(directory, { recursive: true, force: true });
  });

  it('answers `kubectl auth can-i --as` for the impersonated user and groups', async () => {
    // `auth can-i` prints yes or no, and exits 1 on no.
    const canI = (...args: string[]) =>
      run(kubectl, ['--kubeconfig', adminConfig, 'auth', 'can-i', ...args]).then(
        ({ stdout }) => stdout,
        (error: { stdout?: string }) => error.stdout ?? '',
      );
    expect((await canI('list', 'pods', '-n', 'team', '--as', 'bob')).trim()).toBe('yes');
    expect((await canI('list', 'secrets', '-n', 'team', '--as', 'bob')).trim()).toBe('no');
    expect(
      (
        await canI('list', 'secrets', '-n', 'team', '--as', 'bob', '--as-group', 'system:masters')
      ).trim(),
    ).toBe('yes');
    expect(
      (
        await canI('list', 'pods', '-n', 'team', '--as', 'system:serviceaccount:team:builder')
      ).trim(),
    ).toBe('yes');
  });

  it('acts as the impersonated user with `kubectl --as`, and shows it in `auth whoami`', async () => {
    expect(await k(adminConfig, 'get', 'pods', '-n', 'team', '--as', 'bob')).toBe('');
    await expect(k(adminConfig, 'get', 'secrets', '-n', 'team', '--as', 'bob')).rejects.toThrow(
      'secrets is forbidden: User "bob" cannot list resource "secrets" in API group "" in the namespace "team"',
    );
    const whoami = async (...as: string[]) =>
      JSON.parse(await k(adminConfig, 'auth', 'whoami', '-o', 'json', ...as)).status.userInfo;
    expect(await whoami('--as', 'bob', '--as-group', 'devs', '--as-uid', 'u-123')).toEqual({
      username: 'bob',
      uid: 'u-123',
      groups: ['devs', 'system:authenticated'],
    });
    const account = {
      status: { userInfo: await whoami('--as', 'system:serviceaccount:team:builder') },
    };
    expect(account.status.userInfo).toEqual({
      username: 'system:serviceaccount:team:builder',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated'],
    });
  });

  it('refuses a user without impersonation rights, naming the constrained check as kube 1.37', async () => {
    // `get --raw` skips kubectl's discovery, which would itself be refused first.
    await expect(
      k(aliceConfig, 'get', '--raw', '/api/v1/namespaces/team/pods', '--as', 'bob'),
    ).rejects.toThrow(
      'pods is forbidden: User "alice" cannot impersonate-on:user-info:list resource "pods" in API group "" in the namespace "team"',
    );
    await expect(
      k(aliceConfig, 'get', '--raw', '/api', '--as', 'system:serviceaccount:team:builder'),
    ).rejects.toThrow(
      'forbidden: User "alice" cannot impersonate-on:serviceaccount:get path "/api"',
    );
    await expectServing(server);
  });

  it('allows constrained impersonation: the action, then each identity', async () => {
    await asAdmin('POST', `/apis/${rbac}/v1/clusterroles`, {
      metadata: { name: 'list-pods-as-jane' },
      rules: [
        { apiGroups: [''], resources: ['pods'], verbs: ['impersonate-on:user-info:list'] },
        {
          apiGroups: ['authentication.k8s.io'],
          resources: ['users'],
          resourceNames: ['jane'],
          verbs: ['impersonate:user-info'],
        },
      ],
    });
    await asAdmin('POST', `/apis/${rbac}/v1/clusterrolebindings`, {
      metadata: { name: 'carol-lists-pods-as-jane' },
      roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'list-pods-as-jane' },
      subjects: [{ apiGroup: rbac, kind: 'User', name: 'carol' }],
    });
    const carol = server.issueToken({ name: 'carol', groups: ['system:authenticated'] });
    const asCarol = (path: string, headers: [string, string][]) =>
      httpRequest(server, 'GET', path, { token: carol, headers });
    // Allowed to impersonate; jane herself may not list pods.
    expect(
      (await asCarol('/api/v1/namespaces/team/pods', [['Impersonate-User', 'jane']])).body.message,
    ).toBe(
      'pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "team"',
    );
    expect(
      (
        await asCarol('/api/v1/namespaces/team/pods', [
          ['Impersonate-User', 'jane'],
          ['Impersonate-Group', 'devs'],
        ])
      ).body.message,
    ).toBe(
      'groups.authentication.k8s.io "devs" is forbidden: User "carol" cannot impersonate:user-info resource "groups" in API group "authentication.k8s.io" at the cluster scope',
    );
    expect(
      (await asCarol('/api/v1/namespaces/team/pods', [['Impersonate-User', 'bob']])).body.message,
    ).toBe(
      'users.authentication.k8s.io "bob" is forbidden: User "carol" cannot impersonate:user-info resource "users" in API group "authentication.k8s.io" at the cluster scope',
    );
    expect(
      (await asCarol('/api/v1/namespaces/team/configmaps', [['Impersonate-User', 'jane']])).body
        .message,
    ).toBe(
      'configmaps is forbidden: User "carol" cannot impersonate-on:user-info:list resource "configmaps" in API group "" in the namespace "team"',
    );
    await expectServing(server);
  });

  it('falls back to the `impersonate` verb for each name, group, uid and extra value', async () => {
    await asAdmin('POST', `/apis/${rbac}/v1/clusterroles`, {
      metadata: { name: 'impersonate-bob' },
      rules: [
        { apiGroups: [''], resources: ['users'], verbs: ['impersonate'], resourceNames: ['bob'] },
        {
          apiGroups: ['authentication.k8s.io'],
          resources: ['userextras/scopes'],
          verbs: ['impersonate'],
        },
      ],
    });
    await asAdmin('POST', `/apis/${rbac}/v1/clusterrolebindings`, {
      metadata: { name: 'alice-impersonates-bob' },
      roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'impersonate-bob' },
      subjects: [{ apiGroup: rbac, kind: 'User', name: 'alice' }],
    });
    // kube-apiserver's RBAC reads bindings from an informer; this server applies them at once.
    expect(await k(aliceConfig, 'get', 'pods', '-n', 'team', '--as', 'bob')).toBe('');
    // Refused by both: the constrained check is named.
    await expect(
      k(
        aliceConfig,
        'get',
        '--raw',
        '/api/v1/namespaces/team/pods',
        '--as',
        'bob',
        '--as-group',
        'system:masters',
      ),
    ).rejects.toThrow(
      'pods is forbidden: User "alice" cannot impersonate-on:user-info:list resource "pods" in API group "" in the namespace "team"',
    );
    const alice = server.issueToken({ name: 'alice', groups: ['system:authenticated'] });
    const extras = await httpRequest(
      server,
      'POST',
      '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      {
        token: alice,
        headers: [
          ['Impersonate-User', 'bob'],
          ['Impersonate-Extra-Scopes', 'view'],
          ['Impersonate-Extra-Scopes', 'edit'],
        ],
        body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
      },
    );
    expect(extras.body.status.userInfo).toEqual({
      username: 'bob',
      groups: ['system:authenticated'],
      extra: { scopes: ['view', 'edit'] },
    });
    const admin = await httpRequest(
      server,
      'POST',
      '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      {
        token: server.adminToken,
        headers: [
          ['Impersonate-User', 'bob'],
          ['Impersonate-Extra-Acme.com%2fProject', 'x'],
        ],
        body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
      },
    );
    expect(admin.body.status.userInfo.extra).toEqual({ 'acme.com/project': ['x'] });
    await expectServing(server);
  });

  it('answers 500 for groups without a user, as kube-apiserver', async () => {
    const answer = await httpRequest(server, 'GET', '/api/v1/namespaces/team/pods', {
      token: server.adminToken,
      headers: { 'Impersonate-Group': 'system:masters' },
    });
    expect(answer).toMatchObject({
      status: 500,
      body: {
        message:
          'Internal Server Error: "/api/v1/namespaces/team/pods": requested [{Group  system:masters    }] without impersonating a user',
      },
    });
    await expectServing(server);
  });
});
