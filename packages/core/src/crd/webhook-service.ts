/**
 * The webhook Service the generated webhook configurations and conversion CRDs point at:
 * `webhook-service` in `system`, kubebuilder's, which kustomize's `namePrefix` and
 * `namespace` rename.
 */
export const defaultWebhookService = Object.freeze({
  name: 'webhook-service',
  namespace: 'system',
} as const);
