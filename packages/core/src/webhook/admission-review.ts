/**
 * The wire types of `admission.k8s.io/v1`: what kube-apiserver POSTs to an admission webhook
 * and what the webhook answers. They are plain JSON; fields the runtime does not read are
 * carried along untouched.
 */

import type { KubernetesObject, Status, UserInfo } from '@ops/api';

/** The `apiVersion` of every AdmissionReview this server accepts and sends. */
export const admissionReviewApiVersion = 'admission.k8s.io/v1';

/** The operation being admitted. `CONNECT` covers `exec`, `attach`, `portforward`, `proxy`. */
export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/** Every {@link AdmissionOperation}, in the order the API lists them. */
export const admissionOperations: readonly AdmissionOperation[] = [
  'CREATE',
  'UPDATE',
  'DELETE',
  'CONNECT',
];

/** A kind of object (`metav1.GroupVersionKind`); `group` is `''` for the core group. */
export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/** A resource of the API (`metav1.GroupVersionResource`); `group` is `''` for the core group. */
export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

/** `AdmissionReview.request`: the request kube-apiserver asks the webhook to admit. */
export interface AdmissionRequest {
  /** Identifies this admission call; the response must echo it. */
  uid: string;
  /** Kind of the object as sent to the webhook (after conversion to a version it accepts). */
  kind: GroupVersionKind;
  /** Resource being requested, in the version sent to the webhook. */
  resource: GroupVersionResource;
  /** Subresource being requested, if any (`status`, `scale`, `exec`, ...). */
  subResource?: string;
  /** Kind of the object in the original API request, which may differ from {@link kind}. */
  requestKind?: GroupVersionKind;
  /** Resource of the original API request, which may differ from {@link resource}. */
  requestResource?: GroupVersionResource;
  /** Subresource of the original API request. */
  requestSubResource?: string;
  /** Name of the object; empty on CREATE with `generateName`. */
  name?: string;
  /** Namespace of the object; empty for cluster-scoped objects. */
  namespace?: string;
  operation: AdmissionOperation;
  /** Who made the request (`authentication.k8s.io/v1` `UserInfo`, from `@ops/api`). */
  userInfo: UserInfo;
  /** The object after the request: absent on DELETE; the options object on CONNECT. */
  object?: KubernetesObject | null;
  /** The object before the request: set on UPDATE and on DELETE (the object being deleted). */
  oldObject?: KubernetesObject | null;
  /** True when the request will not be persisted; side effects must then be skipped. */
  dryRun?: boolean;
  /** The operation's options (`CreateOptions`, `UpdateOptions`, `DeleteOptions`, ...). */
  options?: KubernetesObject | null;
}

/** `AdmissionReview.response`: the webhook's decision. */
export interface AdmissionResponse {
  /** The {@link AdmissionRequest.uid} being answered. */
  uid: string;
  allowed: boolean;
  /** Why the request was denied; ignored by kube-apiserver when `allowed` is true. */
  status?: Status;
  /** Base64 of a JSON array of RFC 6902 operations to apply (mutating webhooks only). */
  patch?: string;
  /** The format of {@link patch}; only `JSONPatch` exists. */
  patchType?: 'JSONPatch';
  /** Annotations kube-apiserver adds to the audit event, keys prefixed with the webhook's name. */
  auditAnnotations?: Record<string, string>;
  /** Warnings kube-apiserver returns to the client (`Warning:` lines in kubectl). */
  warnings?: string[];
}

/** The envelope kube-apiserver sends (`request` set) and expects back (`response` set). */
export interface AdmissionReview {
  apiVersion: typeof admissionReviewApiVersion;
  kind: 'AdmissionReview';
  request?: AdmissionRequest;
  response?: AdmissionResponse;
}
