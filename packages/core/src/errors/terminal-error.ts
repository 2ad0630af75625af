const marker = Symbol.for('@ops/core.TerminalError');

/**
 * Thrown by a reconciler for a failure that retrying cannot fix (an invalid spec, say): the
 * controller logs and counts it (`controller_runtime_terminal_reconcile_errors_total`) and
 * does not requeue the request. A later change to the object reconciles it again.
 */
export class TerminalError extends Error {
  readonly [marker] = true;
  override readonly name = 'TerminalError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }

  static isInstance(error: unknown): error is TerminalError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
