import { myJobResource } from './api/v1beta1/my-job.js';
import { myJobRbac } from './controller/my-job.js';
import { myjobOperator } from './operator.js';

/**
 * What `pnpm run manifests` (ops-manifests) generates config/crd/bases and
 * config/rbac/role.yaml from: the operator's custom resources and every permission its
 * controllers declare. Never edit those files by hand.
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
