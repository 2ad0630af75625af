import type { PolicyRule } from '../crd/policy-rule.js';
import { certificateNamesOf } from './operator-definition.js';
import type { SelfManagedCertificateNames } from './self-managed-certificates.js';

/**
 * The RBAC of `--webhook-cert-mode=self-managed`, for `ops-manifests` to render (export it
 * from the manifests module as `selfManagedCertificateRbac`): a Role named `name` in
 * `namespace` with {@link selfManagedCertificateRules}' namespaced rules and a ClusterRole
 * of the same name with the cluster-wide ones. The names are final (RBAC `resourceNames`
 * are not renamed by kustomize), so they include the operator's prefix.
 */
export interface SelfManagedCertificateRbac {
  /** The name of the Role and of the ClusterRole: `<prefix>self-managed-certs-role`. */
  name: string;
  namespace: string;
  namespacedRules: PolicyRule[];
  clusterRules: PolicyRule[];
}

/**
 * The rules `--webhook-cert-mode=self-managed` needs: in the operator's namespace, `get`
 * and `update` of its Secret, and `create` of Secrets (RBAC cannot narrow `create` by
 * name); cluster-wide, `get`, `patch` and `update` of its own webhook configurations and
 * conversion CRDs, by name. Nothing else: no list, no watch, no other object.
 */
export function selfManagedCertificateRules(names: SelfManagedCertificateNames): {
  namespaced: PolicyRule[];
  cluster: PolicyRule[];
} {
  const verbs = ['get', 'patch', 'update'];
  const group = 'admissionregistration.k8s.io';
  const cluster: PolicyRule[] = [];
  if (names.mutatingConfiguration !== undefined) {
    cluster.push({
      apiGroups: [group],
      resources: ['mutatingwebhookconfigurations'],
      resourceNames: [names.mutatingConfiguration],
      verbs,
    });
  }
  if (names.validatingConfiguration !== undefined) {
    cluster.push({
      apiGroups: [group],
      resources: ['validatingwebhookconfigurations'],
      resourceNames: [names.validatingConfiguration],
      verbs,
    });
  }
  if (names.customResourceDefinitions !== undefined && names.customResourceDefinitions.length > 0) {
    cluster.push({
      apiGroups: ['apiextensions.k8s.io'],
      resources: ['customresourcedefinitions'],
      resourceNames: [...names.customResourceDefinitions],
      verbs,
    });
  }
  return {
    namespaced: [
      {
        apiGroups: [''],
        resources: ['secrets'],
        resourceNames: [names.secret],
        verbs: ['get', 'update'],
      },
      { apiGroups: [''], resources: ['secrets'], verbs: ['create'] },
    ],
    cluster,
  };
}

/**
 * The {@link SelfManagedCertificateRbac} of `definition` deployed in `namespace`, with the
 * names the entry point uses ({@link certificateNamesOf}).
 */
export function selfManagedCertificateRbac(
  definition: Parameters<typeof certificateNamesOf>[0],
  namespace: string,
): SelfManagedCertificateRbac {
  const rules = selfManagedCertificateRules(certificateNamesOf(definition));
  const prefix = definition.resourcePrefix ?? `${definition.name}-`;
  return {
    name: `${prefix}self-managed-certs-role`,
    namespace,
    namespacedRules: rules.namespaced,
    clusterRules: rules.cluster,
  };
}
