import type { PolicyRule } from '@ops/core';
import { selfManagedCertificateRbac as certificateRbacOf } from '@ops/core/operator';
import { applicationResource } from './api/v1/application.js';
import { applicationRbac } from './controller/application.js';
import { applicationOperator, applicationWebhooks } from './operator.js';

/**
 * What `pnpm manifests` (tools/manifests) generates config/crd, config/rbac, config/webhook
 * and config/self-managed-certs from: the operator's custom resources, every permission its
 * controllers declare, its webhooks and the RBAC of its self-managed certificate mode.
 */
export const customResources = [applicationResource];

/**
 * The ClusterRole `manager-role` (config/rbac/role.yaml): the controller's rules, cluster-wide
 * because Applications live in every namespace.
 */
export const rbac = { roleName: 'manager-role', rules: [...applicationRbac] };

/**
 * What `--leader-elect` needs besides the controllers' own rules. They are granted by the
 * namespaced Role in config/rbac/leader_election_role.yaml, in the operator's own namespace
 * only: a cluster-wide right to update Leases would let the operator take over any other
 * component's leader election (kube-system's included). test/config.test.ts checks that
 * Role against this list.
 */
export const leaderElectionRules: PolicyRule[] = [
  { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'create', 'update'] },
  { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
];

/** The webhooks of config/webhook/manifests.yaml: the ones main.ts serves. */
export const webhooks = applicationWebhooks;

/**
 * The Role and ClusterRole of `--webhook-cert-mode=self-managed`
 * (config/self-managed-certs/role.yaml, used by config/default-no-certmanager): its Secret
 * in application-operator-system, its two webhook configurations, by their final names.
 */
export const selfManagedCertificateRbac = certificateRbacOf(
  applicationOperator,
  'application-operator-system',
);

/**
 * The operator main.ts runs: ops-manifests reads its controllers' for() and owns() and adds
 * the rule their controller owner references need (update on <plural>/finalizers) to
 * config/rbac/role.yaml.
 */
export const operator = applicationOperator;
