import { superuserGroup } from './authenticated-user.js';
import { aggregateMessage } from './go-format.js';
import type { RbacPolicy } from './rbac-policy.js';
import type { RequestAttributes } from './request-attributes.js';
import { ruleAllows } from './rule-allows.js';
import { PolicyIndex, resolveRules } from './rule-resolver.js';

/** An authorization decision, as kube-apiserver's authorizer chain reaches it. */
export interface AuthorizationDecision {
  allowed: boolean;
  /**
   * Why, in kube-apiserver's words: `RBAC: allowed by ClusterRoleBinding "x" of ClusterRole
   * "y" to User "z"` when a binding allows; `''` for members of `system:masters` and for
   * denials where every binding resolved; `RBAC: <errors>` for denials where some binding
   * that applies to the user names a missing role or an unsupported kind, e.g.
   * `RBAC: clusterrole.rbac.authorization.k8s.io "view" not found`.
   */
  reason: string;
}

/**
 * Decides a request as kube-apiserver does with `--authorization-mode=RBAC`:
 *
 * - a member of `system:masters` is allowed everything (reason `''`);
 * - otherwise the request is allowed when one rule granted to the user allows it (see
 *   `ruleAllows`): ClusterRoleBindings grant everywhere, RoleBindings only for requests in
 *   their own namespace (and may grant a ClusterRole's rules there);
 * - otherwise it is denied; RBAC never denies explicitly, it only has no opinion.
 *
 * Pure; never throws, whatever the policy holds.
 */
export function authorize(
  attributes: RequestAttributes,
  policy: RbacPolicy,
): AuthorizationDecision {
  if (attributes.user.groups.includes(superuserGroup)) return { allowed: true, reason: '' };
  const errors: string[] = [];
  for (const resolved of resolveRules(
    attributes.user,
    attributes.namespace,
    new PolicyIndex(policy),
  )) {
    if ('error' in resolved) {
      errors.push(resolved.error);
    } else if (ruleAllows(attributes, resolved.rule)) {
      return { allowed: true, reason: `RBAC: allowed by ${resolved.source}` };
    }
  }
  return { allowed: false, reason: errors.length > 0 ? `RBAC: ${aggregateMessage(errors)}` : '' };
}
