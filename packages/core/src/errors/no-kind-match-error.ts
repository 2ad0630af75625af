const marker = Symbol.for('@ops/core.NoKindMatchError');

/**
 * The API server does not serve a kind (after a fresh discovery): its CRD is not installed,
 * not yet established, or the apiVersion or kind is misspelt. Not an {@link ApiError}: no
 * object was looked for, so `isNotFound` is false for it, as in controller-runtime.
 *
 * Recognise it with {@link NoKindMatchError.isInstance}, which works even when two copies of
 * `@ops/core` are loaded.
 */
export class NoKindMatchError extends Error {
  readonly [marker] = true;
  override readonly name = 'NoKindMatchError';

  constructor(
    /** The API group, `` for the core group. */
    readonly group: string,
    /** The version asked for, `` when only the group was given. */
    readonly version: string,
    readonly kind: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }

  static isInstance(error: unknown): error is NoKindMatchError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
