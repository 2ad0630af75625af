import type { AuthenticatedUser } from './authenticated-user.js';
import { aggregateMessage, goQuote } from './go-format.js';
import type { PolicyRule, RbacPolicy } from './rbac-policy.js';
import { PolicyIndex, resolveRules } from './rule-resolver.js';
import { type AtomicRule, uncoveredRules } from './rules-cover.js';

/** Go's `%q` of a `[]string`: `["a" "b"]`. */
const quoteList = (values: readonly string[]): string => `[${values.map(goQuote).join(' ')}]`;

/**
 * A rule as kube's `CompactString` prints it in escalation errors:
 * `{APIGroups:[""], Resources:["secrets"], ResourceNames:["x"], Verbs:["get" "list"]}`, each
 * field only when not empty.
 */
export function compactString(rule: AtomicRule): string {
  const parts: string[] = [];
  if ((rule.apiGroups ?? []).length > 0) parts.push(`APIGroups:${quoteList(rule.apiGroups ?? [])}`);
  if ((rule.resources ?? []).length > 0) parts.push(`Resources:${quoteList(rule.resources ?? [])}`);
  if ((rule.nonResourceURLs ?? []).length > 0)
    parts.push(`NonResourceURLs:${quoteList(rule.nonResourceURLs ?? [])}`);
  if ((rule.resourceNames ?? []).length > 0)
    parts.push(`ResourceNames:${quoteList(rule.resourceNames ?? [])}`);
  if (rule.verbs.length > 0) parts.push(`Verbs:${quoteList(rule.verbs)}`);
  return `{${parts.join(', ')}}`;
}

/**
 * Merges rules of one API group and one resource (and at most one resource name) that differ
 * only in their verbs, as kube's `CompactRules` (pkg/registry/rbac/validation/policy_compact.go)
 * does with the pieces a coverage check leaves over; other rules are kept as they are.
 */
export function compactRules(rules: readonly AtomicRule[]): AtomicRule[] {
  const compacted: AtomicRule[] = [];
  const simple = new Map<string, AtomicRule>();
  for (const rule of rules) {
    const groups = rule.apiGroups ?? [];
    const resources = rule.resources ?? [];
    const names = rule.resourceNames ?? [];
    const isSimple =
      names.length <= 1 &&
      (rule.nonResourceURLs ?? []).length === 0 &&
      groups.length === 1 &&
      resources.length === 1;
    if (!isSimple) {
      compacted.push(rule);
      continue;
    }
    const key = JSON.stringify([groups[0], resources[0], names.length > 0, names[0] ?? '']);
    const existing = simple.get(key);
    if (existing === undefined) {
      simple.set(key, { ...rule, verbs: [...rule.verbs] });
      continue;
    }
    for (const verb of rule.verbs) if (!existing.verbs.includes(verb)) existing.verbs.push(verb);
  }
  return [...compacted, ...simple.values()];
}

/**
 * Why granting `rules` would be an escalation for `user` acting in `namespace` (`''` for
 * cluster-scoped objects), or undefined when it is not: kube's `ConfirmNoEscalation`
 * (pkg/registry/rbac/validation/rule.go). The user's own rules there are those of every
 * ClusterRoleBinding and (in a namespace) RoleBinding naming them in `policy`; when they do
 * not cover `rules` ({@link uncoveredRules}), the message is kube-apiserver's:
 *
 * `user "bob" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not
 * currently held:` followed by one line per missing permission, compacted and sorted
 * (`{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}`), and
 * `; resolution errors: [...]` when some binding of the user names a role that does not exist.
 * Pure; never throws.
 */
export function escalationMessage(
  user: AuthenticatedUser,
  namespace: string,
  rules: readonly PolicyRule[],
  policy: RbacPolicy,
): string | undefined {
  const owned: PolicyRule[] = [];
  const errors: string[] = [];
  for (const resolved of resolveRules(user, namespace, new PolicyIndex(policy))) {
    if ('error' in resolved) errors.push(resolved.error);
    else owned.push(resolved.rule);
  }
  const missing = uncoveredRules(owned, rules);
  if (missing.length === 0) return undefined;
  const lines = [...new Set(compactRules(missing).map(compactString))].sort();
  let message = `user ${goQuote(user.name)} (groups=${quoteList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`;
  if (errors.length > 0) message += `; resolution errors: [${aggregateMessage(errors)}]`;
  return message;
}
