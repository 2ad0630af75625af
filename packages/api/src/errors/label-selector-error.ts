const marker = Symbol.for('@ops/api.LabelSelectorError');

/**
 * A label selector, in string form or structured, that Kubernetes would reject.
 *
 * `message` names the offending part and how to write it correctly; `selector` holds the
 * input as given. Recognise it with {@link LabelSelectorError.isInstance}, which works even
 * when two copies of `@ops/api` are loaded.
 */
export class LabelSelectorError extends Error {
  readonly [marker] = true;
  override readonly name = 'LabelSelectorError';

  constructor(
    message: string,
    /** The selector as it was given. */
    readonly selector: string,
  ) {
    super(message);
  }

  static isInstance(error: unknown): error is LabelSelectorError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
