import type { PolicyRule } from '@ops/core';
import { applicationResource } from './api/v1/application.js';
import { applicationRbac } from './controller/application.js';

/**
 * What `pnpm manifests` (tools/manifests) generates config/crd and config/rbac from: the
 * operator's custom resources and every permission its controllers declare.
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
