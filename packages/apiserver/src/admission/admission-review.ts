import type { KubernetesObject, UserInfo } from '@ops/api';
import { isJsonObject } from '@ops/api';
import { apiVersionOf } from '../registry/resource-type.js';
import type { AdmissionAttributes } from '../server/admission.js';
import { WebhookCallError } from './webhook-call-error.js';
import { admissionNamespace } from './webhook-matcher.js';

type Json = Record<string, unknown>;

/** The AdmissionReview versions kube-apiserver can send, in the names webhooks list them. */
export type AdmissionReviewVersion = 'v1' | 'v1beta1';

/**
 * The version to call a webhook with: the first of its `admissionReviewVersions` that
 * kube-apiserver knows (`v1`, `v1beta1`), or undefined when it lists neither.
 */
export function chooseReviewVersion(
  versions: readonly string[],
): AdmissionReviewVersion | undefined {
  for (const version of versions) {
    if (version === 'v1' || version === 'v1beta1') return version;
  }
  return undefined;
}

/** What an AdmissionReview request is built from. */
export interface ReviewInput {
  uid: string;
  attributes: AdmissionAttributes;
  /** The version of the resource the webhook is called at (see `WebhookInvocation`). */
  version: string;
  /** The object after the write; undefined on DELETE. */
  object: KubernetesObject | undefined;
  /** The object before the write; undefined on CREATE. */
  old: KubernetesObject | undefined;
}

const optionsKinds: Partial<Record<AdmissionAttributes['operation'], string>> = {
  CREATE: 'CreateOptions',
  UPDATE: 'UpdateOptions',
  DELETE: 'DeleteOptions',
};

/** `object` as served at `apiVersion` (custom resources are stored at their storage version). */
export function presentAt(object: KubernetesObject, apiVersion: string): KubernetesObject {
  return object.apiVersion === apiVersion ? object : { ...object, apiVersion };
}

/**
 * The AdmissionReview kube-apiserver posts to a webhook (`admission.k8s.io/v1` or
 * `v1beta1`): `request` with the uid, the kind and resource at the invocation's version,
 * the request's own kind and resource, subresource, name, namespace, operation, the user,
 * `object` (null on DELETE) and `oldObject` (null on CREATE) at the invocation's version,
 * `dryRun`, and `options` (Create-, Update- or DeleteOptions, `meta.k8s.io/v1`; null for
 * CONNECT). Pure: the objects passed in are not modified.
 */
export function createAdmissionReview(version: AdmissionReviewVersion, input: ReviewInput): Json {
  const { attributes } = input;
  const { type } = attributes;
  const invocationApiVersion = apiVersionOf({ group: type.group, version: input.version });
  const optionsKind = optionsKinds[attributes.operation];
  const options: Json | null =
    optionsKind === undefined
      ? null
      : {
          ...attributes.options,
          kind: optionsKind,
          apiVersion: 'meta.k8s.io/v1',
          ...(attributes.dryRun && attributes.options.dryRun === undefined
            ? { dryRun: ['All'] }
            : {}),
        };
  const userInfo: UserInfo = { username: attributes.user.name };
  if (attributes.user.uid !== undefined) userInfo.uid = attributes.user.uid;
  if (attributes.user.groups.length > 0) userInfo.groups = [...attributes.user.groups];
  const subresource = attributes.subresource;
  return {
    apiVersion: `admission.k8s.io/${version}`,
    kind: 'AdmissionReview',
    request: {
      uid: input.uid,
      kind: { group: type.group, version: input.version, kind: type.kind },
      resource: { group: type.group, version: input.version, resource: type.plural },
      ...(subresource ? { subResource: subresource } : {}),
      requestKind: { group: type.group, version: type.version, kind: type.kind },
      requestResource: { group: type.group, version: type.version, resource: type.plural },
      ...(subresource ? { requestSubResource: subresource } : {}),
      name: attributes.name,
      namespace: admissionNamespace(attributes),
      operation: attributes.operation,
      userInfo,
      object: input.object === undefined ? null : presentAt(input.object, invocationApiVersion),
      oldObject: input.old === undefined ? null : presentAt(input.old, invocationApiVersion),
      dryRun: attributes.dryRun,
      options,
    },
  };
}

/** A webhook's answer, checked. */
export interface VerifiedResponse {
  allowed: boolean;
  /** Base64 of the JSON patch; only for mutating webhooks. */
  patch?: string;
  /** `JSONPatch` (the only type kube-apiserver applies) or whatever else the webhook sent. */
  patchType?: string;
  /** The `metav1.Status` sent with a denial. */
  status?: Json;
  warnings: string[];
}

const gvkString = (apiVersion: unknown, kind: unknown): string => {
  const text = typeof apiVersion === 'string' ? apiVersion : '';
  const slash = text.indexOf('/');
  const group = slash < 0 ? '' : text.slice(0, slash);
  const version = slash < 0 ? text : text.slice(slash + 1);
  return `${group}/${version}, Kind=${typeof kind === 'string' ? kind : ''}`;
};

const quote = (value: unknown): string => JSON.stringify(typeof value === 'string' ? value : '');

/**
 * Checks a decoded AdmissionReview answer as kube-apiserver's `VerifyAdmissionResponse`
 * does. For `v1`: `response` present, `response.uid` echoing `uid`, apiVersion/kind
 * `admission.k8s.io/v1` `AdmissionReview`; a mutating webhook sends `patch` and `patchType`
 * together or not at all; a validating webhook sends neither. For `v1beta1` only the
 * presence of `response` is checked and a patch is taken as a JSON patch.
 *
 * @throws {WebhookCallError} for `webhookName`, with kube-apiserver's wording:
 *   `received invalid webhook response: ` and the problem (`webhook response was absent`,
 *   `expected response.uid="…", got "…"`, ...).
 */
export function verifyAdmissionResponse(
  webhookName: string,
  version: AdmissionReviewVersion,
  uid: string,
  mutating: boolean,
  review: unknown,
): VerifiedResponse {
  const invalid = (problem: string) =>
    new WebhookCallError(webhookName, `received invalid webhook response: ${problem}`);
  const body = isJsonObject(review) ? review : {};
  const response = body.response;
  if (!isJsonObject(response)) throw invalid('webhook response was absent');
  const verified: VerifiedResponse = {
    allowed: response.allowed === true,
    warnings: Array.isArray(response.warnings)
      ? response.warnings.filter((warning): warning is string => typeof warning === 'string')
      : [],
  };
  if (isJsonObject(response.status)) verified.status = response.status;
  const patch =
    typeof response.patch === 'string' && response.patch !== '' ? response.patch : undefined;
  if (version === 'v1beta1') {
    if (mutating && patch !== undefined) {
      verified.patch = patch;
      verified.patchType = 'JSONPatch';
    }
    return verified;
  }
  if (response.uid !== uid) {
    throw invalid(`expected response.uid=${quote(uid)}, got ${quote(response.uid)}`);
  }
  if (body.apiVersion !== 'admission.k8s.io/v1' || body.kind !== 'AdmissionReview') {
    throw invalid(
      `expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${gvkString(body.apiVersion, body.kind)}`,
    );
  }
  const patchType = response.patchType;
  if (mutating) {
    if (patch !== undefined && (patchType === undefined || patchType === null)) {
      throw invalid('webhook returned response.patch but not response.patchType');
    }
    if (patch === undefined && patchType !== undefined && patchType !== null) {
      throw invalid('webhook returned response.patchType but not response.patch');
    }
    if (patch !== undefined) {
      if (typeof patchType !== 'string' || patchType === '') {
        throw invalid(`webhook returned invalid response.patchType of ${quote(patchType)}`);
      }
      verified.patch = patch;
      verified.patchType = patchType;
    }
    return verified;
  }
  if (patch !== undefined) throw invalid('validating webhook may not return response.patch');
  if (patchType !== undefined && patchType !== null) {
    throw invalid('validating webhook may not return response.patchType');
  }
  return verified;
}
