const marker = Symbol.for('@ops/apiserver.WebhookCallError');

/**
 * A webhook that could not be called, or answered with something that is not a valid
 * AdmissionReview: kube-apiserver's `ErrCallingWebhook`. These are the failures a webhook's
 * `failurePolicy` decides about: `Ignore` skips the webhook, `Fail` turns the error into a
 * 500 InternalError whose message is `Internal error occurred: ` followed by this error's
 * message. A webhook that answers and denies is not one of these.
 *
 * The message is kube-apiserver's: `failed calling webhook "<name>": <reason>`, e.g.
 * `failed calling webhook "pods.example.com": failed to call webhook: Post
 * "https://127.0.0.1:9443/mutate?timeout=10s": context deadline exceeded`.
 */
export class WebhookCallError extends Error {
  readonly [marker] = true;
  override readonly name = 'WebhookCallError';

  constructor(
    /** The webhook's `name` in its configuration. */
    readonly webhookName: string,
    /** Why the call failed, as kube-apiserver words it (`failed to call webhook: ...`). */
    readonly reason: string,
    /**
     * The error as client-go's REST client words it, without the admission plugin's
     * `failed to call webhook: ` prefix (`Post "<url>": dial tcp ...: connection refused`,
     * a non-2xx answer's message): what the CRD conversion webhook's errors quote.
     */
    readonly clientError: string = reason,
  ) {
    super(`failed calling webhook ${JSON.stringify(webhookName)}: ${reason}`);
  }

  /** Whether `error` is a WebhookCallError, from this copy of the package or another. */
  static isInstance(error: unknown): error is WebhookCallError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
