import { isJsonObject, matchesLabelSelector } from '@ops/api';
import { type AuthenticatedUser, isServiceAccountUsername } from './authenticated-user.js';
import { goQuote } from './go-format.js';
import {
  objectLabels,
  objectName,
  objectNamespace,
  recordList,
  stringField,
} from './json-fields.js';
import type { ClusterRole, PolicyRule, RbacPolicy, RbacRole } from './rbac-policy.js';

/** A rule that applies to a user, with the binding that grants it described as RBAC does. */
export interface GrantedRule {
  /** E.g. `ClusterRoleBinding "admins" of ClusterRole "admin" to Group "ops"`. */
  source: string;
  rule: PolicyRule;
}

/** What resolving a user's rules meets: a granted rule, or an error resolving a binding. */
export type ResolvedRule = GrantedRule | { error: string };

const rulesOf = (role: unknown): PolicyRule[] =>
  isJsonObject(role) ? (recordList(role.rules) as PolicyRule[]) : [];

const ruleKey = (rule: PolicyRule): string =>
  JSON.stringify(
    (['verbs', 'apiGroups', 'resources', 'resourceNames', 'nonResourceURLs'] as const).map(
      (field) => (Array.isArray(rule[field]) ? rule[field] : []),
    ),
  );

function selects(selector: unknown, labels: Record<string, string> | undefined): boolean {
  if (!isJsonObject(selector)) return false;
  try {
    return matchesLabelSelector(selector, labels);
  } catch {
    // An invalid selector could not have been stored; here it selects nothing.
    return false;
  }
}

/**
 * Lookups over one {@link RbacPolicy}, valid while the policy is not changed. Objects that are
 * not objects, or have no name, are ignored; when names repeat, the first object wins.
 */
export class PolicyIndex {
  private readonly roles = new Map<string, RbacRole>();
  private readonly clusterRoles = new Map<string, ClusterRole>();
  private readonly aggregated = new Map<string, PolicyRule[]>();

  constructor(readonly policy: RbacPolicy) {
    for (const role of recordList(policy.roles)) {
      const key = `${objectNamespace(role)}/${objectName(role)}`;
      if (objectName(role) !== '' && !this.roles.has(key)) this.roles.set(key, role);
    }
    for (const role of recordList(policy.clusterRoles)) {
      const name = objectName(role);
      if (name !== '' && !this.clusterRoles.has(name)) this.clusterRoles.set(name, role);
    }
  }

  /** The rules of the Role `name` in `namespace`, or undefined when there is none. */
  roleRules(namespace: string, name: string): PolicyRule[] | undefined {
    const role = this.roles.get(`${namespace}/${name}`);
    return role === undefined ? undefined : rulesOf(role);
  }

  /**
   * The effective rules of the ClusterRole `name`, or undefined when there is none. For an
   * aggregated ClusterRole these are the rules of every other ClusterRole one of its selectors
   * matches, selector by selector and by name within a selector, duplicates dropped, each
   * matched role contributing its own effective rules (so aggregation chains resolve as the
   * aggregation controller settles them; a role already being resolved contributes nothing).
   */
  clusterRoleRules(name: string): PolicyRule[] | undefined {
    return this.effectiveClusterRoleRules(name, new Set());
  }

  private effectiveClusterRoleRules(
    name: string,
    resolving: Set<string>,
  ): PolicyRule[] | undefined {
    const role = this.clusterRoles.get(name);
    if (role === undefined) return undefined;
    if (!isJsonObject(role.aggregationRule)) return rulesOf(role);
    const cached = this.aggregated.get(name);
    if (cached !== undefined) return cached;
    resolving.add(name);
    const rules: PolicyRule[] = [];
    const seen = new Set<string>();
    const sortedNames = [...this.clusterRoles.keys()].sort();
    for (const selector of recordList(role.aggregationRule.clusterRoleSelectors)) {
      for (const candidate of sortedNames) {
        if (candidate === name || resolving.has(candidate)) continue;
        if (!selects(selector, objectLabels(this.clusterRoles.get(candidate)))) continue;
        for (const rule of this.effectiveClusterRoleRules(candidate, resolving) ?? []) {
          const key = ruleKey(rule);
          if (seen.has(key)) continue;
          seen.add(key);
          rules.push(rule);
        }
      }
    }
    resolving.delete(name);
    if (resolving.size === 0) this.aggregated.set(name, rules);
    return rules;
  }

  /**
   * The rules a binding's `roleRef` names, or the error kube-apiserver reports for it: the
   * role not found, or a kind other than `Role` and `ClusterRole`. A `Role` is looked up in
   * `namespace` (`''` for ClusterRoleBindings, where none can be found).
   */
  roleRefRules(roleRef: unknown, namespace: string): PolicyRule[] | { error: string } {
    const ref = isJsonObject(roleRef) ? roleRef : {};
    const kind = stringField(ref.kind);
    const name = stringField(ref.name);
    if (kind === 'Role') {
      return (
        this.roleRules(namespace, name) ?? {
          error: `role.rbac.authorization.k8s.io ${goQuote(name)} not found`,
        }
      );
    }
    if (kind === 'ClusterRole') {
      return (
        this.clusterRoleRules(name) ?? {
          error: `clusterrole.rbac.authorization.k8s.io ${goQuote(name)} not found`,
        }
      );
    }
    return { error: `unsupported role reference kind: ${goQuote(kind)}` };
  }
}

/**
 * Whether a binding subject is `user`: a User by name, a Group by membership, a
 * ServiceAccount by its user name, its namespace defaulting to `namespace` (the RoleBinding's;
 * `''` for ClusterRoleBindings, where a ServiceAccount subject without one matches no one).
 */
export function subjectMatches(
  subject: unknown,
  user: AuthenticatedUser,
  namespace: string,
): boolean {
  if (!isJsonObject(subject)) return false;
  const name = stringField(subject.name);
  switch (subject.kind) {
    case 'User':
      return user.name === name;
    case 'Group':
      return user.groups.includes(name);
    case 'ServiceAccount': {
      const saNamespace = stringField(subject.namespace) || namespace;
      return saNamespace !== '' && isServiceAccountUsername(user.name, saNamespace, name);
    }
    default:
      return false;
  }
}

function describeSubject(subject: Record<string, unknown>, bindingNamespace: string): string {
  const kind = stringField(subject.kind);
  const name = stringField(subject.name);
  if (kind === 'ServiceAccount') {
    const namespace = stringField(subject.namespace) || bindingNamespace;
    return `${kind} ${goQuote(`${name}/${namespace}`)}`;
  }
  return `${kind} ${goQuote(name)}`;
}

function describeRoleRef(roleRef: unknown): string {
  const ref = isJsonObject(roleRef) ? roleRef : {};
  return `${stringField(ref.kind)} ${goQuote(stringField(ref.name))}`;
}

/**
 * Every rule that applies to `user` in `namespace`, in the order RBAC visits them: first the
 * ClusterRoleBindings, then (when `namespace` is not `''`) the RoleBindings in `namespace`;
 * within a binding, the rules of its role in order. A binding applies when one of its subjects
 * is the user; an applying binding whose role cannot be resolved yields an error instead.
 * Malformed objects yield nothing and never throw.
 */
export function* resolveRules(
  user: AuthenticatedUser,
  namespace: string,
  index: PolicyIndex,
): Generator<ResolvedRule> {
  for (const binding of recordList(index.policy.clusterRoleBindings)) {
    const subject = recordList(binding.subjects).find((s) => subjectMatches(s, user, ''));
    if (subject === undefined) continue;
    const rules = index.roleRefRules(binding.roleRef, '');
    if (!Array.isArray(rules)) {
      yield rules;
      continue;
    }
    const source = `ClusterRoleBinding ${goQuote(objectName(binding))} of ${describeRoleRef(binding.roleRef)} to ${describeSubject(subject, '')}`;
    for (const rule of rules) yield { source, rule };
  }
  if (namespace === '') return;
  for (const binding of recordList(index.policy.roleBindings)) {
    if (objectNamespace(binding) !== namespace) continue;
    const subject = recordList(binding.subjects).find((s) => subjectMatches(s, user, namespace));
    if (subject === undefined) continue;
    const rules = index.roleRefRules(binding.roleRef, namespace);
    if (!Array.isArray(rules)) {
      yield rules;
      continue;
    }
    const source = `RoleBinding ${goQuote(`${objectName(binding)}/${namespace}`)} of ${describeRoleRef(binding.roleRef)} to ${describeSubject(subject, namespace)}`;
    for (const rule of rules) yield { source, rule };
  }
}
