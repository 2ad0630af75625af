import type { KubernetesObject, LabelSelector, RuleWithOperations } from '@ops/api';
import { isJsonObject } from '@ops/api';
import type { ObjectStore } from '../store/object-store.js';

/**
 * `T` as read from a stored object nobody validated: every field present, each list a list of
 * whatever strings were found, each other field the string found.
 */
type AsRead<T> = {
  [K in keyof T]-?: T[K] extends readonly string[] | undefined ? readonly string[] : string;
};

/**
 * A webhook rule (`RuleWithOperations` of `@ops/api`) as read from a configuration: scope
 * defaulted to `*`, unknown operations or scopes kept as found (a rule naming an unknown
 * scope matches nothing).
 */
export type WebhookRule = AsRead<RuleWithOperations>;

/** Where a webhook is reached: `url`, or `service` (resolved through its Endpoints). */
export interface WebhookClientConfig {
  url?: string;
  service?: { namespace: string; name: string; path?: string; port: number };
  /** Base64 of the PEM CA certificates that verify the webhook's serving certificate. */
  caBundle?: string;
}

/**
 * One webhook of a Mutating- or ValidatingWebhookConfiguration, with kube-apiserver's
 * defaults filled in (failurePolicy `Fail`, matchPolicy `Equivalent`, empty selectors,
 * timeoutSeconds 10, reinvocationPolicy `Never`, rule scope `*`, service port 443).
 */
export interface Webhook {
  /** Which configuration kind it comes from. */
  type: 'mutating' | 'validating';
  /** The name of the configuration object that holds it. */
  configurationName: string;
  /** Its position in the configuration's `webhooks`. */
  index: number;
  /** A key unique among all webhooks of its type: `<configuration>/<index>`. */
  uid: string;
  name: string;
  clientConfig: WebhookClientConfig;
  rules: WebhookRule[];
  failurePolicy: 'Fail' | 'Ignore';
  matchPolicy: 'Exact' | 'Equivalent';
  namespaceSelector: LabelSelector;
  objectSelector: LabelSelector;
  /** `None`, `NoneOnDryRun`, `Some`, `Unknown`, or undefined when the configuration has none. */
  sideEffects: string | undefined;
  timeoutSeconds: number;
  admissionReviewVersions: string[];
  /** `Never` or `IfNeeded`; always `Never` for validating webhooks. */
  reinvocationPolicy: 'Never' | 'IfNeeded';
  /** CEL match conditions, kept only to be reported: they are not evaluated. */
  matchConditions: unknown[];
}

/** The storage keys of the two configuration resources. */
export const webhookConfigurationKeys = {
  mutating: 'admissionregistration.k8s.io/mutatingwebhookconfigurations',
  validating: 'admissionregistration.k8s.io/validatingwebhookconfigurations',
} as const;

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

function parseRule(value: unknown): WebhookRule | undefined {
  if (!isJsonObject(value)) return undefined;
  return {
    operations: strings(value.operations),
    apiGroups: strings(value.apiGroups),
    apiVersions: strings(value.apiVersions),
    resources: strings(value.resources),
    scope: typeof value.scope === 'string' && value.scope !== '' ? value.scope : '*',
  };
}

function parseClientConfig(value: unknown): WebhookClientConfig {
  const config: WebhookClientConfig = {};
  if (!isJsonObject(value)) return config;
  if (typeof value.url === 'string') config.url = value.url;
  if (isJsonObject(value.service)) {
    const service = value.service;
    config.service = {
      namespace: typeof service.namespace === 'string' ? service.namespace : '',
      name: typeof service.name === 'string' ? service.name : '',
      port: typeof service.port === 'number' ? service.port : 443,
    };
    if (typeof service.path === 'string') config.service.path = service.path;
  }
  if (typeof value.caBundle === 'string' && value.caBundle !== '') config.caBundle = value.caBundle;
  return config;
}

/**
 * The webhooks of one configuration object, defaulted as kube-apiserver defaults them.
 * Entries that are not objects are skipped; nothing here throws.
 */
export function webhooksOf(type: Webhook['type'], configuration: KubernetesObject): Webhook[] {
  const configurationName = configuration.metadata?.name ?? '';
  const items = Array.isArray(configuration.webhooks) ? (configuration.webhooks as unknown[]) : [];
  const webhooks: Webhook[] = [];
  items.forEach((item, index) => {
    if (!isJsonObject(item)) return;
    const selector = (value: unknown): LabelSelector =>
      isJsonObject(value) ? (value as LabelSelector) : {};
    const timeout = item.timeoutSeconds;
    webhooks.push({
      type,
      configurationName,
      index,
      uid: `${configurationName}/${index}`,
      name: typeof item.name === 'string' ? item.name : '',
      clientConfig: parseClientConfig(item.clientConfig),
      rules: (Array.isArray(item.rules) ? item.rules : [])
        .map(parseRule)
        .filter((rule): rule is WebhookRule => rule !== undefined),
      failurePolicy: item.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail',
      matchPolicy: item.matchPolicy === 'Exact' ? 'Exact' : 'Equivalent',
      namespaceSelector: selector(item.namespaceSelector),
      objectSelector: selector(item.objectSelector),
      sideEffects: typeof item.sideEffects === 'string' ? item.sideEffects : undefined,
      timeoutSeconds: typeof timeout === 'number' && timeout > 0 ? timeout : 10,
      admissionReviewVersions: strings(item.admissionReviewVersions),
      reinvocationPolicy:
        type === 'mutating' && item.reinvocationPolicy === 'IfNeeded' ? 'IfNeeded' : 'Never',
      matchConditions: Array.isArray(item.matchConditions) ? item.matchConditions : [],
    });
  });
  return webhooks;
}

/**
 * Every webhook of one type as stored right now, in kube-apiserver's order: configurations
 * sorted by name, then each configuration's webhooks in order. Configurations being deleted
 * (with a deletionTimestamp) still count, as they do in kube-apiserver until removed.
 */
export function readWebhooks(store: ObjectStore, type: Webhook['type']): Webhook[] {
  const configurations = store.list(webhookConfigurationKeys[type]).map((stored) => stored.object);
  configurations.sort((a, b) => {
    const left = a.metadata?.name ?? '';
    const right = b.metadata?.name ?? '';
    return left < right ? -1 : left > right ? 1 : 0;
  });
  return configurations.flatMap((configuration) => webhooksOf(type, configuration));
}
