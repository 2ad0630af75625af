// What the demo's operators with webhooks share: serving certificates for the process the
// demo runs, and their generated webhook configurations and CRD conversion webhooks pointed
// at it.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServingCertificates } from '@ops/apiserver';
import YAML from 'yaml';

/** `kubectl kustomize dir`, parsed into objects. */
async function kustomize(dir) {
  const out = await new Promise((done, fail) => {
    const kubectl = spawn(process.env.KUBECTL ?? 'kubectl', ['kustomize', dir]);
    let text = '';
    kubectl.stdout.on('data', (chunk) => {
      text += chunk;
    });
    kubectl.on('error', fail);
    kubectl.on('close', (code) =>
      code === 0 ? done(text) : fail(new Error(`kubectl kustomize exited with ${code}`)),
    );
  });
  return YAML.parseAllDocuments(out).map((document) => document.toJS());
}

/**
 * Installs an operator's webhooks as `kubectl apply -k config/default` would, for the
 * operator running here as a process: its namespace `<name>-system`, a serving certificate in
 * `<work>/serving-certs`, and the configurations of config/webhook named `<name>-...` and the
 * conversion webhooks of the CRDs of config/crd (installed already: their `spec.conversion` is
 * replaced), called through the webhook Service and Endpoints to 127.0.0.1:`webhookPort` on
 * the local server, or by URL on the loopback address with `real` (kube-apiserver cannot reach
 * a Service on this machine; as controller-runtime's envtest does). Everything else in the
 * configurations (rules, namespaceSelector, timeout, failure policy) stays as generated.
 * Resolves with the operator's webhook flags.
 */
export async function installWebhooks({ name, client, operatorDir, work, webhookPort, real }) {
  const system = `${name}-system`;
  const service = `${name}-webhook-service`;
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: system } });
  const certificates = await createServingCertificates([
    `${service}.${system}.svc`,
    'localhost',
    '127.0.0.1',
  ]);
  const certDir = join(work, 'serving-certs');
  mkdirSync(certDir, { recursive: true });
  writeFileSync(join(certDir, 'tls.crt'), certificates.cert);
  writeFileSync(join(certDir, 'tls.key'), certificates.key);
  if (!real) {
    await client.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: service, namespace: system },
      spec: { ports: [{ port: 443, targetPort: webhookPort }] },
    });
    await client.create({
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: service, namespace: system },
      subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ port: webhookPort }] }],
    });
  }
  const caBundle = Buffer.from(certificates.caCert).toString('base64');
  /** A generated clientConfig, pointed at the operator running here and trusting its CA. */
  const here = (clientConfig) => {
    if (real) {
      const path = clientConfig.service?.path ?? '/';
      return { url: `https://127.0.0.1:${webhookPort}${path}`, caBundle };
    }
    return { service: { ...clientConfig.service, name: service, namespace: system }, caBundle };
  };
  for (const object of await kustomize(join(operatorDir, 'config/webhook'))) {
    if (!object?.kind?.endsWith('WebhookConfiguration')) continue;
    object.metadata.name = `${name}-${object.metadata.name}`;
    for (const webhook of object.webhooks) webhook.clientConfig = here(webhook.clientConfig);
    await client.create(object);
  }
  for (const crd of await kustomize(join(operatorDir, 'config/crd'))) {
    const conversion = crd?.spec?.conversion;
    if (crd?.kind !== 'CustomResourceDefinition' || conversion?.strategy !== 'Webhook') continue;
    // The conversion replaced by a JSON patch, not a read-modify-write: kube-apiserver writes
    // the new CRD's status (Established, NamesAccepted) meanwhile, and an update read before it
    // is a Conflict. (A merge patch would keep the Service beside the URL.)
    await client.patch(
      {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: crd.metadata.name },
      },
      [
        {
          op: 'replace',
          path: '/spec/conversion',
          value: {
            ...conversion,
            webhook: { ...conversion.webhook, clientConfig: here(conversion.webhook.clientConfig) },
          },
        },
      ],
      'json',
    );
  }
  return ['--webhook-port', String(webhookPort), '--webhook-cert-dir', certDir];
}
