import type { KubernetesObject } from '@ops/api';
import { isJsonObject, jsonEqual } from '@ops/api';
import { StatusError } from '../../api/status-error.js';
import {
  type AuthenticatedUser,
  type AuthorizationDecision,
  escalationMessage,
  PolicyIndex,
  type PolicyRule,
  type RbacPolicy,
  type RequestAttributes,
  superuserGroup,
} from '../../auth/index.js';
import type { Json } from '../../json/json.js';
import type { ResourceType } from '../../registry/resource-type.js';

const rbacGroup = 'rbac.authorization.k8s.io';
const roleResources = new Set(['roles', 'clusterroles']);
const bindingResources = new Set(['rolebindings', 'clusterrolebindings']);

/** Everything: what a ClusterRole with an aggregationRule needs its author to hold. */
const fullAuthority: PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

/** One create or update of an RBAC object, as {@link checkRbacEscalation} is told of it. */
export interface RbacWrite {
  type: ResourceType;
  /** The object about to be stored. */
  object: KubernetesObject;
  /** The stored object an update replaces; undefined on create. */
  old: KubernetesObject | undefined;
  user: AuthenticatedUser;
}

/** What {@link checkRbacEscalation} decides with. */
export interface RbacEscalationDeps {
  /** The server's authorizer (RBAC, or everything for authenticated users when RBAC is off). */
  authorize(attributes: RequestAttributes): AuthorizationDecision;
  /** The policy the user's own rules are resolved from, the same the authorizer uses. */
  policy(): RbacPolicy;
}

/**
 * Whether an update changes only what the garbage collector writes (owner references,
 * finalizers, the deletion fields), as kube's `IsOnlyMutatingGCFields`: such an update needs
 * no escalation check.
 */
function onlyGcFields(object: KubernetesObject, old: KubernetesObject | undefined): boolean {
  if (old === undefined) return false;
  const strip = (o: KubernetesObject): Json => {
    const {
      ownerReferences,
      finalizers,
      deletionTimestamp,
      deletionGracePeriodSeconds,
      resourceVersion,
      ...meta
    } = (o.metadata ?? {}) as Json;
    return { ...(o as Json), metadata: meta };
  };
  return jsonEqual(strip(object), strip(old));
}

function forbidden(type: ResourceType, name: string, message: string): StatusError {
  return StatusError.forbidden(
    { group: type.group, resource: type.plural, kind: type.kind },
    name,
    message,
  );
}

/**
 * Refuses a Role, ClusterRole, RoleBinding or ClusterRoleBinding write that would give its
 * author permissions they do not hold, as kube-apiserver's RBAC storage does
 * (pkg/registry/rbac/{role,clusterrole,rolebinding,clusterrolebinding}/policybased/storage.go
 * with pkg/registry/rbac/escalation_check.go and pkg/registry/rbac/validation/rule.go). Other
 * writes, writes by `system:masters` and updates that only change garbage-collection fields
 * pass.
 *
 * - A Role or ClusterRole passes when the author may `escalate` it (that verb on
 *   `roles`/`clusterroles`, named as the request URL names it: `''` on create), or holds every
 *   rule it grants (in its namespace for a Role); an `aggregationRule` (on either side of an
 *   update) needs every permission (`*` on `*`), else `must have cluster-admin privileges to
 *   use the aggregationRule`.
 * - A RoleBinding or ClusterRoleBinding passes when the author may `bind` the role its
 *   `roleRef` names (that verb on `roles`/`clusterroles` named by the role, in the binding's
 *   namespace or cluster-wide), or holds every rule of that role; a role that does not exist
 *   is refused with its `not found` message.
 *
 * @throws {StatusError} 403 `<resource> "<name>" is forbidden: user "bob" (groups=[...]) is
 *   attempting to grant RBAC permissions not currently held:\n{APIGroups:[...], ...}`, with
 *   kube-apiserver's wording.
 */
export function checkRbacEscalation(write: RbacWrite, deps: RbacEscalationDeps): void {
  const { type, object, old, user } = write;
  if (type.group !== rbacGroup) return;
  const isRole = roleResources.has(type.plural);
  if (!isRole && !bindingResources.has(type.plural)) return;
  if (user.groups.includes(superuserGroup)) return;
  if (onlyGcFields(object, old)) return;
  const name = object.metadata?.name ?? '';
  const namespace = type.namespaced ? (object.metadata?.namespace ?? '') : '';
  const body = object as Json;
  const attributes = (verb: string, resource: string, named: string): RequestAttributes => ({
    user,
    verb,
    isResourceRequest: true,
    apiGroup: rbacGroup,
    apiVersion: '*',
    resource,
    subresource: '',
    namespace,
    name: named,
    path: '',
  });
  const policy = deps.policy();
  if (isRole) {
    const requestName = old === undefined ? '' : name;
    if (deps.authorize(attributes('escalate', type.plural, requestName)).allowed) return;
    const rules = Array.isArray(body.rules)
      ? (body.rules.filter(isJsonObject) as PolicyRule[])
      : [];
    const message = escalationMessage(user, namespace, rules, policy);
    if (message !== undefined) throw forbidden(type, name, message);
    const aggregates = (o: KubernetesObject | undefined): boolean => {
      const rule = (o as Json | undefined)?.aggregationRule;
      return (
        isJsonObject(rule) &&
        Array.isArray(rule.clusterRoleSelectors) &&
        rule.clusterRoleSelectors.length > 0
      );
    };
    if (
      (aggregates(object) || aggregates(old)) &&
      escalationMessage(user, namespace, fullAuthority, policy) !== undefined
    )
      throw forbidden(type, name, 'must have cluster-admin privileges to use the aggregationRule');
    return;
  }
  const roleRef = isJsonObject(body.roleRef) ? body.roleRef : {};
  const refKind = typeof roleRef.kind === 'string' ? roleRef.kind : '';
  const refName = typeof roleRef.name === 'string' ? roleRef.name : '';
  const refResource =
    refKind === 'ClusterRole' ? 'clusterroles' : refKind === 'Role' ? 'roles' : '';
  if (refResource !== '') {
    const bind = { ...attributes('bind', refResource, refName), apiVersion: '' };
    bind.apiGroup = typeof roleRef.apiGroup === 'string' ? roleRef.apiGroup : '';
    if (deps.authorize(bind).allowed) return;
  }
  const rules = new PolicyIndex(policy).roleRefRules(roleRef, namespace);
  if (!Array.isArray(rules)) throw forbidden(type, name, rules.error);
  const message = escalationMessage(user, namespace, rules, policy);
  if (message !== undefined) throw forbidden(type, name, message);
}
