import { isIP } from 'node:net';
import type { KubernetesObject } from '@ops/core';

/** Where {@link webhooksByUrl} points the webhooks. */
export interface WebhookUrlOptions {
  /** The port the webhook server listens on (as bound: pass the port it got when started on 0). */
  port: number;
  /**
   * The host of the URL (default `127.0.0.1`, so the API server's calls stay on the loopback
   * address). The serving certificate must be valid for it (an IP SAN for an address).
   */
  host?: string;
  /**
   * PEM CA certificate(s) that signed the webhook server's serving certificate; each webhook's
   * `caBundle` becomes their base64. Omit it when the operator injects the bundle itself (its
   * self-managed certificates): a `caBundle` already in the configuration is then kept.
   */
  caCert?: string;
}

const webhookKinds = new Set(['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']);

interface ClientConfig {
  url?: string;
  service?: { name?: string; namespace?: string; path?: string; port?: number };
  caBundle?: string;
}
type WebhookConfiguration = KubernetesObject & {
  webhooks?: Array<{ name?: string; clientConfig?: ClientConfig }>;
};

/**
 * The Mutating- and ValidatingWebhookConfigurations among `objects` (other kinds are left
 * out, so a whole rendered install may be passed), each webhook's `clientConfig.service`
 * replaced by `url: https://<host>:<port><service.path>`, as controller-runtime's envtest does
 * for a webhook server running in the test process, since the API server cannot reach a
 * Service there. `caBundle` is set from `options.caCert` when given; everything else stays as
 * generated. The input is not modified.
 *
 * @throws {Error} when `port` is not a TCP port, `host` is empty or holds a scheme, port or
 *   path, `objects` hold no webhook configuration, or a webhook has neither `service` nor `url`.
 */
export function webhooksByUrl(
  objects: readonly KubernetesObject[],
  options: WebhookUrlOptions,
): KubernetesObject[] {
  const { port } = options;
  if (!Number.isInteger(port) || port < 1 || port > 65_535)
    throw new Error(
      `webhook port ${port} is not a TCP port: pass the port the webhook server listens on (after starting it)`,
    );
  const host = options.host ?? '127.0.0.1';
  if (host === '' || (isIP(host) === 0 && /[/:@?#\s]/.test(host)))
    throw new Error(
      `webhook host ${JSON.stringify(host)} is not a host name or IP address: pass only the host (default 127.0.0.1), the port separately`,
    );
  const authority = `${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
  const caBundle =
    options.caCert === undefined ? undefined : Buffer.from(options.caCert).toString('base64');
  const configurations = objects.filter((object) => webhookKinds.has(object.kind ?? ''));
  if (configurations.length === 0)
    throw new Error(
      `no MutatingWebhookConfiguration or ValidatingWebhookConfiguration among the ${objects.length} objects given: pass the generated webhook manifests (config/webhook/manifests.yaml) or the rendered install`,
    );
  return configurations.map((object) => {
    const configuration = structuredClone(object) as WebhookConfiguration;
    for (const webhook of configuration.webhooks ?? []) {
      const clientConfig = webhook.clientConfig ?? {};
      const { service, ...rest } = clientConfig;
      if (service === undefined && rest.url === undefined)
        throw new Error(
          `webhook ${webhook.name} of ${configuration.kind} ${configuration.metadata?.name} has neither clientConfig.service nor clientConfig.url`,
        );
      webhook.clientConfig = {
        ...rest,
        ...(service === undefined ? {} : { url: `https://${authority}${service.path ?? '/'}` }),
        ...(caBundle === undefined ? {} : { caBundle }),
      };
    }
    return configuration;
  });
}
