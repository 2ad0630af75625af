import { isJsonObject, type KubernetesObject } from '@ops/api';

/** The `ConversionReview` versions kube-apiserver can send (apiextensions.k8s.io). */
export type ConversionReviewVersion = 'v1' | 'v1beta1';

/**
 * The first of a CRD's `conversionReviewVersions` that kube-apiserver speaks, as it chooses:
 * in the CRD's order, `v1` or `v1beta1`; undefined when the list names neither.
 */
export function chooseConversionReviewVersion(
  versions: readonly string[],
): ConversionReviewVersion | undefined {
  return versions.find((v): v is ConversionReviewVersion => v === 'v1' || v === 'v1beta1');
}

/**
 * The `ConversionReview` kube-apiserver posts: the objects to convert, the `apiVersion` to
 * convert them to and the request's uid, with the empty `response` its Go types serialize.
 */
export function createConversionReview(
  version: ConversionReviewVersion,
  uid: string,
  desiredAPIVersion: string,
  objects: readonly KubernetesObject[],
): Record<string, unknown> {
  return {
    kind: 'ConversionReview',
    apiVersion: `apiextensions.k8s.io/${version}`,
    request: { uid, desiredAPIVersion, objects },
    response: { uid: '', convertedObjects: null, result: { metadata: {} } },
  };
}

/**
 * Go's `GroupVersionKind.String()` of an object's `apiVersion` and `kind`:
 * `group/version, Kind=Kind` (`/v1, Kind=Pod` for the core group).
 */
export function goGroupVersionKind(apiVersion: unknown, kind: unknown): string {
  const [group, version] = splitApiVersion(apiVersion);
  return `${group}/${version}, Kind=${typeof kind === 'string' ? kind : ''}`;
}

/** Go's `GroupVersion.String()` of an `apiVersion`: `group/version`, or `version` alone. */
export function goGroupVersion(apiVersion: unknown): string {
  const [group, version] = splitApiVersion(apiVersion);
  return group === '' ? version : `${group}/${version}`;
}

function splitApiVersion(apiVersion: unknown): [string, string] {
  const text = typeof apiVersion === 'string' ? apiVersion : '';
  const slash = text.indexOf('/');
  return slash === -1 ? ['', text] : [text.slice(0, slash), text.slice(slash + 1)];
}

/**
 * The converted objects of a webhook's answer, checked as kube-apiserver checks them: for a
 * `v1` review, the answer must be an `apiextensions.k8s.io/v1` `ConversionReview` for the
 * request's `uid` (a `v1beta1` one is not checked for either, as kube-apiserver keeps it
 * compatible); there must be a `response`; its `result.status` must be `Success`.
 *
 * @throws {Error} with kube-apiserver's reason (without the `conversion webhook for ...
 *   failed: ` that the caller adds): `expected webhook response of ..., got ...`, `no
 *   response provided`, `expected response.uid="...", got "..."`, the result's message, or
 *   `response.result.status was '...', not 'Success'`.
 */
export function convertedObjectsOf(
  version: ConversionReviewVersion,
  uid: string,
  answer: unknown,
): unknown[] {
  const review = isJsonObject(answer) ? answer : {};
  if (version === 'v1') {
    const expected = 'apiextensions.k8s.io/v1, Kind=ConversionReview';
    const got = goGroupVersionKind(review.apiVersion, review.kind);
    if (got !== expected) throw new Error(`expected webhook response of ${expected}, got ${got}`);
  }
  const response = review.response;
  if (!isJsonObject(response)) throw new Error('no response provided');
  const answeredUid = typeof response.uid === 'string' ? response.uid : '';
  if (version === 'v1' && answeredUid !== uid) {
    throw new Error(
      `expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(answeredUid)}`,
    );
  }
  const result = isJsonObject(response.result) ? response.result : {};
  const status = typeof result.status === 'string' ? result.status : '';
  if (status !== 'Success') {
    const message = typeof result.message === 'string' ? result.message : '';
    throw new Error(message || `response.result.status was '${status}', not 'Success'`);
  }
  return Array.isArray(response.convertedObjects) ? response.convertedObjects : [];
}
