const marker = Symbol.for('@ops/api.FieldSelectorError');

/**
 * A field selector that Kubernetes would reject. `message` is kube-apiserver's own wording for
 * the same selector (what a 400 from the server says), naming the term or escape at fault;
 * `selector` holds the input as given. Recognise it with {@link FieldSelectorError.isInstance},
 * which works even when two copies of `@ops/api` are loaded.
 */
export class FieldSelectorError extends Error {
  readonly [marker] = true;
  override readonly name = 'FieldSelectorError';

  constructor(
    message: string,
    /** The selector as it was given. */
    readonly selector: string,
  ) {
    super(message);
  }

  static isInstance(error: unknown): error is FieldSelectorError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
