import { sidecarSetResource } from './api/v1alpha1/sidecar-set.js';
import { sidecarSetRbac } from './controller/sidecar-set.js';

/**
 * What `pnpm run manifests` (ops-manifests) generates config/crd/bases and
 * config/rbac/role.yaml from: the operator's custom resources and every permission its
 * controllers declare. Never edit those files by hand.
 */
export const customResources = [sidecarSetResource];

/** The ClusterRole `manager-role` (config/rbac/role.yaml): the controllers' rules. */
export const rbac = { roleName: 'manager-role', rules: [...sidecarSetRbac] };
