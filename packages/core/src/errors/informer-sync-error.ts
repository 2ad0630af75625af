const marker = Symbol.for('@ops/core.InformerSyncError');

/** Why a wait for an informer's sync failed. */
export type InformerSyncErrorReason = 'Timeout' | 'Stopped';

/**
 * A wait for an informer (or a whole informer cache) to sync that gave up: the timeout passed
 * (`Timeout`) or the informer was stopped first (`Stopped`).
 *
 * `message` names the resource, how long was waited and the last list or watch error, and
 * says what to check. Recognise it with {@link InformerSyncError.isInstance}, which works
 * even when two copies of `@ops/core` are loaded.
 */
export class InformerSyncError extends Error {
  readonly [marker] = true;
  override readonly name = 'InformerSyncError';

  constructor(
    message: string,
    readonly reason: InformerSyncErrorReason,
    /** What the informer covers, e.g. `configmaps (v1 ConfigMap) in namespace "default"`. */
    readonly resource: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  static isInstance(error: unknown): error is InformerSyncError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
