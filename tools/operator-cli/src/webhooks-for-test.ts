import type { K8sObject } from './kubectl.js';
import { ensureLocalCertificates, localWebhookHosts } from './local-certificates.js';
import type { OperatorProject } from './operator-project.js';
import { routeWebhooksHere } from './verbs/webhook-local.js';

/**
 * What {@link routeWebhooksForTest} needs of a test environment: `@ops/envtest`'s
 * `Environment` has it (the kit does not depend on envtest, so it is named by shape).
 */
export interface WebhookTestEnvironment {
  /** `local` (the local API server) or a real control plane (`binaries`, `cluster`). */
  readonly kind: string;
  /** The admin kubeconfig file of the environment. */
  readonly kubeconfigPath: string;
  /** Installs webhook configurations that call `https://127.0.0.1:<port><path>`. */
  installWebhooks(
    objects: readonly K8sObject[],
    options: { port: number; caCert: string },
  ): Promise<unknown>;
}

/**
 * Makes the API server of a test environment call the operator's webhooks on this machine,
 * served over TLS from `certDir` on `port` (the caller's webhook server, which may restart).
 *
 * - On the local API server, as in a cluster: through the webhook Service and its Endpoints,
 *   as `ops-operator webhook-local` routes them (a Service without selector, Endpoints to
 *   127.0.0.1:`port`, the configurations of config/default-no-certmanager trusting a
 *   generated CA, a certificate for the Service's DNS names).
 * - On a real control plane, whose kube-apiserver resolves a Service to a ClusterIP that
 *   nothing routes here: by URL on the loopback address (`installWebhooks`, as
 *   controller-runtime's envtest), with a certificate from the same kind of local CA.
 *
 * `rendered` is `kubectl kustomize config/default` (the configurations to install).
 * Assumes `certDir` is the webhook server's cert dir and is the caller's to clean up.
 */
export async function routeWebhooksForTest(
  project: OperatorProject,
  env: WebhookTestEnvironment,
  options: { port: number; certDir: string; rendered: readonly K8sObject[] },
): Promise<void> {
  const { port, certDir, rendered } = options;
  if (env.kind === 'local') {
    await routeWebhooksHere(project, {
      hostIp: '127.0.0.1',
      port,
      certDir,
      env: { ...process.env, KUBECONFIG: env.kubeconfigPath },
    });
    return;
  }
  const certificates = await ensureLocalCertificates(project, {
    dir: certDir,
    hosts: localWebhookHosts(project, ['127.0.0.1']),
  });
  await env.installWebhooks(rendered, { port, caCert: certificates.caCert });
}
