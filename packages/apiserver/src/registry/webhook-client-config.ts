/**
 * Where a webhook is reached, as an admission webhook configuration and a CRD's conversion
 * webhook both name it: `url`, or `service` (resolved through its Endpoints).
 */
export interface WebhookClientConfig {
  url?: string;
  service?: { namespace: string; name: string; path?: string; port: number };
  /** Base64 of the PEM CA certificates that verify the webhook's serving certificate. */
  caBundle?: string;
}
