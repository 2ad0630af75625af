import { stringList } from './json-fields.js';
import type { PolicyRule } from './rbac-policy.js';

/** A rule with at most one verb, API group, resource and resource name, or one URL and verb. */
export interface AtomicRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

/**
 * `rule` split into rules of one verb, one API group, one resource and at most one resource
 * name each, then one per (non-resource URL, verb), as kube's `BreakdownRule`
 * (k8s.io/component-helpers `auth/rbac/validation/policy_comparator.go`). Fields that are
 * missing or not lists of strings count as empty.
 */
export function breakdownRule(rule: PolicyRule): AtomicRule[] {
  const verbs = stringList(rule.verbs);
  const names = stringList(rule.resourceNames);
  const atoms: AtomicRule[] = [];
  for (const group of stringList(rule.apiGroups)) {
    for (const resource of stringList(rule.resources)) {
      for (const verb of verbs) {
        if (names.length > 0) {
          for (const name of names)
            atoms.push({
              apiGroups: [group],
              resources: [resource],
              verbs: [verb],
              resourceNames: [name],
            });
        } else {
          atoms.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        }
      }
    }
  }
  for (const url of stringList(rule.nonResourceURLs)) {
    for (const verb of verbs) atoms.push({ nonResourceURLs: [url], verbs: [verb] });
  }
  return atoms;
}

const hasAll = (set: string[], wanted: readonly string[]): boolean =>
  wanted.every((item) => set.includes(item));

/** `resources` covers each wanted resource, exactly, by `*`, or a subresource by `*\/<sub>`. */
function resourcesCover(resources: string[], wanted: readonly string[]): boolean {
  if (resources.includes('*') || hasAll(resources, wanted)) return true;
  return wanted.every((path) => {
    if (resources.includes(path)) return true;
    const slash = path.indexOf('/');
    return slash !== -1 && resources.includes(`*/${path.slice(slash + 1)}`);
  });
}

const urlCovers = (owner: string, path: string): boolean =>
  owner === path || (owner.endsWith('*') && path.startsWith(owner.replace(/\*+$/, '')));

/** Whether one owner rule covers one {@link AtomicRule}, as kube's `ruleCovers`. */
function ruleCovers(owner: PolicyRule, atom: AtomicRule): boolean {
  const verbs = stringList(owner.verbs);
  const groups = stringList(owner.apiGroups);
  const ownerNames = stringList(owner.resourceNames);
  const urls = stringList(owner.nonResourceURLs);
  const wantedNames = atom.resourceNames ?? [];
  return (
    (verbs.includes('*') || hasAll(verbs, atom.verbs)) &&
    (groups.includes('*') || hasAll(groups, atom.apiGroups ?? [])) &&
    resourcesCover(stringList(owner.resources), atom.resources ?? []) &&
    (atom.nonResourceURLs ?? []).every((path) => urls.some((url) => urlCovers(url, path))) &&
    (wantedNames.length === 0
      ? ownerNames.length === 0
      : ownerNames.length === 0 || hasAll(ownerNames, wantedNames))
  );
}

/**
 * Whether `owner` rules together grant everything `wanted` rules grant, as kube's `Covers`
 * (k8s.io/component-helpers `auth/rbac/validation/policy_comparator.go`): each wanted rule is
 * broken down ({@link breakdownRule}) and each piece must be covered by one owner rule. A
 * wanted rule without resource names is covered only by owner rules without resource names.
 * Returns the pieces no owner rule covers, in order (empty when covered).
 */
export function uncoveredRules(
  owner: readonly PolicyRule[],
  wanted: readonly PolicyRule[],
): AtomicRule[] {
  return wanted
    .flatMap((rule) => breakdownRule(rule))
    .filter((atom) => !owner.some((rule) => ruleCovers(rule, atom)));
}
