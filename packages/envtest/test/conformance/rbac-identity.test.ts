import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../src/index.js';
import { startCluster, type TestCluster } from '../cluster.js';

let cluster: TestCluster;
let directory: string;
let delegateKubeconfig: string;
const delegate = 'system:serviceaccount:default:delegate';
const groups = '["system:serviceaccounts" "system:serviceaccounts:default" "system:authenticated"]';

beforeAll(async () => {
  cluster = await startCluster({ apiServer: { rbac: true } });
  directory = await mkdtemp(join(tmpdir(), 'rbac-identity-'));
  delegateKubeconfig = join(directory, 'kubeconfig');
  const identity = await cluster.env.serviceAccount({
    namespace: 'default',
    name: 'delegate',
    rbac: [
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'rbac-writer' },
        rules: [
          {
            apiGroups: ['rbac.authorization.k8s.io'],
            resources: ['clusterrolebindings', 'roles'],
            verbs: ['create'],
          },
        ],
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'delegate-rbac-writer' },
        roleRef: {
          apiGroup: 'rbac.authorization.k8s.io',
          kind: 'ClusterRole',
          name: 'rbac-writer',
        },
        subjects: [{ kind: 'ServiceAccount', name: 'delegate', namespace: 'default' }],
      },
    ],
  });
  await writeFile(delegateKubeconfig, identity.kubeconfig);
});
afterAll(async () => {
  await cluster.stop();
  await rm(directory, { recursive: true, force: true });
});

const asDelegate = (args: string[], input?: string) =>
  cluster.kubectl(args, { kubeconfig: delegateKubeconfig, ...(input ? { input } : {}) });

// Issue #15's RBAC and identity rules, with the words kube-apiserver answers them in.
describe('RBAC escalation, impersonation and TokenRequest', () => {
  it('refuses a binding to a role whose permissions the author does not hold', async () => {
    await expect(
      asDelegate([
        'create',
        'clusterrolebinding',
        'delegate-admin',
        '--clusterrole=cluster-admin',
        `--serviceaccount=default:delegate`,
      ]),
    ).rejects.toThrow(
      `clusterrolebindings.rbac.authorization.k8s.io "delegate-admin" is forbidden: user "${delegate}" (groups=${groups}) is attempting to grant RBAC permissions not currently held:\n{APIGroups:["*"], Resources:["*"], Verbs:["*"]}\n{NonResourceURLs:["*"], Verbs:["*"]}`,
    );
    await expect(
      asDelegate(['create', 'role', 'grabber', '--verb=get', '--resource=secrets']),
    ).rejects.toThrow(
      `roles.rbac.authorization.k8s.io "grabber" is forbidden: user "${delegate}" (groups=${groups}) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}`,
    );
  });

  it('refuses impersonation without permission, and lets the admin impersonate', async () => {
    // kube-apiserver v1.37 also tries constrained impersonation (KEP-5284) and then names its
    // `impersonate-on:user-info:<verb>` check; this server names the `impersonate` check
    // (README, known differences). Both refuse, saying the user cannot impersonate.
    await expect(asDelegate(['get', 'pods', '--as', 'jane'])).rejects.toThrow(
      `is forbidden: User "${delegate}" cannot impersonate`,
    );
    expect(
      (await cluster.kubectl(['auth', 'can-i', 'create', 'roles', '--as', delegate])).trim(),
    ).toBe('yes');
    expect(
      (
        await cluster
          .kubectl(['auth', 'can-i', 'create', 'secrets', '--as', delegate])
          .catch((error: Error) => error.message)
      ).trim(),
    ).toMatch(/no$/);
  });

  it('issues tokens that stop working once their ServiceAccount is deleted', async () => {
    await expect(cluster.kubectl(['create', 'token', 'delegate', '--duration=1m'])).rejects.toThrow(
      'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
    );
    await cluster.kubectl(['create', 'serviceaccount', 'doomed']);
    const token = (await cluster.kubectl(['create', 'token', 'doomed', '--duration=20m'])).trim();
    const asDoomed = new KubeConfig();
    asDoomed.loadFromOptions({
      clusters: cluster.kubeConfig.getClusters(),
      users: [{ name: 'doomed', token }],
      contexts: [
        {
          name: 'doomed',
          cluster: cluster.kubeConfig.getClusters()[0]?.name ?? '',
          user: 'doomed',
        },
      ],
      currentContext: 'doomed',
    });
    const whoami = () =>
      cluster.request(
        'POST',
        '/apis/authentication.k8s.io/v1/selfsubjectreviews',
        { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
        { kubeConfig: asDoomed },
      );
    const before = await whoami();
    expect(before.status).toBe(201);
    expect(before.body.status.userInfo.username).toBe('system:serviceaccount:default:doomed');
    await cluster.kubectl(['delete', 'serviceaccount', 'doomed']);
    // kube-apiserver caches a token's successful authentication for 10 s (its
    // --token-auth success TTL): the token fails within that; this server, at once.
    await eventually(
      async () => {
        const after = await whoami();
        if (after.status !== 401) throw new Error(`still ${after.status}`);
        expect(after.body).toMatchObject({ reason: 'Unauthorized', message: 'Unauthorized' });
        return true;
      },
      { timeoutMs: 20_000, intervalMs: 500 },
    );
  });
});
