import { isJsonObject, jsonEqual } from '@ops/api';
/**
 * Evaluation of compiled `x-kubernetes-validations` rules against a custom resource, as
 * kube-apiserver's CEL validator does on create, update and status update
 * (k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/validation.go).
 */

import { Optional } from '@marcbachmann/cel-js';
import type { FieldError } from '../../api/field-error.js';
import { formatFieldError } from '../../api/field-error.js';
import { celValueOf } from './cel-schema-types.js';
import type { CompiledRule, RuleNode } from './compile-validation-rules.js';

/** What the rules found: errors fail the request; warnings are ratcheted errors. */
export interface CelRuleResult {
  errors: FieldError[];
  /** Errors of unchanged values on update, which kube-apiserver only warns about. */
  warnings: string[];
}

interface Walk {
  errors: FieldError[];
  warnings: string[];
}

function errorText(error: unknown): string {
  const summary = (error as { summary?: unknown }).summary;
  const text =
    typeof summary === 'string' ? summary : error instanceof Error ? error.message : String(error);
  return text.length > 0 ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}

function ruleErrorString(rule: CompiledRule['rule']): string {
  return rule.message ? rule.message.trim() : rule.rule.trim();
}

function childPath(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}

/** The printed field: apimachinery's nil path at the root. */
function fieldOf(path: string): string {
  return path === '' ? '<nil>' : path;
}

/** The error's value: kube-apiserver prints scalars and omits objects and lists. */
function withValue(error: FieldError, value: unknown): FieldError {
  if (value !== null && typeof value === 'object') return error;
  return { ...error, value };
}

function failure(rule: CompiledRule, path: string, value: unknown, detail: string): FieldError {
  const field = fieldOf(rule.fieldPath === '' ? path : childPath(path, rule.fieldPath));
  switch (rule.rule.reason) {
    case 'FieldValueForbidden':
      return { type: 'FieldValueForbidden', field, detail };
    case 'FieldValueRequired':
      return { type: 'FieldValueRequired', field, detail };
    case 'FieldValueDuplicate':
      return withValue({ type: 'FieldValueDuplicate', field }, value);
    default:
      return withValue({ type: 'FieldValueInvalid', field, detail }, value);
  }
}

function message(rule: CompiledRule, activation: { self: unknown; oldSelf?: unknown }): string {
  if (rule.messageProgram) {
    try {
      const text = rule.messageProgram(activation);
      if (typeof text === 'string') {
        const trimmed = text.trim();
        if (trimmed !== '' && !trimmed.includes('\n')) return trimmed;
      }
    } catch {
      // kube-apiserver logs a failing messageExpression and falls back to the message.
    }
  }
  return rule.rule.message
    ? rule.rule.message.trim()
    : `failed rule: ${ruleErrorString(rule.rule)}`;
}

function evaluateRules(
  node: RuleNode,
  path: string,
  value: unknown,
  old: unknown,
  unchanged: boolean,
  walk: Walk,
): void {
  if (node.rules.length === 0) return;
  const self = celValueOf(node.schema, value, node.isResourceRoot);
  const oldSelf =
    old === undefined || old === null
      ? undefined
      : celValueOf(node.schema, old, node.isResourceRoot);
  for (const compiled of node.rules) {
    const optional = compiled.rule.optionalOldSelf === true;
    if (compiled.usesOldSelf && oldSelf === undefined && !optional) continue;
    const activation = {
      self,
      oldSelf: optional
        ? oldSelf === undefined
          ? Optional.none()
          : Optional.of(oldSelf)
        : oldSelf,
    };
    let result: unknown;
    try {
      result = compiled.program(activation);
    } catch (error) {
      const text = errorText(error);
      const detail = text.startsWith('no such overload')
        ? `'${text}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(compiled.rule)}`
        : `${text} evaluating rule: ${ruleErrorString(compiled.rule)}`;
      // kube-apiserver names the schema type here, not the value (`Invalid value: "string"`).
      const type = typeof node.schema.type === 'string' ? node.schema.type : '';
      walk.errors.push({ type: 'FieldValueInvalid', field: fieldOf(path), value: type, detail });
      continue;
    }
    if (result === true) continue;
    const error = failure(compiled, path, value, message(compiled, activation));
    if (!compiled.usesOldSelf && unchanged) walk.warnings.push(formatFieldError(error));
    else walk.errors.push(error);
  }
}

function walkNode(
  node: RuleNode,
  path: string,
  value: unknown,
  old: unknown,
  unchanged: boolean,
  walk: Walk,
): void {
  if (value === null || value === undefined) return;
  evaluateRules(node, path, value, old, unchanged, walk);
  if (Array.isArray(value)) {
    if (!node.items) return;
    const oldItems = correlatedItems(node, old);
    value.forEach((item, index) => {
      // Items of lists other than `map` lists do not correlate: they ratchet with the list.
      const oldItem = oldItems?.(item);
      const same = oldItems ? oldItem !== undefined && jsonEqual(item, oldItem) : unchanged;
      walkNode(node.items as RuleNode, `${path}[${index}]`, item, oldItem, same, walk);
    });
    return;
  }
  if (!isJsonObject(value)) return;
  const correlatable = node.schema['x-kubernetes-map-type'] !== 'atomic';
  const oldMap = correlatable && isJsonObject(old) ? old : undefined;
  for (const [key, item] of Object.entries(value)) {
    const child = node.properties.get(key) ?? node.additionalProperties;
    if (!child) continue;
    const oldItem = oldMap?.[key];
    const itemPath = node.properties.has(key) ? childPath(path, key) : `${path}[${key}]`;
    // Values of atomic maps do not correlate: they ratchet with the map.
    const same = correlatable ? oldItem !== undefined && jsonEqual(item, oldItem) : unchanged;
    walkNode(child, itemPath, item, oldItem, same, walk);
  }
}

/** For `x-kubernetes-list-type: map` lists: the old item with the same keys as a new one. */
function correlatedItems(node: RuleNode, old: unknown): ((item: unknown) => unknown) | undefined {
  const keys = node.schema['x-kubernetes-list-map-keys'];
  if (
    node.schema['x-kubernetes-list-type'] !== 'map' ||
    !Array.isArray(keys) ||
    !Array.isArray(old)
  ) {
    return undefined;
  }
  return (item) =>
    isJsonObject(item)
      ? old.find(
          (candidate) =>
            isJsonObject(candidate) && keys.every((key) => jsonEqual(candidate[key], item[key])),
        )
      : undefined;
}

/**
 * Runs the rules of `root` over `object` (and `old`, the stored object, on updates), as
 * kube-apiserver does: a rule runs on every non-null value its node matches (list items, map
 * values); transition rules (using `oldSelf`) run only where an old value correlates (same
 * property, same map key, same keys in a `map` list), unless `optionalOldSelf` lets them run
 * with `oldSelf` as an optional. A false rule yields `<path>: Invalid value: <value>: <message>`
 * (scalar values printed, objects and lists not; `<nil>` at the root), or the error its
 * `reason` names, at `fieldPath` when given; the message is `messageExpression`'s result, else
 * `message`, else `failed rule: <rule>`. A rule that fails to evaluate yields `<path>: Invalid
 * value: "<schema type>": <error> evaluating rule: <rule>`. On update, errors of
 * non-transition rules on a value equal to its old value are ratcheted: returned as warnings.
 * Never throws. Not enforced: cost budgets.
 */
export function validateCelRules(
  root: RuleNode | undefined,
  object: unknown,
  old?: unknown,
): CelRuleResult {
  const walk: Walk = { errors: [], warnings: [] };
  if (root) walkNode(root, '', object, old, old !== undefined && jsonEqual(object, old), walk);
  return walk;
}
