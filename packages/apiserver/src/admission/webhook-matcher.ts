import {
  type KubernetesObject,
  type LabelSelector,
  labelSelectorFromObject,
  type Selector,
} from '@ops/api';
import { StatusError } from '../api/status-error.js';
import type { ResourceType } from '../registry/resource-type.js';
import type { AdmissionAttributes } from './admission.js';
import type { Webhook, WebhookRule } from './webhook-configuration.js';

/** A write as the matcher sees it. `object` is undefined on DELETE, `old` on CREATE. */
export interface AdmissionSubject {
  attributes: AdmissionAttributes;
  object: KubernetesObject | undefined;
  old: KubernetesObject | undefined;
}

/** What matching needs to look up besides the write itself. */
export interface MatchLookups {
  /** The labels of a stored Namespace, or undefined when it does not exist. */
  namespaceLabels(name: string): Record<string, string> | undefined;
  /**
   * Every version the resource `group`/`plural` is served at, for `matchPolicy: Equivalent`.
   * Absent: only the request's own version.
   */
  servedVersions?(group: string, plural: string): readonly string[];
}

/** A webhook to call, and the version of the resource to call it with. */
export interface WebhookInvocation {
  webhook: Webhook;
  /**
   * The resource version the webhook asked for: the request's, or with
   * `matchPolicy: Equivalent` another served version of the same resource that a rule names.
   */
  version: string;
}

/** The request as rules see it: the resource, subresource, operation and namespace. */
export interface RuleSubject {
  group: string;
  version: string;
  resource: string;
  subresource: string;
  operation: string;
  /** kube-apiserver's request namespace: empty for cluster-scoped objects (see {@link admissionNamespace}). */
  namespace: string;
}

const exemptKinds = new Set([
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
  'MutatingAdmissionPolicy',
  'MutatingAdmissionPolicyBinding',
]);

/**
 * Whether writes of `type` skip webhooks entirely, as in kube-apiserver: the admission
 * configuration kinds of `admissionregistration.k8s.io`, so that a broken webhook can always
 * be removed.
 */
export function isExemptFromWebhooks(type: Pick<ResourceType, 'group' | 'kind'>): boolean {
  return type.group === 'admissionregistration.k8s.io' && exemptKinds.has(type.kind);
}

const isNamespaces = (type: Pick<ResourceType, 'group' | 'plural'>): boolean =>
  type.group === '' && type.plural === 'namespaces';

/**
 * The namespace kube-apiserver puts on a request: the object's namespace, empty for
 * cluster-scoped objects, and for a Namespace itself its own name (except on CREATE, which
 * is posted to the collection).
 */
export function admissionNamespace(attributes: AdmissionAttributes): string {
  if (isNamespaces(attributes.type))
    return attributes.operation === 'CREATE' ? '' : attributes.name;
  return attributes.namespace;
}

const exactOrWildcard = (items: readonly string[], requested: string): boolean =>
  items.some((item) => item === '*' || item === requested);

/**
 * Whether one rule matches a request, as kube-apiserver's rule matcher decides: scope,
 * operation (`*` for all), API group, API version and resource (`*`, `pods`, `pods/status`,
 * `*\/status`, `pods/*`; a plain `pods` does not match the `pods/status` subresource).
 */
export function ruleMatches(rule: WebhookRule, subject: RuleSubject): boolean {
  const namespaceObject = subject.group === '' && subject.resource === 'namespaces';
  if (rule.scope === 'Namespaced' && (namespaceObject || subject.namespace === '')) return false;
  if (rule.scope === 'Cluster' && !(namespaceObject || subject.namespace === '')) return false;
  if (rule.scope !== '*' && rule.scope !== 'Namespaced' && rule.scope !== 'Cluster') return false;
  if (!exactOrWildcard(rule.operations, subject.operation)) return false;
  if (!exactOrWildcard(rule.apiGroups, subject.group)) return false;
  if (!exactOrWildcard(rule.apiVersions, subject.version)) return false;
  return rule.resources.some((entry) => {
    const slash = entry.indexOf('/');
    const resource = slash < 0 ? entry : entry.slice(0, slash);
    const subresource = slash < 0 ? '' : entry.slice(slash + 1);
    return (
      (resource === '*' || resource === subject.resource) &&
      (subresource === '*' || subresource === subject.subresource)
    );
  });
}

function compile(selector: LabelSelector): Selector {
  try {
    return labelSelectorFromObject(selector);
  } catch (error) {
    throw StatusError.internal(error instanceof Error ? error.message : String(error));
  }
}

/**
 * Whether the webhook's namespaceSelector admits the write: always for cluster-scoped objects
 * other than Namespaces; for a Namespace being created or updated, its new labels; otherwise
 * the labels of the stored Namespace.
 *
 * @throws {StatusError} 404 when the Namespace does not exist; 500 for a selector that does
 *   not compile.
 */
function namespaceSelected(
  webhook: Webhook,
  subject: AdmissionSubject,
  lookups: MatchLookups,
): boolean {
  const { attributes } = subject;
  const namespace = admissionNamespace(attributes);
  if (namespace === '' && !isNamespaces(attributes.type)) return true;
  const selector = compile(webhook.namespaceSelector);
  if (selector.isEverything()) return true;
  if (
    isNamespaces(attributes.type) &&
    attributes.subresource === '' &&
    (attributes.operation === 'CREATE' || attributes.operation === 'UPDATE')
  ) {
    return selector.matches(subject.object?.metadata?.labels);
  }
  const labels = lookups.namespaceLabels(namespace);
  if (labels === undefined) {
    throw StatusError.notFound({ group: '', resource: 'namespaces', kind: 'Namespace' }, namespace);
  }
  return selector.matches(labels);
}

/** Whether the objectSelector matches the new object or the old one. */
function objectSelected(webhook: Webhook, subject: AdmissionSubject): boolean {
  const selector = compile(webhook.objectSelector);
  if (selector.isEverything()) return true;
  const matches = (object: KubernetesObject | undefined) =>
    object !== undefined && selector.matches(object.metadata?.labels);
  return matches(subject.object) || matches(subject.old);
}

/**
 * Whether `webhook` is to be called for a write, as kube-apiserver's `ShouldCallHook`
 * decides: namespaceSelector, objectSelector, then rules (exactly, then, with
 * `matchPolicy: Equivalent`, at the resource's other served versions). Selector errors only
 * count when a rule matches. `matchConditions` (CEL) are not evaluated: a webhook that has
 * them is called as if they all held.
 *
 * Returns the invocation, or undefined when the webhook does not apply (always undefined for
 * the exempt admission configuration kinds).
 *
 * @throws {StatusError} 404 when the object's Namespace does not exist and the
 *   namespaceSelector needs its labels; 500 for a selector that does not compile.
 */
export function matchWebhook(
  webhook: Webhook,
  subject: AdmissionSubject,
  lookups: MatchLookups,
): WebhookInvocation | undefined {
  const { attributes } = subject;
  if (isExemptFromWebhooks(attributes.type)) return undefined;
  let selectorError: unknown;
  for (const selected of [
    () => namespaceSelected(webhook, subject, lookups),
    () => objectSelected(webhook, subject),
  ]) {
    try {
      if (!selected()) return undefined;
    } catch (error) {
      selectorError ??= error;
    }
  }
  const request: RuleSubject = {
    group: attributes.type.group,
    version: attributes.type.version,
    resource: attributes.type.plural,
    subresource: attributes.subresource,
    operation: attributes.operation,
    namespace: admissionNamespace(attributes),
  };
  let version: string | undefined;
  if (webhook.rules.some((rule) => ruleMatches(rule, request))) {
    version = request.version;
  } else if (webhook.matchPolicy === 'Equivalent' && lookups.servedVersions !== undefined) {
    const others = lookups
      .servedVersions(request.group, request.resource)
      .filter((served) => served !== request.version);
    outer: for (const rule of webhook.rules) {
      for (const other of others) {
        if (ruleMatches(rule, { ...request, version: other })) {
          version = other;
          break outer;
        }
      }
    }
  }
  if (version === undefined) return undefined;
  if (selectorError !== undefined) throw selectorError;
  return { webhook, version };
}
