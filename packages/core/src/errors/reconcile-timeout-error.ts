const marker = Symbol.for('@ops/core.ReconcileTimeoutError');

/**
 * The reason a reconcile's `signal` is aborted with when it ran past its controller's
 * `reconciliationTimeoutMs`: the controller counts it
 * (`controller_runtime_reconcile_timeouts_total`) and retries the request with backoff.
 * A reconciler that passes its signal on (to `fetch`, the client, timers) stops there.
 */
export class ReconcileTimeoutError extends Error {
  readonly [marker] = true;
  override readonly name = 'ReconcileTimeoutError';

  constructor(
    message: string,
    /** The timeout that ran out, in milliseconds. */
    readonly timeoutMs: number,
  ) {
    super(message);
  }

  static isInstance(error: unknown): error is ReconcileTimeoutError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
