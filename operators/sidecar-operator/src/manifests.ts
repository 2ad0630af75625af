import type { PolicyRule } from '@ops/core';
import { selfManagedCertificateRbac as certificateRbacOf } from '@ops/core/operator';
import { sidecarSetResource } from './api/v1alpha1/sidecar-set.js';
import { sidecarSetRbac } from './controller/sidecar-set.js';
import { createSidecarOperator } from './operator.js';
import { operatorNamespace } from './webhook/pod-injector.js';

/**
 * The operator main.ts runs: ops-manifests reads its controllers' for() and owns() and adds
 * the rule their controller owner references need (update on <plural>/finalizers) to
 * config/rbac/role.yaml.
 */
export const operator = createSidecarOperator();

/**
 * What `pnpm run manifests` (ops-manifests) generates config/crd/bases, config/rbac/role.yaml,
 * config/webhook/manifests.yaml and config/self-managed-certs from: the operator's custom
 * resources, every permission its controllers declare, its webhooks and the RBAC of its
 * self-managed certificate mode. Never edit those files by hand.
 */
export const customResources = [sidecarSetResource];

/** The ClusterRole `manager-role` (config/rbac/role.yaml): the controller's rules. */
export const rbac = { roleName: 'manager-role', rules: [...sidecarSetRbac] };

/**
 * What `--leader-elect` needs besides the controller's rules, granted by the namespaced Role
 * of config/rbac/leader_election_role.yaml in the operator's own namespace only.
 */
export const leaderElectionRules: PolicyRule[] = [
  { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'create', 'update'] },
  { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
];

/** The webhooks of config/webhook/manifests.yaml: the ones main.ts serves. */
export const webhooks = operator.webhooks;

/**
 * The Role and ClusterRole of `--webhook-cert-mode=self-managed`
 * (config/self-managed-certs/role.yaml, used by config/default-no-certmanager): its Secret
 * in the operator's namespace and its two webhook configurations, by their final names.
 */
export const selfManagedCertificateRbac = certificateRbacOf(operator, operatorNamespace);
