/**
 * The RBAC objects of `rbac.authorization.k8s.io/v1` that more than one package reads or
 * writes, as plain JSON: what `@ops/core` renders from an operator's declared permissions and
 * what the local API server's authorizer evaluates. A reader of untrusted objects takes
 * `Partial<...>` of these and treats a missing field as absent.
 */
import type { LabelSelector, ObjectMeta } from './kubernetes-object.js';

/**
 * One rule of a Role or ClusterRole (`PolicyRule`). A resource rule has `apiGroups` (`""` is
 * the core group, `*` every group) and `resources` (`pods`, `deployments/status`, `*`,
 * `*\/scale`), optionally narrowed to `resourceNames`; a non-resource rule (only in
 * ClusterRoles) has `nonResourceURLs` (`/metrics`, a prefix ending in `*`, or `*`) and no
 * groups or resources. `*` in `verbs` allows every verb.
 */
export interface PolicyRule {
  apiGroups?: string[];
  resources?: string[];
  verbs: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

/** How an aggregated ClusterRole chooses the ClusterRoles whose rules it gathers. */
export interface AggregationRule {
  clusterRoleSelectors?: LabelSelector[];
}

/**
 * A cluster-wide set of rules (`ClusterRole`). With an `aggregationRule`, its rules are those
 * of the ClusterRoles its selectors match (the aggregation controller writes them).
 */
export interface ClusterRole {
  apiVersion: 'rbac.authorization.k8s.io/v1';
  kind: 'ClusterRole';
  metadata: ObjectMeta & { name: string };
  rules: PolicyRule[];
  aggregationRule?: AggregationRule;
}
