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
 * The Mutating- and ValidatingWebhookConfigurations among `objects`, and the
 * CustomResourceDefinitions whose `spec.conversion` calls a webhook (other kinds and CRDs are
 * left out, so a whole rendered install may be passed), each webhook's `clientConfig.service`
 * replaced by `url: https://<host>:<port><service.path>`, as controller-runtime's envtest does
 * for a webhook server running in the test process, since the API server cannot reach a
 * Service there. `caBundle` is set from `options.caCert` when given; everything else stays as
 * generated. The input is not modified.
 *
 * @throws {Error} when `port` is not a TCP port, `host` is empty or holds a scheme, port or
 *   path, `objects` hold no webhook configuration nor conversion CRD, or a webhook has neither
 *   `service` nor `url`.
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
  const byUrl = (clientConfig: ClientConfig | undefined, what: string): ClientConfig => {
    const { service, ...rest } = clientConfig ?? {};
    if (service === undefined && rest.url === undefined)
      throw new Error(`${what} has neither clientConfig.service nor clientConfig.url`);
    return {
      ...rest,
      ...(service === undefined ? {} : { url: `https://${authority}${service.path ?? '/'}` }),
      ...(caBundle === undefined ? {} : { caBundle }),
    };
  };
  const selected = objects.filter(
    (object) => webhookKinds.has(object.kind ?? '') || conversionWebhookOf(object) !== undefined,
  );
  if (selected.length === 0)
    throw new Error(
      `no MutatingWebhookConfiguration, ValidatingWebhookConfiguration or CustomResourceDefinition with a conversion webhook among the ${objects.length} objects given: pass the generated webhook manifests (config/webhook/manifests.yaml), the CRDs or the rendered install`,
    );
  return selected.map((object) => {
    const copy = structuredClone(object);
    const conversion = conversionWebhookOf(copy);
    if (conversion !== undefined) {
      conversion.clientConfig = byUrl(
        conversion.clientConfig,
        `the conversion webhook of CustomResourceDefinition ${copy.metadata?.name}`,
      );
      return copy;
    }
    const configuration = copy as WebhookConfiguration;
    for (const webhook of configuration.webhooks ?? []) {
      webhook.clientConfig = byUrl(
        webhook.clientConfig,
        `webhook ${webhook.name} of ${configuration.kind} ${configuration.metadata?.name}`,
      );
    }
    return configuration;
  });
}

/** `spec.conversion.webhook` of a CRD whose conversion strategy is `Webhook`, else undefined. */
function conversionWebhookOf(
  object: KubernetesObject,
): { clientConfig?: ClientConfig } | undefined {
  if (object.kind !== 'CustomResourceDefinition') return undefined;
  const conversion = (
    object as {
      spec?: { conversion?: { strategy?: string; webhook?: { clientConfig?: ClientConfig } } };
    }
  ).spec?.conversion;
  if (conversion?.strategy !== 'Webhook') return undefined;
  conversion.webhook ??= {};
  return conversion.webhook;
}
