import { balancerResource } from './api/v1alpha1/balancer.js';
import { balancerRbac } from './controller/balancer.js';
import { balancerOperator } from './operator.js';

/**
 * What `pnpm run manifests` (ops-manifests) generates config/crd/bases and
 * config/rbac/role.yaml from: the operator's custom resources and every permission its
 * controllers declare. Never edit those files by hand.
 */
export const customResources = [balancerResource];

/** The ClusterRole `manager-role` (config/rbac/role.yaml): the controllers' rules. */
export const rbac = { roleName: 'manager-role', rules: [...balancerRbac] };

/**
 * The operator main.ts runs: ops-manifests reads its controllers' for() and owns() and adds
 * the rule their controller owner references need (update on <plural>/finalizers) to
 * config/rbac/role.yaml.
 */
export const operator = balancerOperator;
