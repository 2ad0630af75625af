/**
 * RBAC permissions declared next to the controller that needs them, as kubebuilder's
 * `// +kubebuilder:rbac:groups=...,resources=...,verbs=...` markers do in Go. Collect them
 * with {@link rbacRules} and turn them into the manager's ClusterRole with
 * {@link clusterRoleFromRules}.
 */

import type { PolicyRule } from '@ops/api';
import { PolicyRuleError } from '../errors/policy-rule-error.js';

export type { PolicyRule };

/** An RBAC verb. The usual ones are listed; custom verbs (`use`, `bind`, ...) are allowed. */
export type Verb =
  | 'get'
  | 'list'
  | 'watch'
  | 'create'
  | 'update'
  | 'patch'
  | 'delete'
  | 'deletecollection'
  | '*'
  | (string & {});

/** A permission on resources of one or more API groups, for {@link permission}. */
export interface ResourcePermission {
  /** The API group(s): `apps`; `''` (or `'core'`) for the core group. */
  group: string | readonly string[];
  /** Resource names, with subresources as `deployments/status`. */
  resources: string | readonly string[];
  verbs: readonly Verb[];
  /** Restricts the rule to objects of these names (never works for `create`). */
  resourceNames?: readonly string[];
}

/** A permission on non-resource URLs (`/metrics`, `/healthz`), for {@link permission}. */
export interface NonResourcePermission {
  nonResourceURLs: readonly string[];
  verbs: readonly Verb[];
}

/**
 * One RBAC rule, the TypeScript form of a `+kubebuilder:rbac` marker:
 * `permission({ group: 'apps', resources: 'deployments', verbs: ['get', 'list', 'watch'] })`.
 * The group `'core'` is written as `''`, as controller-gen does. Returns a new rule.
 *
 * @throws {PolicyRuleError} for a rule without verbs, groups or resources, or with a
 * non-resource URL that does not start with `/`.
 */
export function permission(input: ResourcePermission | NonResourcePermission): PolicyRule {
  let rule: PolicyRule;
  if ('nonResourceURLs' in input) {
    rule = { nonResourceURLs: [...input.nonResourceURLs], verbs: [...input.verbs] };
  } else {
    const groups = typeof input.group === 'string' ? [input.group] : [...input.group];
    rule = {
      apiGroups: groups.map((group) => (group === 'core' ? '' : group)),
      resources: typeof input.resources === 'string' ? [input.resources] : [...input.resources],
      verbs: [...input.verbs],
    };
    if (input.resourceNames !== undefined && input.resourceNames.length > 0) {
      rule.resourceNames = [...input.resourceNames];
    }
  }
  validatePolicyRule(rule);
  return rule;
}

/**
 * Collects rules (single rules or lists of them, e.g. each controller's exported
 * permissions) into one flat list of copies, in order, after checking each. Merging and
 * sorting are left to {@link mergePolicyRules}.
 *
 * @throws {PolicyRuleError} for the first rule Kubernetes would reject, see
 * {@link validatePolicyRule}.
 */
export function rbacRules(...rules: (PolicyRule | readonly PolicyRule[])[]): PolicyRule[] {
  const flat: PolicyRule[] = [];
  for (const entry of rules) {
    for (const rule of isRuleList(entry) ? entry : [entry]) {
      validatePolicyRule(rule);
      flat.push(copyRule(rule));
    }
  }
  return flat;
}

/**
 * The permissions a controller of a custom resource needs, as kubebuilder scaffolds them:
 * all verbs but `deletecollection` on the resource, `get`, `update` and `patch` on its
 * `/status`, and `update` on its `/finalizers` (needed to set owner references with
 * `blockOwnerDeletion`).
 */
export function customResourcePermissions(definition: {
  readonly group: string;
  readonly plural: string;
}): PolicyRule[] {
  const group = definition.group;
  return [
    permission({
      group,
      resources: definition.plural,
      verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
    }),
    permission({
      group,
      resources: `${definition.plural}/status`,
      verbs: ['get', 'update', 'patch'],
    }),
    permission({ group, resources: `${definition.plural}/finalizers`, verbs: ['update'] }),
  ];
}

/**
 * Checks one rule the way the API server does for a ClusterRole: at least one non-empty
 * verb; either `nonResourceURLs` (each starting with `/`, and then no `apiGroups`,
 * `resources` or `resourceNames`) or at least one API group and one non-empty resource.
 *
 * @throws {PolicyRuleError} showing the rule and what is missing.
 */
export function validatePolicyRule(rule: PolicyRule): void {
  function fail(problem: string): never {
    throw new PolicyRuleError(`invalid RBAC rule ${JSON.stringify(rule)}: ${problem}`);
  }
  if (!Array.isArray(rule.verbs) || rule.verbs.length === 0) {
    fail('verbs must list at least one verb, e.g. ["get", "list", "watch"]');
  }
  if (rule.verbs.some((verb) => typeof verb !== 'string' || verb === '')) {
    fail('verbs must be non-empty strings');
  }
  const urls = rule.nonResourceURLs ?? [];
  if (urls.length > 0) {
    if ((rule.apiGroups?.length ?? 0) > 0 || (rule.resources?.length ?? 0) > 0) {
      fail('a rule has either nonResourceURLs or apiGroups and resources, not both');
    }
    if ((rule.resourceNames?.length ?? 0) > 0) {
      fail('resourceNames cannot narrow nonResourceURLs');
    }
    for (const url of urls) {
      if (typeof url !== 'string' || !url.startsWith('/')) {
        fail(`non-resource URL ${JSON.stringify(url)} must start with /`);
      }
    }
    return;
  }
  if (!Array.isArray(rule.apiGroups) || rule.apiGroups.length === 0) {
    fail('apiGroups must list at least one group ("" is the core group)');
  }
  if (rule.apiGroups.some((group) => typeof group !== 'string')) fail('apiGroups must be strings');
  if (!Array.isArray(rule.resources) || rule.resources.length === 0) {
    fail('resources must list at least one resource, e.g. ["pods"]');
  }
  if (rule.resources.some((resource) => typeof resource !== 'string' || resource === '')) {
    fail('resources must be non-empty strings');
  }
}

function isRuleList(entry: PolicyRule | readonly PolicyRule[]): entry is readonly PolicyRule[] {
  return Array.isArray(entry);
}

function copyRule(rule: PolicyRule): PolicyRule {
  const copy: PolicyRule = { verbs: [...rule.verbs] };
  if (rule.apiGroups !== undefined) copy.apiGroups = [...rule.apiGroups];
  if (rule.resources !== undefined) copy.resources = [...rule.resources];
  if (rule.resourceNames !== undefined) copy.resourceNames = [...rule.resourceNames];
  if (rule.nonResourceURLs !== undefined) copy.nonResourceURLs = [...rule.nonResourceURLs];
  return copy;
}
