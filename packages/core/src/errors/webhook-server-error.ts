const marker = Symbol.for('@ops/core.WebhookServerError');

/** Why the webhook server refused a call. */
export type WebhookServerErrorReason =
  /** `register` was given a path that does not start with `/`, or contains a query or fragment. */
  | 'InvalidPath'
  /** `register` was given a path that already has a handler. */
  | 'DuplicatePath'
  /** `start` was called on a server that is already started or starting. */
  | 'AlreadyStarted'
  /** `start` was called on a server that has been stopped; create a new server instead. */
  | 'Stopped'
  /** `instrument` was given a registry while the server records into another one. */
  | 'AlreadyInstrumented'
  /** The readiness check failed: the server is not listening or has no certificate loaded. */
  | 'NotReady';

/**
 * A misuse of the webhook server (registration or lifecycle), or a failed readiness check.
 * Recognise it with {@link WebhookServerError.isInstance}, which works even when two copies
 * of `@ops/core` are loaded.
 */
export class WebhookServerError extends Error {
  readonly [marker] = true;
  override readonly name = 'WebhookServerError';

  constructor(
    readonly reason: WebhookServerErrorReason,
    message: string,
  ) {
    super(message);
  }

  static isInstance(error: unknown): error is WebhookServerError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
