/**
 * Structural types for Kubernetes objects as they travel over the wire (plain JSON, so
 * timestamps are RFC 3339 strings). They describe only what the runtime reads; every other
 * field is carried along untouched.
 */

/** A reference from an object to one of its owners (`metadata.ownerReferences[]`). */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  /** True on at most one reference: the owner that manages this object. */
  controller?: boolean;
  /** With foreground deletion, the owner is not deleted before this object is. */
  blockOwnerDeletion?: boolean;
}

/** `metadata` of any Kubernetes object. */
export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: unknown[];
  [field: string]: unknown;
}

/** Any Kubernetes object: `apiVersion`, `kind`, `metadata`, and whatever else its kind has. */
export interface KubernetesObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  [field: string]: unknown;
}

/**
 * An object by its metadata only: what a metadata-only read or watch
 * (`Accept: application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1`) answers, as
 * `metav1.PartialObjectMetadata`. The server sends `kind: PartialObjectMetadata` and
 * `apiVersion: meta.k8s.io/v1`; `@ops/core`'s metadata-only informers store it under the
 * apiVersion and kind of the resource it describes, as controller-runtime does.
 */
export interface PartialObjectMetadata extends KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
}

/** One requirement of a {@link LabelSelector}'s `matchExpressions`. */
export interface LabelSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | (string & {});
  values?: string[];
}

/** The structured label selector of the Kubernetes API (`metav1.LabelSelector`). */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}
