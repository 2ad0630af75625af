const marker = Symbol.for('@ops/core.MetricsError');

/**
 * A metric could not be registered: its name is taken by a metric of another type or with
 * other labels, or the name or a label name is not valid Prometheus. `message` says which
 * and how to fix it; `metric` is the metric's name. Recognise it with
 * {@link MetricsError.isInstance}, which works even when two copies of `@ops/core` are loaded.
 */
export class MetricsError extends Error {
  readonly [marker] = true;
  override readonly name = 'MetricsError';

  constructor(
    message: string,
    /** The name of the metric being registered. */
    readonly metric: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }

  static isInstance(error: unknown): error is MetricsError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
