/**
 * The manager's ClusterRole from the rules its controllers declare, merged and sorted as
 * controller-gen's `rbac` generator does, so that the generated `role.yaml` is stable and
 * reads like a kubebuilder project's.
 */

import type { ClusterRole, PolicyRule } from '@ops/api';
import { PolicyRuleError } from '../errors/policy-rule-error.js';
import { validatePolicyRule } from './policy-rule.js';

/** A rule being merged; every list is de-duplicated and sorted. */
interface WorkingRule {
  groups: string[];
  resources: string[];
  resourceNames: string[];
  urls: string[];
  verbs: string[];
}

/**
 * Merges and sorts rules exactly as controller-gen (`controller-tools` `rbac.NormalizeRules`):
 *
 * 1. the group `core` becomes `""`; each rule is split into one rule per resource;
 * 2. rules of the same groups, resource, resource names and URLs get the union of their verbs;
 * 3. rules of the same groups, resource names, URLs and verbs get the union of their
 *    resources; then those of the same resources, resource names, URLs and verbs the union
 *    of their groups; then those of the same groups, resources, resource names and verbs
 *    the union of their URLs;
 * 4. the rules are sorted by groups, then resources, then resource names, then URLs (each
 *    list sorted and joined, compared by code unit); every list is sorted and free of
 *    duplicates, and a rule whose verbs include `*` has the verbs `["*"]`.
 *
 * Empty lists are left out of the result. The input is not modified.
 *
 * @throws {PolicyRuleError} for a rule Kubernetes would reject ({@link validatePolicyRule}).
 */
export function mergePolicyRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const split: WorkingRule[] = [];
  for (const rule of rules) {
    validatePolicyRule(rule);
    const base = {
      groups: normalize((rule.apiGroups ?? []).map((group) => (group === 'core' ? '' : group))),
      resourceNames: normalize(rule.resourceNames ?? []),
      urls: normalize(rule.nonResourceURLs ?? []),
      verbs: normalize(rule.verbs),
    };
    const resources = rule.resources ?? [];
    if (resources.length === 0) split.push({ ...base, resources: [] });
    for (const resource of resources) split.push({ ...base, resources: [resource] });
  }

  let merged = new Map<string, WorkingRule>();
  for (const rule of split) {
    const key = ruleKey(rule);
    const existing = merged.get(key);
    if (existing === undefined) merged.set(key, { ...rule });
    else existing.verbs = normalize([...existing.verbs, ...rule.verbs]);
  }
  merged = mergeBy(merged, 'resources', (rule) => [
    rule.groups,
    rule.resourceNames,
    rule.urls,
    rule.verbs,
  ]);
  merged = mergeBy(merged, 'groups', (rule) => [
    rule.resources,
    rule.resourceNames,
    rule.urls,
    rule.verbs,
  ]);
  merged = mergeBy(merged, 'urls', (rule) => [
    rule.groups,
    rule.resources,
    rule.resourceNames,
    rule.verbs,
  ]);

  return [...merged.entries()]
    .sort(([a], [b]) => compareStrings(a, b))
    .map(([, rule]) => {
      const verbs = rule.verbs.includes('*') ? ['*'] : rule.verbs;
      const result: PolicyRule = { verbs };
      if (rule.groups.length > 0) result.apiGroups = rule.groups;
      if (rule.resources.length > 0) result.resources = rule.resources;
      if (rule.resourceNames.length > 0) result.resourceNames = rule.resourceNames;
      if (rule.urls.length > 0) result.nonResourceURLs = rule.urls;
      return orderRuleKeys(result);
    });
}

/**
 * The ClusterRole `name` granting `rules`, merged and sorted by {@link mergePolicyRules}.
 * kubebuilder projects name it `manager-role`.
 *
 * @throws {PolicyRuleError} for an empty name or one containing `/` or `%`, or an invalid rule.
 */
export function clusterRoleFromRules(name: string, rules: readonly PolicyRule[]): ClusterRole {
  if (name === '' || name === '.' || name === '..' || /[/%]/.test(name)) {
    throw new PolicyRuleError(
      `invalid ClusterRole name ${JSON.stringify(name)}: must be non-empty, not "." or "..", and contain no "/" or "%", e.g. manager-role`,
    );
  }
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name },
    rules: mergePolicyRules(rules),
  };
}

type ListField = 'groups' | 'resources' | 'urls';

/** Merges the `field` lists of rules that agree on everything `others` returns. */
function mergeBy(
  rules: Map<string, WorkingRule>,
  field: ListField,
  others: (rule: WorkingRule) => string[][],
): Map<string, WorkingRule> {
  const byOthers = new Map<string, WorkingRule>();
  for (const rule of rules.values()) {
    const key = others(rule)
      .map((list) => list.join('&'))
      .join(' + ');
    const existing = byOthers.get(key);
    if (existing === undefined) byOthers.set(key, { ...rule });
    else existing[field] = normalize([...existing[field], ...rule[field]]);
  }
  const result = new Map<string, WorkingRule>();
  for (const rule of byOthers.values()) {
    const key = ruleKey(rule);
    const existing = result.get(key);
    // Distinct verb sets cannot meet here (step 2 gave each resource one verb set); should
    // they, keep every verb rather than drop a permission.
    if (existing === undefined) result.set(key, rule);
    else existing.verbs = normalize([...existing.verbs, ...rule.verbs]);
  }
  return result;
}

/** controller-gen's `ruleKey.String()`: groups, resources, resource names and URLs. */
function ruleKey(rule: WorkingRule): string {
  return [rule.groups, rule.resources, rule.resourceNames, rule.urls]
    .map((list) => list.join('&'))
    .join(' + ');
}

function normalize(values: readonly string[]): string[] {
  return [...new Set(values)].sort(compareStrings);
}

function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

/** The rule with its keys in YAML order: apiGroups, nonResourceURLs, resourceNames, resources, verbs. */
function orderRuleKeys(rule: PolicyRule): PolicyRule {
  const ordered: Partial<PolicyRule> = {};
  if (rule.apiGroups !== undefined) ordered.apiGroups = rule.apiGroups;
  if (rule.nonResourceURLs !== undefined) ordered.nonResourceURLs = rule.nonResourceURLs;
  if (rule.resourceNames !== undefined) ordered.resourceNames = rule.resourceNames;
  if (rule.resources !== undefined) ordered.resources = rule.resources;
  ordered.verbs = rule.verbs;
  return ordered as PolicyRule;
}
