const marker = Symbol.for('@ops/core.FinalizerError');

/** Why a finalizer could not be added or removed. */
export type FinalizerErrorReason =
  /** The finalizer name is not a qualified name (`example.com/cleanup`). */
  | 'InvalidFinalizer'
  /**
   * A guarded patch was asked for an object without `metadata.resourceVersion` (not read from
   * the API server), so the patch could not be made safe against concurrent writers.
   */
  | 'MissingResourceVersion'
  /** A finalizer was to be added to an object that is being deleted; the API server forbids it. */
  | 'ObjectDeleting';

/**
 * A finalizer name Kubernetes would reject, or a finalizer change that cannot be made safely.
 * The object is left unchanged. Recognise it with {@link FinalizerError.isInstance}, which
 * works even when two copies of `@ops/core` are loaded.
 */
export class FinalizerError extends Error {
  readonly [marker] = true;
  override readonly name = 'FinalizerError';

  constructor(
    readonly reason: FinalizerErrorReason,
    message: string,
    /** The finalizer name as it was given. */
    readonly finalizer: string,
  ) {
    super(message);
  }

  static isInstance(error: unknown): error is FinalizerError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
