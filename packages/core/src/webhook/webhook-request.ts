import type { AdmissionRequest } from './admission-review.js';

/**
 * The request as typed webhook functions ({@link mutatingWebhook}, {@link validatingWebhook})
 * see it: the {@link AdmissionRequest} plus `warn`, which adds a warning to the response
 * whatever the decision (kubectl prints each as a `Warning:` line).
 */
export interface WebhookRequest extends AdmissionRequest {
  warn(message: string): void;
}

/** A {@link WebhookRequest} for `request` and the list its warnings are collected into. */
export function toWebhookRequest(request: AdmissionRequest): {
  request: WebhookRequest;
  warnings: string[];
} {
  const warnings: string[] = [];
  return {
    request: {
      ...request,
      warn(message: string) {
        warnings.push(message);
      },
    },
    warnings,
  };
}
