/**
 * The patch formats of the Kubernetes API: JSON Patch (RFC 6902), JSON merge patch
 * (RFC 7386), strategic merge patch (built-in kinds only) and server-side apply.
 */
export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

/** The `Content-Type` that selects each {@link PatchType}. */
export const patchContentTypes: Readonly<Record<PatchType, string>> = Object.freeze({
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
});
