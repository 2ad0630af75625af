// env.serviceAccount: an operator's identity with its rendered RBAC, on either plane (on the
// binaries plane its token comes from kube-apiserver's TokenRequest API and kube-apiserver's
// RBAC authorizer decides).
import type { KubernetesObject } from '@ops/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeRequest, type ServiceAccountIdentity } from '../../src/index.js';
import { startCluster, type TestCluster } from '../cluster.js';

let cluster: TestCluster;
let operator: ServiceAccountIdentity;

// What `kubectl kustomize config/default` renders for an operator named "widget-operator":
// its manager ClusterRole and binding, a leader-election Role and binding in its namespace,
// and a role for end users that binds nobody; the Deployment is ignored.
const rendered = [
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'widget-operator-manager-role' },
    rules: [
      { apiGroups: [''], resources: ['configmaps'], verbs: ['list', 'watch', 'create'] },
      { apiGroups: ['apps'], resources: ['deployments/status'], verbs: ['patch'] },
    ],
  },
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'widget-operator-manager-rolebinding' },
    roleRef: {
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'ClusterRole',
      name: 'widget-operator-manager-role',
    },
    subjects: [
      {
        kind: 'ServiceAccount',
        name: 'widget-operator-controller-manager',
        namespace: 'widget-operator-system',
      },
    ],
  },
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name: 'widget-operator-leader-election-role', namespace: 'widget-operator-system' },
    rules: [
      {
        apiGroups: ['coordination.k8s.io'],
        resources: ['leases'],
        verbs: ['get', 'create', 'update'],
      },
    ],
  },
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: {
      name: 'widget-operator-leader-election-rolebinding',
      namespace: 'widget-operator-system',
    },
    roleRef: {
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'Role',
      name: 'widget-operator-leader-election-role',
    },
    subjects: [
      {
        kind: 'ServiceAccount',
        name: 'widget-operator-controller-manager',
        namespace: 'widget-operator-system',
      },
    ],
  },
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'widget-operator-controller-manager', namespace: 'widget-operator-system' },
    spec: {},
  },
] as KubernetesObject[];

beforeAll(async () => {
  cluster = await startCluster({ apiServer: { rbac: true } });
  operator = await cluster.env.serviceAccount({
    namespace: 'widget-operator-system',
    name: 'widget-operator-controller-manager',
    rbac: rendered,
  });
});
afterAll(async () => {
  await cluster.stop();
});

const asOperator = (method: string, path: string, body?: unknown) =>
  kubeRequest(operator.kubeConfig, method, path, body);

describe('a ServiceAccount under rendered RBAC', () => {
  it('authenticates as the ServiceAccount, with its groups', async () => {
    const review = await asOperator('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'SelfSubjectReview',
    });
    expect(review.status).toBe(201);
    const user = (review.body as { status: { userInfo: { username: string; groups: string[] } } })
      .status.userInfo;
    expect(user.username).toBe(
      'system:serviceaccount:widget-operator-system:widget-operator-controller-manager',
    );
    expect(operator.username).toBe(user.username);
    expect(user.groups).toEqual(
      expect.arrayContaining([
        'system:serviceaccounts',
        'system:serviceaccounts:widget-operator-system',
        'system:authenticated',
      ]),
    );
  });

  it('applied the roles and bindings and nothing else', async () => {
    expect(operator.rbac.map((object) => `${object.kind}/${object.metadata?.name}`)).toEqual([
      'ClusterRole/widget-operator-manager-role',
      'ClusterRoleBinding/widget-operator-manager-rolebinding',
      'Role/widget-operator-leader-election-role',
      'RoleBinding/widget-operator-leader-election-rolebinding',
    ]);
    const deployment = await cluster.request(
      'GET',
      '/apis/apps/v1/namespaces/widget-operator-system/deployments/widget-operator-controller-manager',
    );
    expect(deployment.status).toBe(404);
  });

  it('is allowed what its ClusterRole grants, in every namespace', async () => {
    const created = await asOperator('POST', '/api/v1/namespaces/default/configmaps', {
      metadata: { name: 'by-operator' },
    });
    expect(created.status).toBe(201);
    expect((await asOperator('GET', '/api/v1/configmaps')).status).toBe(200);
  });

  it('is denied what no rule grants, by the authorizer, naming the ServiceAccount', async () => {
    const denied = await asOperator('GET', '/api/v1/namespaces/default/configmaps/by-operator');
    expect(denied.status).toBe(403);
    expect((denied.body as { message: string }).message).toBe(
      'configmaps "by-operator" is forbidden: User "system:serviceaccount:widget-operator-system:widget-operator-controller-manager" cannot get resource "configmaps" in API group "" in the namespace "default"',
    );
    const secrets = await asOperator('GET', '/api/v1/namespaces/default/secrets');
    expect(secrets.status).toBe(403);
  });

  it('has its Role in its own namespace only', async () => {
    const lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'widget-operator' },
      spec: {},
    };
    const own = await asOperator(
      'POST',
      '/apis/coordination.k8s.io/v1/namespaces/widget-operator-system/leases',
      lease,
    );
    expect(own.status).toBe(201);
    const other = await asOperator(
      'POST',
      '/apis/coordination.k8s.io/v1/namespaces/default/leases',
      lease,
    );
    expect(other.status).toBe(403);
  });

  it('refuses RBAC that binds another ServiceAccount, naming whom it binds', async () => {
    await expect(
      cluster.env.serviceAccount({
        namespace: 'system',
        name: 'controller-manager-typo',
        rbac: rendered,
      }),
    ).rejects.toThrow(
      'no binding among the RBAC objects names ServiceAccount system/controller-manager-typo (they name: ServiceAccount widget-operator-system/widget-operator-controller-manager, ServiceAccount widget-operator-system/widget-operator-controller-manager)',
    );
  });
});
