import type {
  ClusterRole as ApiClusterRole,
  PolicyRule as ApiPolicyRule,
  ObjectMeta,
} from '@ops/api';

/**
 * The RBAC objects of `rbac.authorization.k8s.io/v1` as plain JSON. The authorizer reads them
 * defensively: a field that is missing or of the wrong type counts as absent, so a malformed
 * object grants nothing and never makes evaluation throw.
 */

/** One rule of a Role or ClusterRole, read defensively (a missing field counts as absent). */
export type PolicyRule = Partial<ApiPolicyRule>;

/** A namespaced set of rules; it grants only through RoleBindings in its namespace. */
export interface RbacRole {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  rules?: PolicyRule[];
}

/**
 * A cluster-wide set of rules, read defensively. With an `aggregationRule`, its rules are those
 * of the ClusterRoles its selectors match (what the aggregation controller would write), and
 * its own `rules` are ignored.
 */
export type ClusterRole = Partial<ApiClusterRole>;

export type { AggregationRule } from '@ops/api';

/** Who a binding grants to. */
export interface Subject {
  /** `User`, `Group` or `ServiceAccount`; any other kind matches no one. */
  kind?: string;
  apiGroup?: string;
  name?: string;
  /**
   * For ServiceAccount subjects: the account's namespace. In a RoleBinding it defaults to the
   * binding's namespace; in a ClusterRoleBinding it is required.
   */
  namespace?: string;
}

/** The role a binding grants. */
export interface RoleRef {
  apiGroup?: string;
  /** `Role` (RoleBindings only, in the binding's namespace) or `ClusterRole`. */
  kind?: string;
  name?: string;
}

/** Grants a Role or ClusterRole to subjects, in the binding's namespace only. */
export interface RbacRoleBinding {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  subjects?: Subject[];
  roleRef?: RoleRef;
}

/** Grants a ClusterRole to subjects in every namespace and at the cluster scope. */
export interface RbacClusterRoleBinding {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  subjects?: Subject[];
  roleRef?: RoleRef;
}

/**
 * Every RBAC object the authorizer consults. Objects are looked up by name (and namespace);
 * when two share a name, the first wins. Bindings are visited in array order, ClusterRole-
 * Bindings before RoleBindings, which only decides which binding an `allowed` reason names.
 */
export interface RbacPolicy {
  roles?: readonly RbacRole[];
  clusterRoles?: readonly ClusterRole[];
  roleBindings?: readonly RbacRoleBinding[];
  clusterRoleBindings?: readonly RbacClusterRoleBinding[];
}
