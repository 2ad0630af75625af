import { isJsonObject } from '@ops/api';
/**
 * Compiles the `x-kubernetes-validations` rules of a CRD version's schema, as kube-apiserver
 * does when the CRD is written (k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/
 * compilation.go, and the rule checks of pkg/apis/apiextensions/validation/validation.go):
 * each rule is type-checked against the declared types of its node (see {@link SchemaTypes})
 * with `self` and `oldSelf` in scope, and must yield a bool; a `messageExpression` must yield
 * a string; `reason`, `fieldPath`, `optionalOldSelf` and multi-line rules are checked.
 */

import type { Environment } from '@marcbachmann/cel-js';
import type { JSONSchemaProps, ValidationRule } from '@ops/api';
import type { FieldError } from '../../api/field-error.js';
import {
  additionalPropertiesSchema,
  asSchema,
  itemsSchema,
  propertyEntries,
} from '../json-value.js';
import { celGoCompileError, celGoError } from './cel-compile-error.js';
import { createCelEnvironment } from './cel-environment.js';
import { SchemaTypes } from './cel-schema-types.js';

/** A compiled program: evaluates with `self` and `oldSelf` bound. */
export type CelProgram = (activation: { self: unknown; oldSelf?: unknown }) => unknown;

/** One rule, ready to run. */
export interface CompiledRule {
  rule: ValidationRule;
  program: CelProgram;
  messageProgram?: CelProgram;
  /** Whether the rule refers to `oldSelf` (a transition rule). */
  usesOldSelf: boolean;
  /** The `fieldPath` as a field path suffix (`legacyConfig`, `ports[http]`), or ''. */
  fieldPath: string;
}

/** The compiled rules of one schema node and of the nodes under it that have rules. */
export interface RuleNode {
  schema: JSONSchemaProps;
  isResourceRoot: boolean;
  rules: CompiledRule[];
  properties: Map<string, RuleNode>;
  items?: RuleNode;
  additionalProperties?: RuleNode;
}

/** A reason to reject the CRD; `within` names the uncorrelatable list a transition rule is under. */
export interface RuleProblem extends FieldError {
  /** For `oldSelf` under list items: the list's path, relative like `field`. */
  within?: string;
}

/** The outcome of compiling a schema's rules. */
export interface CompiledValidationRules {
  /** The rule tree, or `undefined` when the schema has no (valid) rules. */
  root?: RuleNode;
  /**
   * What makes kube-apiserver reject the CRD, at paths relative to the schema
   * (`properties[spec].x-kubernetes-validations[0].rule`).
   */
  problems: RuleProblem[];
}

const reasons = [
  'FieldValueDuplicate',
  'FieldValueForbidden',
  'FieldValueInvalid',
  'FieldValueRequired',
];

/** `source` with the insides of string literals blanked, offsets kept. */
function stripStrings(source: string): string {
  return source.replace(
    /'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*"/g,
    (literal) => `"${' '.repeat(literal.length - 2)}"`,
  );
}

/** Whether `source` refers to the `oldSelf` variable (outside string literals). */
export function usesOldSelf(source: string): boolean {
  return /(^|[^.\w])oldSelf\b/.test(stripStrings(source));
}

/** Go's JSON for a string: HTML characters escaped as encoding/json escapes them. */
function goString(value: string): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026');
}

/** The rule as kube-apiserver prints it in a CRD error (Go's JSON of the ValidationRule). */
function ruleText(rule: Record<string, unknown>): string {
  const text = (value: unknown) => goString(typeof value === 'string' ? value : '');
  const orNull = (value: unknown) =>
    value === undefined || value === null
      ? 'null'
      : typeof value === 'string'
        ? goString(value)
        : String(value);
  return `{"Rule":${text(rule.rule)},"Message":${text(rule.message)},"MessageExpression":${text(rule.messageExpression)},"Reason":${orNull(rule.reason)},"FieldPath":${text(rule.fieldPath)},"OptionalOldSelf":${orNull(rule.optionalOldSelf)}}`;
}

/**
 * A rule's `fieldPath` (`.a.b`, `.map['key']`) checked against `schema` as kube-apiserver's
 * ValidFieldPath does, as the field path suffix errors get (`a.b`, `map[key]`), or
 * `undefined` when it does not name a field of the schema.
 */
export function normalizeFieldPath(path: string, schema: JSONSchemaProps): string | undefined {
  const tokens = path.match(/\.[^.[\]]*|\['(?:\\.|[^'\\])*'\]|./g) ?? [];
  let node: JSONSchemaProps | undefined = schema;
  let normalized = '';
  for (const token of tokens) {
    let name: string;
    if (token.startsWith('.') && token.length > 1) name = token.slice(1);
    else if (token.startsWith("['") && token.endsWith("']"))
      name = token.slice(2, -2).replace(/\\(.)/g, '$1');
    else return undefined;
    if (node === undefined) return undefined;
    if (isJsonObject(node.properties)) {
      const child = asSchema(node.properties[name]);
      if (!child) return undefined;
      normalized = normalized === '' ? name : `${normalized}.${name}`;
      node = child;
    } else if (additionalPropertiesSchema(node)) {
      normalized = `${normalized}[${name}]`;
      node = additionalPropertiesSchema(node);
    } else {
      return undefined;
    }
  }
  return tokens.length === 0 ? undefined : normalized;
}

/**
 * cel-go refuses `has(self.undeclared)` where cel-js's checker lets it pass: the
 * cel-go error for the first `has()` over `self`/`oldSelf` whose field is not declared,
 * pointed at the macro's `(`, or `undefined`. `checkArgument` type-checks an expression and
 * returns its cel-go error.
 */
function undeclaredHasField(
  source: string,
  checkArgument: (expression: string) => string | undefined,
): string | undefined {
  const stripped = stripStrings(source);
  for (const match of stripped.matchAll(/\bhas\(\s*((?:self|oldSelf)\.[\w.]+)\s*\)/g)) {
    const error = checkArgument(match[1] ?? '');
    const field = error === undefined ? undefined : /undefined field '([^']+)'/.exec(error)?.[1];
    if (field === undefined) continue;
    return celGoError(source, (match.index ?? 0) + 3, `undefined field '${field}'`);
  }
  return undefined;
}

interface Compiler {
  typed: Environment;
  runtime: Environment;
  /** For `optionalOldSelf` rules: `oldSelf` declared optional, as cel-js resolves its uses. */
  runtimeOptional: Environment;
  types: SchemaTypes;
  functions: ReadonlySet<string>;
  problems: RuleProblem[];
}

function ruleProblems(
  compiler: Compiler,
  node: JSONSchemaProps,
  isResourceRoot: boolean,
  path: string,
  uncorrelatable: string | undefined,
): CompiledRule[] {
  const rules = node['x-kubernetes-validations'];
  if (!Array.isArray(rules) || rules.length === 0) return [];
  const selfType = compiler.types.typeOf(node, isResourceRoot) ?? 'dyn';
  let plainEnv: Environment | undefined;
  let optionalEnv: Environment | undefined;
  const compiled: CompiledRule[] = [];
  rules.forEach((entry: unknown, index) => {
    if (!isJsonObject(entry) || typeof entry.rule !== 'string' || entry.rule.trim() === '') return;
    const rule = entry as unknown as ValidationRule;
    const at = `${path === '' ? '' : `${path}.`}x-kubernetes-validations[${index}]`;
    const invalid = (field: string, detail: string): FieldError => ({
      type: 'FieldValueInvalid',
      field: `${at}.${field}`,
      detail: `${ruleText(entry)}: ${detail}`,
    });
    const before = compiler.problems.length;
    const oldSelf = usesOldSelf(rule.rule);
    if (typeof rule.message === 'string' && rule.message.trim() === '') {
      compiler.problems.push({
        type: 'FieldValueInvalid',
        field: `${at}.message`,
        value: rule.message,
        detail: 'must be non-empty if specified',
      });
    } else if (typeof rule.message === 'string' && /[\n\r]/.test(rule.message)) {
      compiler.problems.push({
        type: 'FieldValueInvalid',
        field: `${at}.message`,
        value: rule.message,
        detail: 'must not contain line breaks',
      });
    }
    if (/[\n\r]/.test(rule.rule) && !rule.message) {
      compiler.problems.push({
        type: 'FieldValueRequired',
        field: `${at}.message`,
        detail: 'message must be specified if rule contains line breaks',
      });
    }
    if (rule.reason !== undefined && !reasons.includes(rule.reason)) {
      compiler.problems.push({
        type: 'FieldValueNotSupported',
        field: `${at}.reason`,
        value: rule.reason,
        detail: `supported values: ${reasons.map((r) => `"${r}"`).join(', ')}`,
      });
    }
    let fieldPath = '';
    if (typeof rule.fieldPath === 'string' && rule.fieldPath !== '') {
      const normalized = normalizeFieldPath(rule.fieldPath, node);
      if (normalized === undefined) {
        compiler.problems.push({
          type: 'FieldValueInvalid',
          field: `${at}.fieldPath`,
          value: rule.fieldPath,
          detail: 'must be a valid path',
        });
      } else {
        fieldPath = normalized;
      }
    }
    if (rule.optionalOldSelf === true && !oldSelf) {
      compiler.problems.push({
        type: 'FieldValueInvalid',
        field: `${at}.optionalOldSelf`,
        value: true,
        detail: 'may not be set if oldSelf is not used in rule',
      });
    }
    if (oldSelf && uncorrelatable !== undefined) {
      compiler.problems.push({
        type: 'FieldValueInvalid',
        field: `${at}.rule`,
        value: rule.rule,
        detail: `oldSelf cannot be used on the uncorrelatable portion of the schema within ${uncorrelatable}`,
        within: uncorrelatable,
      });
    }
    if (compiler.problems.length > before) return;
    const optional = rule.optionalOldSelf === true;
    let env: Environment;
    if (optional) {
      optionalEnv ??= compiler.typed
        .clone()
        .registerVariable('self', selfType)
        .registerVariable('oldSelf', `optional<${selfType}>`);
      env = optionalEnv;
    } else {
      plainEnv ??= compiler.typed
        .clone()
        .registerVariable('self', selfType)
        .registerVariable('oldSelf', selfType);
      env = plainEnv;
    }
    const check = (source: string): { type?: string; error?: string } => {
      try {
        const result = env.check(source);
        if (result.valid) return { type: String(result.type) };
        return { error: celGoCompileError(source, result.error, compiler.functions) };
      } catch (error) {
        return { error: celGoCompileError(source, error, compiler.functions) };
      }
    };
    const checked = check(rule.rule);
    checked.error ??= undeclaredHasField(rule.rule, (argument) => check(argument).error);
    if (checked.error !== undefined) {
      compiler.problems.push(invalid('rule', `compilation failed: ${checked.error}`));
      return;
    }
    if (checked.type !== 'bool' && checked.type !== 'dyn') {
      compiler.problems.push(invalid('rule', 'cel expression must evaluate to a bool'));
      return;
    }
    const runtime = optional ? compiler.runtimeOptional : compiler.runtime;
    let messageProgram: CelProgram | undefined;
    if (typeof rule.messageExpression === 'string' && rule.messageExpression.trim() !== '') {
      const message = check(rule.messageExpression);
      if (message.error !== undefined) {
        compiler.problems.push(
          invalid('messageExpression', `messageExpression compilation failed: ${message.error}`),
        );
        return;
      }
      if (message.type !== 'string' && message.type !== 'dyn') {
        compiler.problems.push(
          invalid('messageExpression', 'messageExpression must evaluate to a string'),
        );
        return;
      }
      messageProgram = runtime.parse(rule.messageExpression) as CelProgram;
    }
    compiled.push({
      rule,
      program: runtime.parse(rule.rule) as CelProgram,
      ...(messageProgram ? { messageProgram } : {}),
      usesOldSelf: oldSelf,
      fieldPath,
    });
  });
  return compiled;
}

function compileNode(
  compiler: Compiler,
  schema: JSONSchemaProps,
  isResourceRoot: boolean,
  path: string,
  uncorrelatable?: string,
): RuleNode | undefined {
  const rules = ruleProblems(compiler, schema, isResourceRoot, path, uncorrelatable);
  const properties = new Map<string, RuleNode>();
  for (const [name, child] of propertyEntries(schema)) {
    const embedded = child['x-kubernetes-embedded-resource'] === true;
    const compiled = compileNode(
      compiler,
      child,
      embedded,
      `${path === '' ? '' : `${path}.`}properties[${name}]`,
      uncorrelatable,
    );
    if (compiled) properties.set(name, compiled);
  }
  const itemSchema = itemsSchema(schema);
  const items = itemSchema
    ? compileNode(
        compiler,
        itemSchema,
        itemSchema['x-kubernetes-embedded-resource'] === true,
        `${path === '' ? '' : `${path}.`}items`,
        // Only items of `map` lists correlate with old items (by their keys).
        uncorrelatable ?? (schema['x-kubernetes-list-type'] === 'map' ? undefined : path),
      )
    : undefined;
  const valueSchema = additionalPropertiesSchema(schema);
  const additionalProperties = valueSchema
    ? compileNode(
        compiler,
        valueSchema,
        valueSchema['x-kubernetes-embedded-resource'] === true,
        `${path === '' ? '' : `${path}.`}additionalProperties`,
        uncorrelatable,
      )
    : undefined;
  if (rules.length === 0 && properties.size === 0 && !items && !additionalProperties)
    return undefined;
  return {
    schema,
    isResourceRoot,
    rules,
    properties,
    ...(items ? { items } : {}),
    ...(additionalProperties ? { additionalProperties } : {}),
  };
}

function hasRules(schema: unknown): boolean {
  return JSON.stringify(schema ?? null).includes('"x-kubernetes-validations"');
}

/**
 * Compiles every rule of `schema` (the `openAPIV3Schema` of a CRD version). The result's
 * `problems` are kube-apiserver's reasons to reject the CRD (compilation errors worded as
 * cel-go words them); rules with problems are left out of the tree. Never throws. Compiling
 * builds CEL environments (milliseconds): do it once per schema, not per request.
 *
 * Not checked: the estimated cost of rules (kube-apiserver rejects rules whose worst-case cost
 * exceeds its budget), `oldSelf` on uncorrelatable nodes, and rules under `allOf`/`anyOf`.
 */
export function compileValidationRules(schema: JSONSchemaProps): CompiledValidationRules {
  if (!isJsonObject(schema) || !hasRules(schema)) return { problems: [] };
  const typed = createCelEnvironment();
  const types = new SchemaTypes(typed);
  types.typeOf(schema, true);
  const functions = new Set(typed.getDefinitions().functions.map((f: { name: string }) => f.name));
  const runtime = createCelEnvironment()
    .registerVariable('self', 'dyn')
    .registerVariable('oldSelf', 'dyn');
  const runtimeOptional = createCelEnvironment()
    .registerVariable('self', 'dyn')
    .registerVariable('oldSelf', 'optional<dyn>');
  const compiler: Compiler = { typed, runtime, runtimeOptional, types, functions, problems: [] };
  const root = compileNode(compiler, schema, true, '');
  return { ...(root ? { root } : {}), problems: compiler.problems };
}
