const marker = Symbol.for('@ops/core.ConversionError');

/**
 * An object that could not be converted between two versions of a custom resource (see
 * `defineConversion`): an `apiVersion` or kind the conversion does not know, a conversion
 * function that threw or returned something that is not an object of the target version, or
 * one that changed the object's metadata beyond labels and annotations (which kube-apiserver
 * refuses).
 *
 * `message` names the object (kind, namespace/name), the two versions and the reason; the
 * conversion webhook answers kube-apiserver with it. `object` is `<kind> <namespace>/<name>`
 * (`<kind> <name>` for a cluster-scoped one). Recognise it with
 * {@link ConversionError.isInstance}, which works even when two copies of `@ops/core` are
 * loaded.
 */
export class ConversionError extends Error {
  readonly [marker] = true;
  override readonly name = 'ConversionError';

  constructor(
    message: string,
    /** The object that failed: `MyJob default/sample`. */
    readonly object: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }

  static isInstance(error: unknown): error is ConversionError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
