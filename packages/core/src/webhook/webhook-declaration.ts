/**
 * Admission webhooks declared as data in the operator's TypeScript, as kubebuilder's
 * `// +kubebuilder:webhook:...` markers do in Go: one declaration carries the handler and
 * everything `MutatingWebhookConfiguration` / `ValidatingWebhookConfiguration` say about it,
 * so the webhook server (which registers the handler at `path`) and the generated
 * configuration (`ops-manifests` writes `config/webhook/manifests.yaml`) can never disagree.
 */

import type { LabelSelector, RuleWithOperations } from '@ops/api';
import { defaultWebhookService } from '../crd/webhook-service.js';
import { WebhookDeclarationError } from '../errors/webhook-declaration-error.js';
import type { AdmissionHandler } from './admission-handler.js';

/** Which admission phase a webhook takes part in. */
export type WebhookType = 'mutating' | 'validating';

/**
 * One rule of a webhook: `admissionregistration.k8s.io/v1` `RuleWithOperations`, declared in
 * `@ops/api`.
 */
export type WebhookRule = RuleWithOperations;

/** What {@link defineWebhook} takes. */
export interface WebhookSpec {
  /** `mutating` (the handler may change the object) or `validating`. */
  type: WebhookType;
  /**
   * The webhook's name, a fully qualified domain name of at least three labels, unique in
   * its configuration: `vapplication-v1.lixueduan.com`. kubectl shows it in denials.
   */
  name: string;
  /** The URL path the API server POSTs to and the server serves: `/validate-apps-v1-deployment`. */
  path: string;
  /** What the webhook intercepts; at least one rule. */
  rules: readonly WebhookRule[];
  /** The handler, e.g. from `validatingWebhook(...)` or `mutatingWebhook(...)`. */
  handler: AdmissionHandler;
  /** What the API server does when the call fails. Default `Fail`. */
  failurePolicy?: 'Fail' | 'Ignore';
  /** Whether the webhook has side effects outside the object. Default `None`. */
  sideEffects?: 'None' | 'NoneOnDryRun';
  /** AdmissionReview versions the handler understands. Default `['v1']` (the server speaks v1 only). */
  admissionReviewVersions?: readonly string[];
  /** Seconds the API server waits for an answer, 1 to 30. Default: unset (the API's 10). */
  timeoutSeconds?: number;
  /** Only objects in namespaces matching this selector. */
  namespaceSelector?: LabelSelector;
  /** Only objects whose labels match this selector. */
  objectSelector?: LabelSelector;
  /** `Exact` or `Equivalent` (the API's default). */
  matchPolicy?: 'Exact' | 'Equivalent';
  /** Mutating webhooks only: `Never` (the API's default) or `IfNeeded`. */
  reinvocationPolicy?: 'Never' | 'IfNeeded';
}

const marker = Symbol.for('@ops/core.WebhookDeclaration');

/** A checked {@link WebhookSpec}, made by {@link defineWebhook}; frozen. */
export interface WebhookDeclaration extends Readonly<WebhookSpec> {
  readonly [marker]: true;
  /** Defaulted: `Fail`. */
  readonly failurePolicy: 'Fail' | 'Ignore';
  /** Defaulted: `None`. */
  readonly sideEffects: 'None' | 'NoneOnDryRun';
  /** Defaulted: `['v1']`. */
  readonly admissionReviewVersions: readonly string[];
}

// RFC 1123 subdomain, as the API server validates webhook names (and at least three labels).
const dnsSubdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * Declares an admission webhook. The result is data: pass it to `WebhookServer.register`
 * (or list it in `runOperator`'s `webhooks`) to serve it, and export it from the operator's
 * manifests module (`export const webhooks = [...]`) for `ops-manifests` to render.
 *
 * @throws {WebhookDeclarationError} naming the webhook and the field when the API server
 * would refuse the configuration: a name that is not a lower-case DNS name of three or more
 * labels, a path that does not start with `/` or has a query, no rules or an empty list in
 * a rule, a timeout outside 1..30, `reinvocationPolicy` on a validating webhook, or a
 * handler that is not a function.
 */
export function defineWebhook(spec: WebhookSpec): WebhookDeclaration {
  const fail = (problem: string): never => {
    throw new WebhookDeclarationError(`webhook ${JSON.stringify(spec.name)}: ${problem}`);
  };
  if (spec.type !== 'mutating' && spec.type !== 'validating') {
    fail(`type must be "mutating" or "validating", got ${JSON.stringify(spec.type)}`);
  }
  if (spec.name.length > 253 || !dnsSubdomain.test(spec.name) || spec.name.split('.').length < 3) {
    fail(
      'name must be a lower-case fully qualified domain name of at least three labels, e.g. "vapplication-v1.example.com"',
    );
  }
  if (!spec.path.startsWith('/') || /[?#\s]/.test(spec.path)) {
    fail(
      `path ${JSON.stringify(spec.path)} is not a URL path: start it with "/" and leave out any query, e.g. "/validate-apps-v1-deployment"`,
    );
  }
  if (spec.rules.length === 0) fail('rules is empty: list at least one rule');
  spec.rules.forEach((rule, index) => {
    for (const field of ['apiGroups', 'apiVersions', 'operations', 'resources'] as const) {
      if (rule[field].length === 0) {
        fail(`rules[${index}].${field} is empty: list at least one (or '*')`);
      }
    }
  });
  if (
    spec.timeoutSeconds !== undefined &&
    (!Number.isInteger(spec.timeoutSeconds) || spec.timeoutSeconds < 1 || spec.timeoutSeconds > 30)
  ) {
    fail(`timeoutSeconds must be a whole number from 1 to 30, got ${spec.timeoutSeconds}`);
  }
  if (spec.type === 'validating' && spec.reinvocationPolicy !== undefined) {
    fail('reinvocationPolicy applies to mutating webhooks only: remove it');
  }
  if (typeof spec.handler !== 'function') {
    fail('handler must be a function, e.g. validatingWebhook(...) or mutatingWebhook(...)');
  }
  return Object.freeze({
    ...spec,
    failurePolicy: spec.failurePolicy ?? 'Fail',
    sideEffects: spec.sideEffects ?? 'None',
    admissionReviewVersions: spec.admissionReviewVersions ?? ['v1'],
    [marker]: true as const,
  });
}

/** Whether `value` was made by {@link defineWebhook} (of any copy of `@ops/core`). */
export function isWebhookDeclaration(value: unknown): value is WebhookDeclaration {
  return typeof value === 'object' && value !== null && marker in value;
}

/** Names and Service that {@link webhookConfigurations} writes into the configurations. */
export interface WebhookConfigurationOptions {
  /** Default `mutating-webhook-configuration`, as kubebuilder. */
  mutatingName?: string;
  /** Default `validating-webhook-configuration`, as kubebuilder. */
  validatingName?: string;
  /** The Service in front of the webhook server. Default `webhook-service` in `system`, as kubebuilder (kustomize renames both). */
  service?: { name: string; namespace: string };
}

/** The default configuration and Service names, kubebuilder's. */
export { defaultWebhookService };

export const defaultWebhookConfigurationNames = {
  mutating: 'mutating-webhook-configuration',
  validating: 'validating-webhook-configuration',
  service: defaultWebhookService.name,
} as const;

/** A `MutatingWebhookConfiguration` or `ValidatingWebhookConfiguration`, as JSON. */
export interface WebhookConfigurationObject {
  apiVersion: 'admissionregistration.k8s.io/v1';
  kind: 'MutatingWebhookConfiguration' | 'ValidatingWebhookConfiguration';
  metadata: { name: string };
  webhooks: Record<string, unknown>[];
}

/**
 * The webhook configurations for `declarations`: a `MutatingWebhookConfiguration` with the
 * mutating ones, then a `ValidatingWebhookConfiguration` with the validating ones (a kind
 * without webhooks is left out), each webhook pointing at the Service with its `path`, in
 * declaration order, with only the fields the declaration sets (as controller-gen writes
 * them; no `caBundle`, which cert-manager or the self-managed mode injects).
 *
 * @throws {WebhookDeclarationError} when an element is not a declaration, or two share a
 * name within a configuration, or two share a path.
 */
export function webhookConfigurations(
  declarations: readonly WebhookDeclaration[],
  options: WebhookConfigurationOptions = {},
): WebhookConfigurationObject[] {
  checkWebhookDeclarations(declarations);
  const service = options.service ?? defaultWebhookService;
  const configuration = (
    type: WebhookType,
    kind: WebhookConfigurationObject['kind'],
    name: string,
  ): WebhookConfigurationObject[] => {
    const webhooks = declarations
      .filter((declaration) => declaration.type === type)
      .map((declaration) => webhookEntry(declaration, service));
    return webhooks.length === 0
      ? []
      : [
          {
            apiVersion: 'admissionregistration.k8s.io/v1',
            kind,
            metadata: { name },
            webhooks,
          },
        ];
  };
  return [
    ...configuration(
      'mutating',
      'MutatingWebhookConfiguration',
      options.mutatingName ?? defaultWebhookConfigurationNames.mutating,
    ),
    ...configuration(
      'validating',
      'ValidatingWebhookConfiguration',
      options.validatingName ?? defaultWebhookConfigurationNames.validating,
    ),
  ];
}

/**
 * Checks that every element is a declaration and that no two share a path or (within one
 * type) a name.
 *
 * @throws {WebhookDeclarationError} naming the duplicate or the element.
 */
export function checkWebhookDeclarations(declarations: readonly unknown[]): void {
  const paths = new Map<string, string>();
  const names = new Set<string>();
  declarations.forEach((declaration, index) => {
    if (!isWebhookDeclaration(declaration)) {
      throw new WebhookDeclarationError(
        `webhooks[${index}] is not a webhook declaration: make it with defineWebhook from @ops/core`,
      );
    }
    const other = paths.get(declaration.path);
    if (other !== undefined) {
      throw new WebhookDeclarationError(
        `webhooks ${JSON.stringify(other)} and ${JSON.stringify(declaration.name)} share the path ${declaration.path}: give each webhook its own path`,
      );
    }
    paths.set(declaration.path, declaration.name);
    const key = `${declaration.type}/${declaration.name}`;
    if (names.has(key)) {
      throw new WebhookDeclarationError(
        `two ${declaration.type} webhooks are named ${JSON.stringify(declaration.name)}: names must be unique in a configuration`,
      );
    }
    names.add(key);
  });
}

function webhookEntry(
  declaration: WebhookDeclaration,
  service: { name: string; namespace: string },
): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    admissionReviewVersions: [...declaration.admissionReviewVersions],
    clientConfig: {
      service: { name: service.name, namespace: service.namespace, path: declaration.path },
    },
    failurePolicy: declaration.failurePolicy,
    name: declaration.name,
    rules: declaration.rules.map((rule) => ({
      apiGroups: [...rule.apiGroups],
      apiVersions: [...rule.apiVersions],
      operations: [...rule.operations],
      resources: [...rule.resources],
      ...(rule.scope === undefined ? {} : { scope: rule.scope }),
    })),
    sideEffects: declaration.sideEffects,
  };
  const optional = {
    matchPolicy: declaration.matchPolicy,
    namespaceSelector: declaration.namespaceSelector,
    objectSelector: declaration.objectSelector,
    reinvocationPolicy: declaration.reinvocationPolicy,
    timeoutSeconds: declaration.timeoutSeconds,
  };
  for (const [key, value] of Object.entries(optional)) {
    if (value !== undefined) entry[key] = value;
  }
  return entry;
}
