import { type PatchType, patchContentTypes } from '@ops/api';
import { StatusError } from '../api/status-error.js';

export { type PatchType, patchContentTypes } from '@ops/api';

const byContentType = new Map<string, PatchType>(
  Object.entries(patchContentTypes).map(([type, contentType]) => [contentType, type as PatchType]),
);

/** Where the PATCH goes: a built-in kind or a custom resource. */
export interface PatchTarget {
  /**
   * True for custom resources, which kube-apiserver serves without strategic merge patch.
   * Default false.
   */
  customResource?: boolean;
}

/**
 * The patch type a PATCH request's `Content-Type` header asks for, as kube-apiserver decides
 * it: parameters after `;` (`; charset=utf-8`) are ignored and the media type must then match
 * one of {@link patchContentTypes} exactly (case included).
 *
 * @throws {StatusError} 415 UnsupportedMediaType for any other content type, a missing one
 *   included. For a built-in kind the answer comes from kube-apiserver's router and says only
 *   `415: Unsupported Media Type`; for a custom resource it lists what is accepted (see
 *   {@link unsupportedStrategicMergePatch}), and a strategic merge patch gets that answer too.
 */
export function patchTypeFromContentType(
  contentType: string | undefined,
  target: PatchTarget = {},
): PatchType {
  const header = contentType ?? '';
  const separator = header.indexOf(';');
  const mediaType = separator > 0 ? header.slice(0, separator) : header;
  const type = byContentType.get(mediaType);
  if (target.customResource) {
    if (type === undefined || type === 'strategic') throw unsupportedStrategicMergePatch();
    return type;
  }
  if (type === undefined) {
    throw new StatusError(415, 'UnsupportedMediaType', '415: Unsupported Media Type', {});
  }
  return type;
}

/**
 * The 415 UnsupportedMediaType kube-apiserver answers a PATCH to a custom resource (or any
 * kind without a {@link StrategicSchema}) whose `Content-Type` it does not take, a strategic
 * merge patch above all: `the body of the request was in an unknown format - accepted media
 * types include: application/json-patch+json, application/merge-patch+json,
 * application/apply-patch+yaml`. kubectl reports it as `application/strategic-merge-patch+json
 * is not supported by ...` and suggests `--type merge`.
 */
export function unsupportedStrategicMergePatch(): StatusError {
  const accepted = [patchContentTypes.json, patchContentTypes.merge, patchContentTypes.apply];
  return new StatusError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
  );
}
