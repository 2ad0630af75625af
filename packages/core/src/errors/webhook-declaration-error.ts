const marker = Symbol.for('@ops/core.WebhookDeclarationError');

/**
 * A webhook declared with `defineWebhook` that Kubernetes would refuse (a name that is not
 * a fully qualified domain name, a path that is not a URL path, no rules, a timeout out of
 * range, ...), or declarations that cannot share a configuration (two webhooks with one
 * name, two with one path). The message names the webhook, the field and the fix.
 * Recognise it with {@link WebhookDeclarationError.isInstance}, which works even when two
 * copies of `@ops/core` are loaded.
 */
export class WebhookDeclarationError extends Error {
  readonly [marker] = true;
  override readonly name = 'WebhookDeclarationError';

  static isInstance(error: unknown): error is WebhookDeclarationError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
