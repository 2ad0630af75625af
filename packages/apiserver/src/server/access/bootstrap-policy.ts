import type { KubernetesObject } from '@ops/api';
import type { ResourceType } from '../../registry/resource-type.js';
import type { ResourceService } from '../handlers/resource-service.js';

const rbac = 'rbac.authorization.k8s.io';
const bootstrapLabels = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };

function clusterRole(name: string, rules: object[]): KubernetesObject {
  return {
    apiVersion: `${rbac}/v1`,
    kind: 'ClusterRole',
    metadata: {
      name,
      labels: bootstrapLabels,
      annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' },
    },
    rules,
  };
}

function binding(name: string, role: string, groups: string[]): KubernetesObject {
  return {
    apiVersion: `${rbac}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: {
      name,
      labels: bootstrapLabels,
      annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' },
    },
    roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: role },
    subjects: groups.map((group) => ({ apiGroup: rbac, kind: 'Group', name: group })),
  };
}

/**
 * The default RBAC policy kube-apiserver bootstraps, as far as clients depend on it: every
 * user may read health and version endpoints; authenticated users may use discovery and
 * OpenAPI and ask what they may do (SelfSubjectAccessReview, SelfSubjectRulesReview);
 * `cluster-admin` may do everything. Without these, an operator running as its own service
 * account could not even discover the API.
 */
export function bootstrapPolicy(): {
  clusterRoles: KubernetesObject[];
  clusterRoleBindings: KubernetesObject[];
} {
  return {
    clusterRoles: [
      clusterRole('cluster-admin', [
        { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
        { nonResourceURLs: ['*'], verbs: ['*'] },
      ]),
      clusterRole('system:discovery', [
        {
          nonResourceURLs: [
            '/api',
            '/api/*',
            '/apis',
            '/apis/*',
            '/healthz',
            '/livez',
            '/openapi',
            '/openapi/*',
            '/readyz',
            '/version',
            '/version/',
          ],
          verbs: ['get'],
        },
      ]),
      clusterRole('system:public-info-viewer', [
        {
          nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'],
          verbs: ['get'],
        },
      ]),
      clusterRole('system:basic-user', [
        {
          apiGroups: ['authorization.k8s.io'],
          resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
          verbs: ['create'],
        },
        {
          apiGroups: ['authentication.k8s.io'],
          resources: ['selfsubjectreviews'],
          verbs: ['create'],
        },
      ]),
    ],
    clusterRoleBindings: [
      binding('cluster-admin', 'cluster-admin', ['system:masters']),
      binding('system:discovery', 'system:discovery', ['system:authenticated']),
      binding('system:public-info-viewer', 'system:public-info-viewer', [
        'system:authenticated',
        'system:unauthenticated',
      ]),
      binding('system:basic-user', 'system:basic-user', ['system:authenticated']),
    ],
  };
}

/**
 * Creates what a fresh kube-apiserver has: the `default`, `kube-system`, `kube-public` and
 * `kube-node-lease` namespaces and the {@link bootstrapPolicy} roles and bindings, as the
 * server itself (`system:apiserver`). `type` finds a built-in resource by group and plural.
 */
export async function createBootstrapObjects(
  resources: ResourceService,
  type: (group: string, plural: string) => ResourceType,
): Promise<void> {
  const system = { user: { name: 'system:apiserver', groups: ['system:masters'] } };
  for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
    await resources.create(type('', 'namespaces'), '', { metadata: { name } }, system);
  }
  const policy = bootstrapPolicy();
  for (const role of policy.clusterRoles) {
    await resources.create(type(rbac, 'clusterroles'), '', role, system);
  }
  for (const binding of policy.clusterRoleBindings) {
    await resources.create(type(rbac, 'clusterrolebindings'), '', binding, system);
  }
}
