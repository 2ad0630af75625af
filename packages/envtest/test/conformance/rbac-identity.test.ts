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

/**
 * Whether the server authorizes impersonation the constrained way (KEP-5284: beta and on from
 * Kubernetes 1.36, alpha and off in 1.35), as kube-apiserver reports its feature gates in
 * `/metrics`. The local server implements the newest Kubernetes: constrained.
 */
async function constrainedImpersonation(): Promise<boolean> {
  if (cluster.env.kind === 'local') return true;
  const { status, body } = await cluster.request('GET', '/metrics', undefined, {
    accept: 'text/plain',
  });
  expect(status).toBe(200);
  const gauge = /^kubernetes_feature_enabled\{name="ConstrainedImpersonation",[^}]*\} (\d)$/m.exec(
    String(body),
  );
  if (!gauge)
    throw new Error('kube-apiserver reports no ConstrainedImpersonation feature gate in /metrics');
  return gauge[1] === '1';
}

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

  it('authorizes impersonation: constrained (KEP-5284) first, then the impersonate verb', async () => {
    // `get --raw` skips kubectl's discovery, which would itself be refused first.
    const raw = (path: string, ...as: string[]) => asDelegate(['get', '--raw', path, ...as]);
    if (!(await constrainedImpersonation())) {
      // Kubernetes 1.35 (the feature alpha and off): the impersonate verb alone decides.
      await expect(raw('/api/v1/namespaces/default/pods', '--as', 'jane')).rejects.toThrow(
        `users "jane" is forbidden: User "${delegate}" cannot impersonate resource "users" in API group "" at the cluster scope`,
      );
      await grant('impersonate-jane', [
        { apiGroups: [''], resources: ['users'], resourceNames: ['jane'], verbs: ['impersonate'] },
      ]);
      await expectJaneRefusedPods();
      await expect(
        raw('/api/v1/namespaces/default/pods', '--as', 'jane', '--as-group', 'devs'),
      ).rejects.toThrow(
        `groups "devs" is forbidden: User "${delegate}" cannot impersonate resource "groups" in API group "" at the cluster scope`,
      );
      return;
    }
    await expect(raw('/api/v1/namespaces/default/pods', '--as', 'jane')).rejects.toThrow(
      `pods is forbidden: User "${delegate}" cannot impersonate-on:user-info:list resource "pods" in API group "" in the namespace "default"`,
    );
    await expect(raw('/api', '--as', 'system:serviceaccount:default:other')).rejects.toThrow(
      `forbidden: User "${delegate}" cannot impersonate-on:serviceaccount:get path "/api"`,
    );
    await grant('list-pods-as-jane', [
      { apiGroups: [''], resources: ['pods'], verbs: ['impersonate-on:user-info:list'] },
      {
        apiGroups: ['authentication.k8s.io'],
        resources: ['users'],
        resourceNames: ['jane'],
        verbs: ['impersonate:user-info'],
      },
    ]);
    await expectJaneRefusedPods();
    await expect(
      raw('/api/v1/namespaces/default/pods', '--as', 'jane', '--as-group', 'devs'),
    ).rejects.toThrow(
      `groups.authentication.k8s.io "devs" is forbidden: User "${delegate}" cannot impersonate:user-info resource "groups" in API group "authentication.k8s.io" at the cluster scope`,
    );
    expect(
      (await cluster.kubectl(['auth', 'can-i', 'create', 'roles', '--as', delegate])).trim(),
    ).toBe('yes');

    /** Binds a new ClusterRole of `rules` to the delegate. */
    async function grant(name: string, rules: unknown[]) {
      await cluster.request('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
        metadata: { name },
        rules,
      });
      await cluster.kubectl([
        'create',
        'clusterrolebinding',
        `delegate-${name}`,
        `--clusterrole=${name}`,
        '--serviceaccount=default:delegate',
      ]);
    }
    /** Impersonation allowed, so jane's own RBAC (none) refuses the list. */
    async function expectJaneRefusedPods() {
      // kube-apiserver's RBAC reads bindings from an informer: allowed a moment later.
      await eventually(async () => {
        await expect(raw('/api/v1/namespaces/default/pods', '--as', 'jane')).rejects.toThrow(
          'pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"',
        );
        return true;
      });
    }
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
