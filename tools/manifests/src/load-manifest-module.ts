/**
 * Loading an operator's manifest module: the JavaScript module that exports the operator's
 * custom resource definitions and RBAC rules.
 */
import { stat } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isJsonObject } from '@ops/api';
import {
  type CustomResourceDefinition,
  isCustomResourceDefinition,
  type PolicyRule,
  PolicyRuleError,
  validatePolicyRule,
} from '@ops/core/crd';
import type { OperatorDefinition } from '@ops/core/operator';
import {
  checkWebhookDeclarations,
  type WebhookDeclaration,
  WebhookDeclarationError,
} from '@ops/core/webhook';
import { ManifestsError } from './errors/manifests-error.js';

/** The RBAC part of a manifest module. */
export interface ManifestRbac {
  /** The name of the generated ClusterRole. Default `manager-role`, as in kubebuilder. */
  roleName?: string;
  /** Every rule the operator's controllers need; merged and sorted on output. */
  rules: readonly PolicyRule[];
}

/**
 * The RBAC of `--webhook-cert-mode=self-managed` (`selfManagedCertificateRbac` of
 * `@ops/core`): a Role and a ClusterRole of one name.
 */
export interface ManifestCertificateRbac {
  name: string;
  namespace: string;
  namespacedRules: readonly PolicyRule[];
  clusterRules: readonly PolicyRule[];
}

/**
 * The part of an `OperatorDefinition` (`@ops/core`) the generator reads: its name (for
 * messages) and its `setup`, run on a manager that never starts to learn what each
 * controller reconciles and owns.
 */
export type ManifestOperator = Pick<OperatorDefinition, 'name' | 'setup'>;

/** What a manifest module exports. */
export interface ManifestModule {
  /** The operator's kinds, each made with `defineCustomResource` from `@ops/core/crd`. */
  customResources: readonly CustomResourceDefinition[];
  rbac: ManifestRbac;
  /** Optional: the admission webhooks, each made with `defineWebhook` from `@ops/core`. */
  webhooks?: readonly WebhookDeclaration[];
  /** Optional: the rules of the self-managed webhook certificate mode. */
  selfManagedCertificateRbac?: ManifestCertificateRbac;
  /**
   * Optional: the operator (the `OperatorDefinition` its main runs). Its controllers'
   * `for()` and `owns()` add to the ClusterRole the rules owner references need
   * (`ownerReferencePermissions` of `@ops/core/crd`): `update` on `<plural>/finalizers`.
   */
  operator?: ManifestOperator;
}

/** The expected shape, shown in errors about a module. */
export const expectedModuleShape = `a manifest module exports (TypeScript source, before the operator's build):

  import { customResourcePermissions, defineCustomResource, permission, rbacRules } from '@ops/core/crd';

  export const application = defineCustomResource({ group, kind, plural, scope, versions });
  export const customResources = [application];
  export const rbac = {
    roleName: 'manager-role', // optional
    rules: rbacRules(
      customResourcePermissions(application),
      permission({ group: 'apps', resources: 'deployments', verbs: ['get', 'list', 'watch'] }),
    ),
  };
  // optional: webhooks made with defineWebhook, and the self-managed certificate RBAC
  export const webhooks = [validateApplication, defaultApplication];
  export const selfManagedCertificateRbac = selfManagedCertificateRbac(operator, 'my-namespace');
  // optional (recommended): the OperatorDefinition; its controllers' owns() add the
  // <plural>/finalizers update that owner references with blockOwnerDeletion need
  export { applicationOperator as operator } from './operator.js';`;

const typeScriptExtensions = new Set(['.ts', '.mts', '.cts', '.tsx']);
const javaScriptExtensions = new Set(['.js', '.mjs']);

/**
 * Imports the module at `path` (resolved against `cwd`) and checks its exports: a
 * `customResources` array of definitions (unique CRD names) and an `rbac` object with a
 * `rules` array of valid rules and an optional string `roleName`; optionally a `webhooks`
 * array of `defineWebhook` declarations (unique paths and names) and a
 * `selfManagedCertificateRbac` object. The exports are looked up
 * as named exports first, then on the default export (for bundlers that emit one object).
 *
 * Only JavaScript (`.js`, `.mjs`) is loaded: for a TypeScript operator, build it and pass
 * the output (`dist/manifests.js`). Within one process a path is imported once for each
 * version of the file (its modification time and size): a module rebuilt since it was last
 * loaded is imported anew, an unchanged one comes from Node.js's module cache.
 *
 * @throws {ManifestsError} when the path is missing, not a file, TypeScript or another
 * extension, fails to import (the module's own error, e.g. an invalid definition, is the
 * `cause` and is quoted), or its exports do not have the expected shape (naming the export
 * and showing the shape).
 */
export async function loadManifestModule(
  path: string,
  cwd = process.cwd(),
): Promise<ManifestModule> {
  const absolute = resolve(cwd, path);
  const extension = extname(absolute);
  if (typeScriptExtensions.has(extension)) {
    throw new ManifestsError(
      `cannot load ${path}: it is TypeScript, which Node.js does not import; build the operator first and pass the compiled module, e.g. --module dist/manifests.js`,
    );
  }
  if (!javaScriptExtensions.has(extension)) {
    throw new ManifestsError(
      `cannot load ${path}: expected a JavaScript module ending in .js or .mjs, e.g. --module dist/manifests.js`,
    );
  }
  let version: string;
  try {
    const info = await stat(absolute);
    if (!info.isFile()) throw new ManifestsError(`cannot load ${path}: ${absolute} is not a file`);
    version = `${info.mtimeMs}-${info.size}`;
  } catch (error) {
    if (ManifestsError.isInstance(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : String(error);
    throw new ManifestsError(
      `cannot read module ${absolute}: ${reason} (for a TypeScript operator, run its build first)`,
      { cause: error },
    );
  }
  let namespace: Record<string, unknown>;
  try {
    // The file's version in the URL: Node.js caches a module by its URL, so a module rebuilt
    // since this process last imported it (`ops-operator create` builds, then renders) is
    // imported anew rather than read from the cache.
    const url = pathToFileURL(absolute);
    url.searchParams.set('version', version);
    namespace = (await import(url.href)) as Record<string, unknown>;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ManifestsError(`importing ${absolute} failed: ${message}`, { cause: error });
  }
  return checkManifestModule(namespace, path);
}

/**
 * Checks the exports of an imported manifest module (see {@link loadManifestModule}) and
 * returns them typed; `label` names the module in messages.
 *
 * @throws {ManifestsError} naming the missing or malformed export and the expected shape.
 */
export function checkManifestModule(
  namespace: Record<string, unknown>,
  label: string,
): ManifestModule {
  const fallback = namespace.default;
  const lookup = (name: string): unknown => {
    if (namespace[name] !== undefined) return namespace[name];
    if (typeof fallback === 'object' && fallback !== null) {
      return (fallback as Record<string, unknown>)[name];
    }
    return undefined;
  };
  const fail = (problem: string): never => {
    throw new ManifestsError(`${label}: ${problem}\n\n${expectedModuleShape}`);
  };

  const customResources = lookup('customResources');
  if (customResources === undefined) fail('does not export `customResources`');
  if (!Array.isArray(customResources)) {
    fail(`\`customResources\` must be an array of definitions, got ${describe(customResources)}`);
  }
  const definitions = customResources as unknown[];
  const names = new Set<string>();
  definitions.forEach((definition, index) => {
    if (!isCustomResourceDefinition(definition)) {
      fail(
        `\`customResources[${index}]\` is not a definition made with defineCustomResource from @ops/core/crd, got ${describe(definition)}`,
      );
    }
    const { name } = definition as CustomResourceDefinition;
    if (names.has(name)) fail(`\`customResources\` lists ${name} twice`);
    names.add(name);
  });

  const rbac = lookup('rbac');
  if (rbac === undefined) fail('does not export `rbac`');
  if (!isJsonObject(rbac)) {
    fail(`\`rbac\` must be an object { roleName?, rules }, got ${describe(rbac)}`);
  }
  const { roleName, rules } = rbac as { roleName?: unknown; rules?: unknown };
  if (roleName !== undefined && (typeof roleName !== 'string' || roleName === '')) {
    fail(`\`rbac.roleName\` must be a non-empty string, got ${describe(roleName)}`);
  }
  const checkRules = (value: unknown, path: string) => {
    if (!Array.isArray(value))
      fail(`\`${path}\` must be an array of PolicyRule, got ${describe(value)}`);
    (value as unknown[]).forEach((rule, index) => {
      if (typeof rule !== 'object' || rule === null) {
        fail(`\`${path}[${index}]\` must be a PolicyRule object, got ${describe(rule)}`);
      }
      try {
        validatePolicyRule(rule as PolicyRule);
      } catch (error) {
        if (!PolicyRuleError.isInstance(error)) throw error;
        fail(`\`${path}[${index}]\`: ${error.message}`);
      }
    });
  };
  checkRules(rules, 'rbac.rules');
  const result: ManifestModule = {
    customResources: definitions as CustomResourceDefinition[],
    rbac: { rules: rules as PolicyRule[] },
  };
  if (typeof roleName === 'string') result.rbac.roleName = roleName;

  const webhooks = lookup('webhooks');
  if (webhooks !== undefined) {
    if (!Array.isArray(webhooks)) {
      fail(
        `\`webhooks\` must be an array of defineWebhook declarations, got ${describe(webhooks)}`,
      );
    }
    try {
      checkWebhookDeclarations(webhooks as unknown[]);
    } catch (error) {
      if (!WebhookDeclarationError.isInstance(error)) throw error;
      fail(`\`webhooks\`: ${error.message}`);
    }
    result.webhooks = webhooks as WebhookDeclaration[];
  }

  const certificateRbac = lookup('selfManagedCertificateRbac');
  if (certificateRbac !== undefined) {
    const shape = certificateRbac as Partial<Record<keyof ManifestCertificateRbac, unknown>>;
    for (const key of ['name', 'namespace'] as const) {
      if (typeof shape[key] !== 'string' || shape[key] === '') {
        fail(
          `\`selfManagedCertificateRbac.${key}\` must be a non-empty string (make the export with selfManagedCertificateRbac from @ops/core), got ${describe(shape[key])}`,
        );
      }
    }
    checkRules(shape.namespacedRules, 'selfManagedCertificateRbac.namespacedRules');
    checkRules(shape.clusterRules, 'selfManagedCertificateRbac.clusterRules');
    result.selfManagedCertificateRbac = certificateRbac as ManifestCertificateRbac;
  }

  const operator = lookup('operator');
  if (operator !== undefined) {
    const shape = operator as { name?: unknown; setup?: unknown };
    if (!isJsonObject(operator)) {
      fail(`\`operator\` must be an OperatorDefinition object, got ${describe(operator)}`);
    }
    if (typeof shape.name !== 'string' || shape.name === '') {
      fail(`\`operator.name\` must be a non-empty string, got ${describe(shape.name)}`);
    }
    if (shape.setup !== undefined && typeof shape.setup !== 'function') {
      fail(
        `\`operator.setup\` must be a function (manager, context) => void, got ${describe(shape.setup)}`,
      );
    }
    result.operator = operator as ManifestOperator;
  }
  return result;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'object') {
    const keys = Object.keys(value);
    return `an object with ${keys.length === 0 ? 'no keys' : `keys ${keys.slice(0, 5).join(', ')}`}`;
  }
  if (typeof value === 'string') return JSON.stringify(value);
  return typeof value === 'undefined' ? 'undefined' : `${typeof value} ${String(value)}`;
}
