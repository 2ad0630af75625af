import { isJsonObject } from '@ops/api';
import { stringList } from './json-fields.js';
import type { PolicyRule } from './rbac-policy.js';
import type { RequestAttributes } from './request-attributes.js';

/** Whether the rule lists `verb`, or `*`. */
export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return stringList(rule.verbs).some((ruleVerb) => ruleVerb === '*' || ruleVerb === verb);
}

/** Whether the rule lists the API group `group` (`''` is core), or `*`. */
export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return stringList(rule.apiGroups).some((ruleGroup) => ruleGroup === '*' || ruleGroup === group);
}

/**
 * Whether the rule covers `resource` with `subresource` (`''` for none): `*` covers
 * everything, `pods` only the resource itself, `pods/status` only that subresource, and
 * `*\/status` that subresource of every resource.
 */
export function resourceMatches(rule: PolicyRule, resource: string, subresource: string): boolean {
  const combined = subresource === '' ? resource : `${resource}/${subresource}`;
  return stringList(rule.resources).some(
    (ruleResource) =>
      ruleResource === '*' ||
      ruleResource === combined ||
      (subresource !== '' && ruleResource === `*/${subresource}`),
  );
}

/** Whether the rule names no objects, or names `name`. */
export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = stringList(rule.resourceNames);
  return names.length === 0 || names.includes(name);
}

/**
 * Whether the rule covers the non-resource `path`: `*`, the exact path, or a prefix ending in
 * `*` (every trailing `*` is dropped, and the rest must start the path).
 */
export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  return stringList(rule.nonResourceURLs).some(
    (url) =>
      url === '*' ||
      url === path ||
      (url.endsWith('*') && path.startsWith(url.replace(/\*+$/, ''))),
  );
}

/**
 * Whether one rule allows the request, as RBAC's `RuleAllows`: for resource requests the
 * verb, API group, resource (with subresource) and name must all match; for non-resource
 * requests the verb and the path. A rule that is not an object allows nothing.
 */
export function ruleAllows(attributes: RequestAttributes, rule: PolicyRule): boolean {
  if (!isJsonObject(rule)) return false;
  if (attributes.isResourceRequest) {
    return (
      verbMatches(rule, attributes.verb) &&
      apiGroupMatches(rule, attributes.apiGroup) &&
      resourceMatches(rule, attributes.resource, attributes.subresource) &&
      resourceNameMatches(rule, attributes.name)
    );
  }
  return verbMatches(rule, attributes.verb) && nonResourceURLMatches(rule, attributes.path);
}
