import { randomUUID } from 'node:crypto';
import { isJsonObject, type KubernetesObject } from '@ops/api';
import { WebhookAgents } from '../admission/webhook-agents.js';
import { WebhookCallError } from '../admission/webhook-call-error.js';
import { callWebhook } from '../admission/webhook-client.js';
import { formatFieldErrors } from '../api/field-error.js';
import { annotationErrors, labelErrors } from '../meta/object-metadata.js';
import type { ConversionWebhook } from '../registry/resource-type.js';
import type { ObjectStore } from '../store/object-store.js';
import { ConversionError } from './conversion-error.js';
import {
  chooseConversionReviewVersion,
  convertedObjectsOf,
  createConversionReview,
  goGroupVersion,
  goGroupVersionKind,
} from './conversion-review.js';

/** How long kube-apiserver waits for a conversion webhook (sent as `?timeout=30s`). */
export const conversionTimeoutSeconds = 30;

/** Options of a {@link WebhookConverter}. */
export interface WebhookConverterOptions {
  /** Where Services and Endpoints are read from, for webhooks configured by `service`. */
  store: ObjectStore;
  /** The kept-alive connections to the webhooks. Default: a new {@link WebhookAgents}. */
  agents?: WebhookAgents;
}

type Json = Record<string, unknown>;

/**
 * kube-apiserver's webhook converter for custom resources: posts a `ConversionReview` to a
 * CRD's conversion webhook (its `url`, or its `service` routed through the Service's
 * Endpoints; verified against its `caBundle`; within {@link conversionTimeoutSeconds}) and
 * checks the answer as kube-apiserver does, one object per call.
 *
 * Guarantees: the object returned has the desired `apiVersion`, the original's `kind`, and
 * the original's `metadata` except `labels` and `annotations`, which are the webhook's (and
 * valid); the original is never modified.
 */
export class WebhookConverter {
  private readonly store: ObjectStore;
  private readonly agents: WebhookAgents;

  constructor(options: WebhookConverterOptions) {
    this.store = options.store;
    this.agents = options.agents ?? new WebhookAgents();
  }

  /**
   * `object` converted to `desiredAPIVersion` by `webhook`; `object` itself, without a call,
   * when it already is at that version.
   *
   * @throws {ConversionError} worded as kube-apiserver's converter, naming the version
   *   converted from: the webhook could not be called (`conversion webhook for g/v, Kind=K
   *   failed: Post "<url>?timeout=30s": ...`), refused (its result's message), answered
   *   another uid or kind of review, a number of objects other than one (`returned 0
   *   objects, expected 1`), or an object of another version, kind, name, namespace or uid,
   *   or with invalid labels or annotations.
   */
  async convert(
    webhook: ConversionWebhook,
    object: KubernetesObject,
    desiredAPIVersion: string,
  ): Promise<KubernetesObject> {
    if (object.apiVersion === desiredAPIVersion) return object;
    const gvk = goGroupVersionKind(object.apiVersion, object.kind);
    const failed = (why: string) => new ConversionError(`conversion webhook for ${gvk} ${why}`);
    const version = chooseConversionReviewVersion(webhook.conversionReviewVersions);
    if (version === undefined) throw new ConversionError('no supported conversion review versions');
    const uid = randomUUID();
    let answer: unknown;
    try {
      answer = await callWebhook({
        webhook: {
          name: `conversion_webhook_for_${webhook.crdName}`,
          clientConfig: webhook.clientConfig,
          timeoutSeconds: conversionTimeoutSeconds,
        },
        body: JSON.stringify(createConversionReview(version, uid, desiredAPIVersion, [object])),
        store: this.store,
        agents: this.agents,
      });
    } catch (error) {
      if (!WebhookCallError.isInstance(error)) throw error;
      throw failed(`failed: ${error.clientError}`);
    }
    let converted: unknown[];
    try {
      converted = convertedObjectsOf(version, uid, answer);
    } catch (error) {
      throw failed(`failed: ${(error as Error).message}`);
    }
    if (converted.length !== 1) throw failed(`returned ${converted.length} objects, expected 1`);
    const result = converted[0];
    if (!isJsonObject(result)) {
      throw failed(
        `returned invalid object at index 0: the object is ${goTypeOf(result)}, not a JSON object`,
      );
    }
    const atIndex = (why: string) => failed(`returned invalid object at index 0: ${why}`);
    const expectedGroupVersion = goGroupVersion(desiredAPIVersion);
    const receivedGroupVersion = goGroupVersion(result.apiVersion);
    if (receivedGroupVersion !== expectedGroupVersion) {
      throw atIndex(
        `invalid groupVersion (expected ${expectedGroupVersion}, received ${receivedGroupVersion})`,
      );
    }
    const kind = typeof result.kind === 'string' ? result.kind : '';
    if (kind !== (object.kind ?? '')) {
      throw atIndex(`invalid kind (expected ${object.kind ?? ''}, received ${kind})`);
    }
    const metadata = isJsonObject(result.metadata) ? result.metadata : {};
    for (const field of ['name', 'namespace', 'uid'] as const) {
      const before = object.metadata?.[field] ?? '';
      const after = typeof metadata[field] === 'string' ? metadata[field] : '';
      if (before !== after) {
        const label = field === 'uid' ? 'UID' : field;
        throw failed(`returned invalid object: must have the same ${label}: ${before} != ${after}`);
      }
    }
    try {
      return { ...result, metadata: restoredMetadata(object, result) } as KubernetesObject;
    } catch (error) {
      throw failed(`returned invalid metadata: ${(error as Error).message}`);
    }
  }

  /** Closes every connection to the webhooks. */
  close(): void {
    this.agents.close();
  }
}

/**
 * The original's metadata with the converted object's labels and annotations, as
 * kube-apiserver restores it (a webhook may change only those two).
 *
 * @throws {Error} when the converted object has no metadata, labels or annotations that are
 *   not maps of strings, or changed ones that are not valid.
 */
function restoredMetadata(original: KubernetesObject, converted: Json): Json {
  const answered = converted.metadata;
  if (answered === undefined) throw new Error('missing metadata in converted object');
  if (!isJsonObject(answered)) {
    throw new Error(`invalid metadata of type ${goTypeOf(answered)} in converted object`);
  }
  const metadata = structuredClone((original.metadata ?? {}) as Json);
  for (const field of ['labels', 'annotations'] as const) {
    const value = answered[field];
    if (value === undefined || value === null) {
      delete metadata[field];
      continue;
    }
    if (!isJsonObject(value)) {
      throw new Error(`invalid metadata.${field} of type ${goTypeOf(value)} in converted object`);
    }
    const before = (metadata[field] ?? {}) as Json;
    let changed = Object.keys(before).length !== Object.keys(value).length;
    for (const [key, item] of Object.entries(value)) {
      if (typeof item !== 'string') {
        throw new Error(
          `metadata.${field}[${key}] must be a string, but is ${goTypeOf(item)} in converted object`,
        );
      }
      if (before[key] !== item) changed = true;
    }
    if (changed) {
      // kube-apiserver's converter names the annotations' path `metadata.annotation`.
      const errors =
        field === 'labels'
          ? labelErrors(value, 'metadata.labels')
          : annotationErrors(value, 'metadata.annotation');
      if (errors.length > 0) throw new Error(formatFieldErrors(errors));
    }
    metadata[field] = value;
  }
  return metadata;
}

/** Go's `%T` of a JSON value as `encoding/json` decodes it into `interface{}`. */
function goTypeOf(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int64' : 'float64';
  if (Array.isArray(value)) return '[]interface {}';
  return 'map[string]interface {}';
}
