const marker = Symbol.for('@ops/core.OperatorFlagError');

/**
 * A command-line flag or environment variable of an operator's entry point (`runOperator`)
 * that cannot be used: an unknown flag, a missing value, or a value of the wrong form. The
 * message names the flag (and the environment variable, when the value came from there)
 * and what is accepted. Recognise it with {@link OperatorFlagError.isInstance}, which works
 * even when two copies of `@ops/core` are loaded.
 */
export class OperatorFlagError extends Error {
  readonly [marker] = true;
  override readonly name = 'OperatorFlagError';

  static isInstance(error: unknown): error is OperatorFlagError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
