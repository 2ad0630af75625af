/**
 * The webhook serving certificate of an operator running on this machine (`run`,
 * `webhook-local`).
 */
import { type OperatorProject, webhookServiceDnsNames } from './operator-project.js';
import { type CertificateSet, ensureCertificateDirectory } from './serving-certificates.js';

/**
 * The names a local webhook certificate must cover: the loopback names, the webhook
 * Service's DNS names (for the Service + Endpoints route of `webhook-local`) when the
 * operator has webhooks, and `extra` (host IPs or names the API server will dial).
 */
export function localWebhookHosts(
  project: OperatorProject,
  extra: readonly string[] = [],
): string[] {
  const service = project.webhooks
    ? webhookServiceDnsNames(project.webhooks.service, project.namespace)
    : [];
  return [...new Set(['localhost', '127.0.0.1', '::1', ...service, ...extra])];
}

/**
 * Makes sure `dir` (default: the project's `localCertDir`) holds a certificate for
 * `hosts` (default {@link localWebhookHosts}), generating one when needed.
 */
export function ensureLocalCertificates(
  project: OperatorProject,
  options: { dir?: string; hosts?: readonly string[] } = {},
): Promise<CertificateSet & { dir: string; created: boolean }> {
  return ensureCertificateDirectory(
    options.dir ?? project.localCertDir,
    options.hosts ?? localWebhookHosts(project),
  );
}
