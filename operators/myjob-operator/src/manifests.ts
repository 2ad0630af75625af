import { selfManagedCertificateRbac as certificateRbacOf } from '@ops/core/operator';
import { myJobResource } from './api/v1/my-job.js';
import { myJobRbac } from './controller/my-job.js';
import { myjobOperator } from './operator.js';

/**
 * What `pnpm run manifests` (ops-manifests) generates config/crd/bases, config/rbac/role.yaml,
 * and config/self-managed-certs/role.yaml from: the operator's custom resources, every
 * permission its controllers declare and the RBAC of its self-managed certificate mode (its
 * Secret, and the CRD its conversion webhook's CA is injected into). Never edit those files by hand.
 */
export const customResources = [myJobResource];

/** The ClusterRole `manager-role` (config/rbac/role.yaml): the controllers' rules. */
export const rbac = { roleName: 'manager-role', rules: [...myJobRbac] };

/**
 * The operator main.ts runs: ops-manifests reads its controllers' for() and owns() and adds
 * the rule their controller owner references need (update on <plural>/finalizers) to
 * config/rbac/role.yaml.
 */
export const operator = myjobOperator;

/**
 * The Role and ClusterRole of `--webhook-cert-mode=self-managed`
 * (config/self-managed-certs/role.yaml, used by config/default-no-certmanager): its Secret
 * in the operator's namespace and the CRD of its conversion webhook, by their final names.
 */
export const selfManagedCertificateRbac = certificateRbacOf(myjobOperator, 'myjob-operator-system');
