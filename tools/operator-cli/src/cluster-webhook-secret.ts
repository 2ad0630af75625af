import { kubectl } from './kubectl.js';
import {
  type OperatorProject,
  requireWebhooks,
  webhookServiceDnsNames,
} from './operator-project.js';
import { certificatesUsable, createCertificates } from './serving-certificates.js';

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const unbase64 = (text: unknown) =>
  typeof text === 'string' ? Buffer.from(text, 'base64').toString('utf8') : '';

/**
 * Makes sure the cluster has the operator's webhook Secret (type kubernetes.io/tls, with
 * ca.crt) in `namespace` (default: the operator's), valid for the webhook Service's DNS
 * names: an existing usable one is kept (no write, so a running operator is not disturbed),
 * otherwise a new CA and certificate replace it. The namespace must exist. The Secret is
 * created or replaced, never applied: apply would copy the private key into the
 * last-applied-configuration annotation.
 *
 * @returns the CA (PEM), for the webhook configurations' caBundle, and whether the Secret
 * was written.
 * @throws {OperatorCliError} when the operator has no webhooks, or kubectl fails (no
 * cluster, no namespace, forbidden).
 */
export async function ensureClusterWebhookSecret(
  project: OperatorProject,
  options: { namespace?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ caCert: string; created: boolean }> {
  const webhooks = requireWebhooks(project);
  const env = options.env ?? process.env;
  const namespace = options.namespace ?? project.namespace;
  const hosts = webhookServiceDnsNames(webhooks.service, namespace);
  const found = (
    await kubectl(
      [
        'get',
        'secret',
        webhooks.secret,
        '--namespace',
        namespace,
        '--ignore-not-found',
        '-o',
        'json',
      ],
      { capture: true, env },
    )
  ).trim();
  const data = found ? (JSON.parse(found).data ?? {}) : undefined;
  if (data) {
    const existing = {
      caCert: unbase64(data['ca.crt']),
      cert: unbase64(data['tls.crt']),
      key: unbase64(data['tls.key']),
    };
    if (certificatesUsable(existing, hosts)) return { caCert: existing.caCert, created: false };
  }
  const set = await createCertificates(hosts);
  const secret = {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'kubernetes.io/tls',
    metadata: {
      name: webhooks.secret,
      namespace,
      labels: {
        'app.kubernetes.io/name': project.name,
        'app.kubernetes.io/managed-by': 'webhook-certs',
      },
    },
    data: { 'ca.crt': base64(set.caCert), 'tls.crt': base64(set.cert), 'tls.key': base64(set.key) },
  };
  await kubectl([data ? 'replace' : 'create', '-f', '-'], {
    input: JSON.stringify(secret),
    capture: true,
    env,
  });
  return { caCert: set.caCert, created: true };
}
