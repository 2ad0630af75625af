/**
 * How the server answers when a custom resource must be converted by its CRD's conversion
 * webhook and cannot be: kube-apiserver's errors for each place a conversion happens (the
 * request's body, a read from storage, a list, the answer to a write).
 */
import type { KubernetesObject } from '@ops/api';
import { StatusError } from '../../api/status-error.js';
import { ConversionError } from '../../conversion/conversion-error.js';
import {
  apiVersionOf,
  type ConversionWebhook,
  type ResourceType,
} from '../../registry/resource-type.js';

/**
 * Where a conversion happened, which decides kube-apiserver's error: `request` (a body sent
 * in a version other than storage's, or the stored object brought to the request's version
 * for a patch), `read` (a get or watch: a storage read error), `write` (the answer to a write,
 * read back after it was stored).
 */
export type ConversionPlace = 'request' | 'read' | 'write';

/** A custom resource type served at a version its CRD's conversion webhook converts. */
export type WebhookConvertedType = ResourceType & { conversionWebhook: ConversionWebhook };

/**
 * Whether objects of `type` go through its CRD's conversion webhook between the version it
 * is served at and the storage version (`spec.conversion.strategy: Webhook`, and a version
 * other than the storage version).
 */
export function convertsByWebhook(type: ResourceType): type is WebhookConvertedType {
  return type.conversionWebhook !== undefined && type.version !== type.storageVersion;
}

/**
 * `type` at its storage version, with the storage version's schema: what a write converted
 * by the webhook is defaulted, validated and stored as. `type` itself when it is not
 * converted by a webhook.
 */
export function storageTypeOf(type: ResourceType): ResourceType {
  if (!convertsByWebhook(type)) return type;
  const { schema: _requestSchema, ...rest } = type;
  return {
    ...rest,
    version: type.storageVersion,
    ...(type.storageSchema ? { schema: type.storageSchema } : {}),
  };
}

/** The key kube-apiserver's storage names an object by (`/registry` first in list errors). */
function storageKey(type: ResourceType, object: KubernetesObject, registry: boolean): string {
  const meta = object.metadata ?? {};
  const key = type.namespaced ? `${meta.namespace ?? ''}/${meta.name ?? ''}` : (meta.name ?? '');
  return `${registry ? '/registry' : ''}/${type.group}/${type.plural}/${key}`;
}

/** etcd3 storage's decode error, quoting the conversion's. */
function notDecodable(object: KubernetesObject, error: ConversionError): string {
  return `object not decodable revision=${object.metadata?.resourceVersion ?? '0'}: ${error.message}`;
}

/** storage's `corrupt object` error of an object whose conversion failed. */
function corruptObject(
  type: ResourceType,
  object: KubernetesObject,
  error: ConversionError,
  registry: boolean,
): string {
  return `StorageError: corrupt object, Code: 7, Key: ${storageKey(type, object, registry)}, ResourceVersion: 0, AdditionalErrorMsg: ${notDecodable(object, error)}`;
}

/**
 * kube-apiserver's answer to a conversion that failed at `place`: a `request` is a 500 with
 * the converter's message and no reason; a `read` a 500 InternalError (`Internal error
 * occurred: StorageError: corrupt object, ... object not decodable revision=<rv>: ...`); a
 * `write` a 500 without reason (`object not decodable revision=<rv>: ...`). Errors other than
 * a {@link ConversionError} are returned as they are.
 */
export function conversionFailure(
  type: ResourceType,
  object: KubernetesObject,
  error: unknown,
  place: ConversionPlace,
): unknown {
  if (!ConversionError.isInstance(error)) return error;
  if (place === 'request') return StatusError.unknown(error.message);
  if (place === 'write') return StatusError.unknown(notDecodable(object, error));
  return StatusError.internal(corruptObject(type, object, error, false));
}

/**
 * kube-apiserver's answer to a list some of whose objects could not be converted: 500
 * `StorageReadError`, the first failure in the message (`(and N more)`), one
 * `UnexpectedServerResponse` cause per object in key order.
 */
export function listConversionFailure(
  type: ResourceType,
  failures: ReadonlyArray<{ object: KubernetesObject; error: ConversionError }>,
): StatusError {
  const causes = failures.map(({ object, error }) => ({
    reason: 'UnexpectedServerResponse',
    message: corruptObject(type, object, error, true),
    field: storageKey(type, object, true),
  }));
  const more = failures.length > 1 ? ` (and ${failures.length - 1} more)` : '';
  return new StatusError(
    500,
    'StorageReadError',
    `failed to read one or more ${type.plural}.${type.group} from the storage: ${causes[0]?.message ?? ''}${more}`,
    { name: 'list', group: type.group, kind: type.plural, causes },
  );
}

/**
 * The object as served at `type`'s version (custom resources may be served at several) without
 * a conversion webhook: `apiVersion` rewritten. Where a webhook may convert, use the resource
 * service's `served`.
 */
export function presentAt(type: ResourceType, object: KubernetesObject): KubernetesObject {
  const apiVersion = apiVersionOf(type);
  if (object.apiVersion === apiVersion) return object;
  return { ...object, apiVersion };
}
