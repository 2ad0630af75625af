import { randomUUID } from 'node:crypto';
import type { KubernetesObject } from '@ops/api';
import { StatusError } from '../api/status-error.js';
import { apiVersionOf } from '../registry/resource-type.js';
import type { ObjectStore } from '../store/object-store.js';
import { createServingCertificates } from '../tls/certificates.js';
import type { Admission, AdmissionAttributes } from './admission.js';
import {
  chooseReviewVersion,
  createAdmissionReview,
  presentAt,
  type VerifiedResponse,
  verifyAdmissionResponse,
} from './admission-review.js';
import { WebhookAgents } from './webhook-agents.js';
import { WebhookCallError } from './webhook-call-error.js';
import { callWebhook } from './webhook-client.js';
import { readWebhooks, type Webhook } from './webhook-configuration.js';
import { dryRunUnsupported, webhookDenied } from './webhook-denial.js';
import {
  type AdmissionSubject,
  isExemptFromWebhooks,
  type MatchLookups,
  matchWebhook,
  type WebhookInvocation,
} from './webhook-matcher.js';
import { applyWebhookPatch, decodeWebhookPatch } from './webhook-patch.js';

/** Options of a {@link WebhookAdmission}. */
export interface WebhookAdmissionOptions {
  /** Where webhook configurations, Namespaces, Services and Endpoints are read from. */
  store: ObjectStore;
  /**
   * Every version a resource is served at, for `matchPolicy: Equivalent` (custom resources
   * may be served at several). Absent: a rule matches only at the request's version.
   */
  servedVersions?: (group: string, plural: string) => readonly string[];
  /** The kept-alive connections to the webhooks. Default: a new {@link WebhookAgents}. */
  agents?: WebhookAgents;
}

/**
 * kube-apiserver's MutatingAdmissionWebhook and ValidatingAdmissionWebhook plugins for the
 * local server. Configurations are read from the store on every write, so a created, changed
 * or deleted configuration takes effect at once. Writes of the admission configuration kinds
 * themselves never go through webhooks.
 *
 * - `mutate` calls the matching mutating webhooks one after another, configurations in name
 *   order and webhooks in their order, each seeing the object as the previous ones left it;
 *   JSON patches are applied. When a webhook changes the object, the webhooks with
 *   `reinvocationPolicy: IfNeeded` called before it are called once more, in order, after
 *   the first pass.
 * - `validate` calls the matching validating webhooks in parallel; any denial or failure
 *   denies (the first in configuration order is reported).
 * - A denial becomes kube-apiserver's `admission webhook "<name>" denied the request: ...`
 *   error. A webhook that cannot be called (refused, TLS, timeout, non-2xx, bad answer) is
 *   skipped under `failurePolicy: Ignore` and is a 500 `Internal error occurred: failed
 *   calling webhook "<name>": ...` under `Fail`.
 * - Dry-run writes only call webhooks whose sideEffects are `None` or `NoneOnDryRun`; any
 *   other is a 400 `admission webhook "<name>" does not support dry run`.
 * - Warnings the webhooks return are appended (once each) to `attributes.warnings` when the
 *   caller passes that array.
 * - Connections to a webhook are kept alive between calls ({@link WebhookAgents}: one agent
 *   per target and CA bundle, so a rotated `caBundle` gets new connections); {@link close}
 *   closes them.
 *
 * Not supported: `matchConditions` (CEL) are not evaluated — a webhook that has them is
 * called as if they all held; DELETE requests carry the object as `oldObject` and `object`
 * null, and a mutating webhook's patch on them is an error, as in kube-apiserver.
 */
export class WebhookAdmission implements Admission {
  private readonly store: ObjectStore;
  private readonly lookups: MatchLookups;
  private readonly cutWebhooks = new Set<string>();
  private allCut = false;
  private foreignCa: Promise<string> | undefined;
  private readonly agents: WebhookAgents;

  constructor(options: WebhookAdmissionOptions) {
    this.store = options.store;
    this.agents = options.agents ?? new WebhookAgents();
    const servedVersions = options.servedVersions;
    this.lookups = {
      namespaceLabels: (name) => {
        const namespace = this.store.get('/namespaces', name);
        if (namespace === undefined) return undefined;
        return namespace.object.metadata?.labels ?? {};
      },
      ...(servedVersions !== undefined ? { servedVersions } : {}),
    };
  }

  /**
   * Fault injection: from now on, calls to the webhook named `webhookName` (to every webhook
   * when omitted) fail TLS verification, as if its serving certificate were signed by an
   * unknown authority, until {@link restoreTls}.
   */
  cutTls(webhookName?: string): void {
    if (webhookName === undefined) this.allCut = true;
    else this.cutWebhooks.add(webhookName);
  }

  /** Ends every {@link cutTls}. */
  restoreTls(): void {
    this.allCut = false;
    this.cutWebhooks.clear();
  }

  /**
   * Closes every connection to the webhooks (the server is stopping); a write that would
   * call a webhook afterwards fails as a call that cannot connect does.
   */
  close(): void {
    this.agents.close();
  }

  /** The webhook names whose TLS is cut, and whether every webhook's is. */
  tlsCuts(): { all: boolean; webhooks: string[] } {
    return { all: this.allCut, webhooks: [...this.cutWebhooks] };
  }

  /**
   * Runs the mutating webhooks and returns the object they produced (`object` itself when no
   * webhook applies or none changed it; `object` is never modified).
   *
   * @throws {StatusError} a webhook's denial, a 500 for a webhook that failed under
   *   `failurePolicy: Fail` or whose patch does not apply, a 400 for a dry run a webhook does
   *   not support, a 404 when the namespaceSelector needs a Namespace that does not exist.
   */
  async mutate(
    attributes: AdmissionAttributes,
    object: KubernetesObject,
    old: KubernetesObject | undefined,
  ): Promise<KubernetesObject> {
    if (isExemptFromWebhooks(attributes.type)) return object;
    const webhooks = readWebhooks(this.store, 'mutating');
    if (webhooks.length === 0) return object;
    const deleting = attributes.operation === 'DELETE';
    let current: KubernetesObject | undefined = deleting ? undefined : object;
    const before = deleting ? (old ?? object) : old;
    const previouslyInvoked = new Set<string>();
    const reinvoke = new Set<string>();
    for (const round of [0, 1]) {
      if (round === 1 && reinvoke.size === 0) break;
      for (const webhook of webhooks) {
        const invocation = matchWebhook(
          webhook,
          { attributes, object: current, old: before },
          this.lookups,
        );
        if (invocation === undefined) continue;
        if (round === 1 && !reinvoke.has(webhook.uid)) continue;
        const patched = await this.callMutating(invocation, {
          attributes,
          object: current,
          old: before,
        });
        if (patched !== undefined) {
          current = patched;
          for (const uid of previouslyInvoked) reinvoke.add(uid);
          previouslyInvoked.clear();
        }
        if (webhook.reinvocationPolicy === 'IfNeeded') previouslyInvoked.add(webhook.uid);
      }
    }
    return current ?? object;
  }

  /**
   * Runs the validating webhooks, in parallel, and resolves when all admit the write.
   *
   * @throws {StatusError} the first denial or failure in configuration order: a webhook's
   *   denial, a 500 for a webhook that failed under `failurePolicy: Fail`, a 400 for a dry
   *   run a webhook does not support, a 404 when the namespaceSelector needs a Namespace
   *   that does not exist.
   */
  async validate(
    attributes: AdmissionAttributes,
    object: KubernetesObject,
    old: KubernetesObject | undefined,
  ): Promise<void> {
    if (isExemptFromWebhooks(attributes.type)) return;
    const webhooks = readWebhooks(this.store, 'validating');
    if (webhooks.length === 0) return;
    const deleting = attributes.operation === 'DELETE';
    const subject: AdmissionSubject = {
      attributes,
      object: deleting ? undefined : object,
      old: deleting ? (old ?? object) : old,
    };
    const invocations: WebhookInvocation[] = [];
    for (const webhook of webhooks) {
      const invocation = matchWebhook(webhook, subject, this.lookups);
      if (invocation !== undefined) invocations.push(invocation);
    }
    const outcomes = await Promise.allSettled(
      invocations.map((invocation) => this.callValidating(invocation, subject)),
    );
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') throw outcome.reason;
    }
  }

  private async callValidating(
    invocation: WebhookInvocation,
    subject: AdmissionSubject,
  ): Promise<void> {
    const { webhook } = invocation;
    try {
      const response = await this.call(invocation, subject, false);
      if (!response.allowed) throw webhookDenied(webhook.name, response.status);
    } catch (error) {
      this.rethrowUnlessIgnored(webhook, error);
    }
  }

  /** Calls one mutating webhook; returns the patched object, or undefined when unchanged. */
  private async callMutating(
    invocation: WebhookInvocation,
    subject: AdmissionSubject,
  ): Promise<KubernetesObject | undefined> {
    const { webhook } = invocation;
    try {
      const response = await this.call(invocation, subject, true);
      if (!response.allowed) throw webhookDenied(webhook.name, response.status);
      if (response.patch === undefined) return undefined;
      const operations = decodeWebhookPatch(webhook.name, response.patch);
      if (response.patchType !== 'JSONPatch') {
        throw new WebhookCallError(
          webhook.name,
          `unsupported patch type ${JSON.stringify(response.patchType ?? '')}`,
        );
      }
      const type = subject.attributes.type;
      const apiVersion = apiVersionOf({ group: type.group, version: invocation.version });
      const original = subject.object;
      const result = applyWebhookPatch(
        webhook.name,
        original === undefined ? undefined : presentAt(original, apiVersion),
        operations,
      );
      if (result === undefined || !result.changed || original === undefined) return undefined;
      if (result.object.apiVersion === apiVersion && original.apiVersion !== undefined) {
        result.object.apiVersion = original.apiVersion;
      }
      return result.object;
    } catch (error) {
      this.rethrowUnlessIgnored(webhook, error);
      return undefined;
    }
  }

  /**
   * Decides about an error of a call: a {@link WebhookCallError} is dropped under
   * `failurePolicy: Ignore` and becomes a 500 InternalError under `Fail`; anything else (a
   * denial, a patch that does not apply) is thrown as it is.
   */
  private rethrowUnlessIgnored(webhook: Webhook, error: unknown): void {
    if (!WebhookCallError.isInstance(error)) throw error;
    if (webhook.failurePolicy === 'Ignore') return;
    throw StatusError.internal(error.message);
  }

  /** Builds the review, posts it, verifies the answer and records its warnings. */
  private async call(
    invocation: WebhookInvocation,
    subject: AdmissionSubject,
    mutating: boolean,
  ): Promise<VerifiedResponse> {
    const { webhook } = invocation;
    const { attributes } = subject;
    if (attributes.dryRun) {
      if (webhook.sideEffects === undefined) {
        throw new WebhookCallError(webhook.name, 'Webhook SideEffects is nil');
      }
      if (webhook.sideEffects !== 'None' && webhook.sideEffects !== 'NoneOnDryRun') {
        throw dryRunUnsupported(webhook.name);
      }
    }
    const version = chooseReviewVersion(webhook.admissionReviewVersions);
    if (version === undefined) {
      throw new WebhookCallError(
        webhook.name,
        'could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)',
      );
    }
    const uid = randomUUID();
    const review = createAdmissionReview(version, {
      uid,
      attributes,
      version: invocation.version,
      object: subject.object,
      old: subject.old,
    });
    const cut = this.allCut || this.cutWebhooks.has(webhook.name);
    const answer = await callWebhook({
      webhook,
      body: JSON.stringify(review),
      store: this.store,
      agents: this.agents,
      ...(cut ? { caOverride: await this.foreignAuthority() } : {}),
    });
    const response = verifyAdmissionResponse(webhook.name, version, uid, mutating, answer);
    if (attributes.warnings !== undefined) {
      for (const warning of response.warnings) {
        if (!attributes.warnings.includes(warning)) attributes.warnings.push(warning);
      }
    }
    return response;
  }

  /** A CA that signed no webhook's certificate: verifying against it always fails. */
  private foreignAuthority(): Promise<string> {
    this.foreignCa ??= createServingCertificates(['tls-cut.invalid']).then((pair) => pair.caCert);
    return this.foreignCa;
  }
}
