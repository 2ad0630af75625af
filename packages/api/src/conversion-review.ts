/**
 * `apiextensions.k8s.io/v1` `ConversionReview`, the wire format between kube-apiserver and a
 * CRD's conversion webhook. `@ops/core`'s webhook server answers it; the local API server
 * (`@ops/apiserver`) sends it, as kube-apiserver does.
 */

import type { KubernetesObject } from './kubernetes-object.js';
import type { Status } from './status.js';

/** The `apiVersion` of every ConversionReview this project sends or answers. */
export const conversionReviewApiVersion = 'apiextensions.k8s.io/v1';

/** What the API server asks: convert `objects` to `desiredAPIVersion`. */
export interface ConversionRequest {
  /** Identifies this call; the response echoes it. */
  uid: string;
  /** `group/version` every object must be converted to: `myjob.github.com/v1`. */
  desiredAPIVersion: string;
  /** The objects, each in its own (source) version; they may differ from one another. */
  objects: KubernetesObject[];
}

/**
 * The webhook's answer. With `result.status: 'Success'`, `convertedObjects` holds one object
 * per request object, in the same order, each in `desiredAPIVersion`, with the same
 * `metadata` but for labels and annotations. With `'Failure'`, `result.message` says which
 * object failed and why; the API server fails the whole request with it.
 */
export interface ConversionResponse {
  /** The request's `uid`. */
  uid: string;
  convertedObjects: KubernetesObject[];
  result: Status;
}

/** A ConversionReview: a `request` from the API server, a `response` from the webhook. */
export interface ConversionReview {
  apiVersion: typeof conversionReviewApiVersion;
  kind: 'ConversionReview';
  request?: ConversionRequest;
  response?: ConversionResponse;
}
