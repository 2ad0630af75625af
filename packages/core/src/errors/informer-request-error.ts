const marker = Symbol.for('@ops/core.InformerRequestError');

/**
 * A LIST or WATCH request of an informer that the API server refused, or whose answer the
 * informer could not use.
 *
 * `status` is the HTTP status (or the `code` of a watch `ERROR` event), undefined when the
 * server could not be reached or the answer was not understood; `resource` names what was
 * listed or watched. Informers report these (log, `lastError`, `onError`) and retry with
 * backoff; they never throw them at callers. Recognise it with
 * {@link InformerRequestError.isInstance}, which works even when two copies of `@ops/core`
 * are loaded.
 */
export class InformerRequestError extends Error {
  readonly [marker] = true;
  override readonly name = 'InformerRequestError';

  constructor(
    message: string,
    /** `list` or `watch`. */
    readonly verb: 'list' | 'watch',
    /** What the informer covers, e.g. `configmaps (v1 ConfigMap) in namespace "default"`. */
    readonly resource: string,
    /** HTTP status or watch error code; undefined for network and decoding failures. */
    readonly status: number | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  static isInstance(error: unknown): error is InformerRequestError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
