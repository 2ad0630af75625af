const marker = Symbol.for('@ops/apiserver.ConversionError');

/**
 * A custom resource that could not be converted between two versions of its CRD: the
 * conversion webhook could not be called, failed, or answered something kube-apiserver
 * rejects (another uid, a different number of objects, another apiVersion, kind, name,
 * namespace or uid, invalid labels or annotations). The message is kube-apiserver's
 * converter's: `conversion webhook for <group>/<version>, Kind=<Kind> failed: <why>` (or
 * `returned ...`), naming the version converted from. Where the server answers it, the
 * request fails with a 500 whose message quotes this one.
 */
export class ConversionError extends Error {
  readonly [marker] = true;
  override readonly name = 'ConversionError';

  /** Whether `error` is a ConversionError, from this copy of the package or another. */
  static isInstance(error: unknown): error is ConversionError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
