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
const tokenPath = (name: string) => `/api/v1/namespaces/team/serviceaccounts/${name}/token`;

let server: ApiServer;
let directory: string;
let adminConfig: string;
let clock = Date.now();

async function k(...args: string[]): Promise<string> {
  try {
    return (await run(kubectl, ['--kubeconfig', adminConfig, ...args])).stdout;
  } catch (error) {
    throw new Error((error as { stderr?: string }).stderr ?? String(error));
  }
}

async function asAdmin(method: string, path: string, body?: unknown) {
  const answer = await httpRequest(server, method, path, { token: server.adminToken, body });
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  return answer.body;
}

const listPods = (token: string) =>
  httpRequest(server, 'GET', '/api/v1/namespaces/team/pods', { token });

// The TokenRequest API (`kubectl create token`), as kube-apiserver serves it: tokens bound to
// the ServiceAccount's uid (and to a Pod or Secret when asked), expiring when they say.
describe('TokenRequest', () => {
  beforeAll(async () => {
    server = await ApiServer.start({ rbac: true, cluster: false, now: () => new Date(clock) });
    directory = await mkdtemp(join(tmpdir(), 'apiserver-token-'));
    adminConfig = join(directory, 'admin.kubeconfig');
    await writeFile(adminConfig, server.kubeconfig());
    await asAdmin('POST', '/api/v1/namespaces', { metadata: { name: 'team' } });
    await asAdmin('POST', `/apis/${rbac}/v1/namespaces/team/roles`, {
      metadata: { name: 'pod-reader' },
      rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }],
    });
    await asAdmin('POST', `/apis/${rbac}/v1/namespaces/team/rolebindings`, {
      metadata: { name: 'accounts-read-pods' },
      roleRef: { apiGroup: rbac, kind: 'Role', name: 'pod-reader' },
      subjects: [{ kind: 'Group', apiGroup: rbac, name: 'system:serviceaccounts:team' }],
    });
    for (const name of ['builder', 'doomed', 'bounded'])
      await asAdmin('POST', '/api/v1/namespaces/team/serviceaccounts', { metadata: { name } });
  });

  afterAll(async () => {
    await server.stop();
    await rm(directory, { recursive: true, force: true });
  });

  it('issues a token with `kubectl create token` that authenticates as the account', async () => {
    const token = (await k('create', 'token', 'builder', '-n', 'team')).trim();
    expect(token.split('.')).toHaveLength(3);
    expect((await listPods(token)).status).toBe(200);
    const account = await asAdmin('GET', '/api/v1/namespaces/team/serviceaccounts/builder');
    const review = await httpRequest(
      server,
      'POST',
      '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      {
        token,
        body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
      },
    );
    expect(review.body.status.userInfo).toMatchObject({
      username: 'system:serviceaccount:team:builder',
      uid: account.metadata.uid,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated'],
      extra: { 'authentication.kubernetes.io/credential-id': [expect.stringMatching(/^JTI=/)] },
    });
    // Only what RBAC grants the account.
    const secrets = await httpRequest(server, 'GET', '/api/v1/namespaces/team/secrets', { token });
    expect(secrets.status).toBe(403);
  });

  it('honours expirationSeconds, and refuses less than 10 minutes as kube-apiserver', async () => {
    const answer = await httpRequest(server, 'POST', tokenPath('builder'), {
      token: server.adminToken,
      body: {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: { expirationSeconds: 1200 },
      },
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      kind: 'TokenRequest',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { name: 'builder', namespace: 'team' },
      spec: {
        audiences: ['https://kubernetes.default.svc.cluster.local'],
        expirationSeconds: 1200,
        boundObjectRef: null,
      },
    });
    const expires = Date.parse(answer.body.status.expirationTimestamp);
    expect(Math.abs(expires - (clock + 1_200_000))).toBeLessThan(2_000);
    const token = answer.body.status.token as string;
    expect((await listPods(token)).status).toBe(200);
    clock += 1_199_000;
    expect((await listPods(token)).status).toBe(200);
    clock += 2_000;
    expect(await listPods(token)).toMatchObject({ status: 401, body: { message: 'Unauthorized' } });
    await expect(k('create', 'token', 'builder', '-n', 'team', '--duration=1m')).rejects.toThrow(
      'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
    );
    await expect(k('create', 'token', 'ghost', '-n', 'team')).rejects.toThrow(
      'serviceaccounts "ghost" not found',
    );
    await expectServing(server);
  });

  it('stops authenticating a token once its ServiceAccount is deleted, even if recreated', async () => {
    const token = (await k('create', 'token', 'doomed', '-n', 'team')).trim();
    const legacy = server.serviceAccountToken('team', 'doomed');
    expect((await listPods(token)).status).toBe(200);
    expect((await listPods(legacy)).status).toBe(200);
    await asAdmin('DELETE', '/api/v1/namespaces/team/serviceaccounts/doomed');
    expect((await listPods(token)).status).toBe(401);
    expect((await listPods(legacy)).status).toBe(401);
    await asAdmin('POST', '/api/v1/namespaces/team/serviceaccounts', {
      metadata: { name: 'doomed' },
    });
    expect((await listPods(token)).status).toBe(401);
    await expectServing(server);
  });

  it('binds a token to a Secret or Pod, and refuses other audiences at the API', async () => {
    await asAdmin('POST', '/api/v1/namespaces/team/secrets', { metadata: { name: 'anchor' } });
    const bound = await httpRequest(server, 'POST', tokenPath('bounded'), {
      token: server.adminToken,
      body: { spec: { boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'anchor' } } },
    });
    expect(bound.status).toBe(201);
    const token = bound.body.status.token as string;
    expect((await listPods(token)).status).toBe(200);
    await asAdmin('DELETE', '/api/v1/namespaces/team/secrets/anchor');
    expect((await listPods(token)).status).toBe(401);

    const wrongPod = await httpRequest(server, 'POST', tokenPath('bounded'), {
      token: server.adminToken,
      body: { spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'missing' } } },
    });
    expect(wrongPod).toMatchObject({ status: 404, body: { message: 'pods "missing" not found' } });
    const wrongKind = await httpRequest(server, 'POST', tokenPath('bounded'), {
      token: server.adminToken,
      body: { spec: { boundObjectRef: { kind: 'Deployment', apiVersion: 'apps/v1', name: 'x' } } },
    });
    expect(wrongKind).toMatchObject({
      status: 400,
      body: { message: 'cannot bind token to object of type apps/v1, Kind=Deployment' },
    });
    const vault = await httpRequest(server, 'POST', tokenPath('bounded'), {
      token: server.adminToken,
      body: { spec: { audiences: ['vault'] } },
    });
    expect(vault.body.spec.audiences).toEqual(['vault']);
    expect((await listPods(vault.body.status.token)).status).toBe(401);
    const renamed = await httpRequest(server, 'POST', tokenPath('bounded'), {
      token: server.adminToken,
      body: { metadata: { name: 'other' }, spec: {} },
    });
    expect(renamed).toMatchObject({
      status: 422,
      body: {
        message:
          'TokenRequest.authentication.k8s.io "bounded" is invalid: metadata.name: Invalid value: "other": must match the service account name if specified',
      },
    });
    await expectServing(server);
  });

  it('lists serviceaccounts/token in discovery, as kube-apiserver', async () => {
    const core = await asAdmin('GET', '/api/v1');
    expect(core.resources).toContainEqual({
      name: 'serviceaccounts/token',
      singularName: '',
      namespaced: true,
      group: 'authentication.k8s.io',
      version: 'v1',
      kind: 'TokenRequest',
      verbs: ['create'],
    });
  });
});
