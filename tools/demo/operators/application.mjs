// The application-operator's part of the demo: its webhook wiring, its sample, and what the
// demo shows (Deployments and Applications as they change).
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServingCertificates } from '@ops/apiserver';
import { openWatch } from '@ops/envtest';
import YAML from 'yaml';

const system = 'application-operator-system';
const service = 'application-operator-webhook-service';

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

/** The demo of the application-operator (`./scripts/demo.sh` or `./scripts/demo.sh application`). */
export const applicationDemo = {
  name: 'application-operator',
  dir: 'operators/application-operator',

  /**
   * Installs what `kubectl apply -k config/default` would, minus the manager Deployment: the
   * operator runs here as a process, and its webhooks are called on this machine (through the
   * Service's Endpoints on the local server, by URL on the loopback address with --real).
   * Resolves with the operator's webhook flags.
   */
  async install({ client, operatorDir, work, webhookPort, real }) {
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
    for (const object of await kustomize(join(operatorDir, 'config/webhook'))) {
      if (!object?.kind?.endsWith('WebhookConfiguration')) continue;
      object.metadata.name = `application-operator-${object.metadata.name}`;
      for (const webhook of object.webhooks) {
        if (real) {
          // kube-apiserver cannot reach a Service on this machine: as controller-runtime's
          // envtest does, the webhook is called by URL on the loopback address.
          const path = webhook.clientConfig.service?.path ?? '/';
          webhook.clientConfig = { url: `https://127.0.0.1:${webhookPort}${path}` };
        } else {
          webhook.clientConfig.service = {
            ...webhook.clientConfig.service,
            name: service,
            namespace: system,
          };
        }
        webhook.clientConfig.caBundle = caBundle;
      }
      await client.create(object);
    }
    return ['--webhook-port', String(webhookPort), '--webhook-cert-dir', certDir];
  },

  /** Applies the sample Application `demo`. */
  async applySample(client, say) {
    say('applying the sample Application demo (nginx:1.22)');
    await client.create({
      apiVersion: 'core.crd.lixueduan.com/v1',
      kind: 'Application',
      metadata: { name: 'demo', namespace: 'default' },
      spec: { enabled: true, image: 'nginx:1.22' },
    });
  },

  /**
   * Reports Deployments and Applications of `default` as they change; calls `onReady` once
   * with the commands to try when the sample is ready. Resolves with `{ poll, close }`.
   */
  async watch(kubeConfig, say, onReady) {
    const deployments = await openWatch(
      kubeConfig,
      '/apis/apps/v1/namespaces/default/deployments?watch=true',
    );
    const applications = await openWatch(
      kubeConfig,
      '/apis/core.crd.lixueduan.com/v1/namespaces/default/applications?watch=true',
    );
    const seen = { deployments: 0, applications: 0 };
    let readyShown = false;
    return {
      poll(at) {
        for (const event of deployments.events.slice(seen.deployments)) {
          const d = event.object;
          say(
            `${at()} Deployment ${d.metadata.name} ${event.type.toLowerCase()}: ${d.status?.availableReplicas ?? 0}/${d.spec?.replicas ?? 0} available, image ${d.spec?.template?.spec?.containers?.[0]?.image}`,
          );
        }
        seen.deployments = deployments.events.length;
        for (const event of applications.events.slice(seen.applications)) {
          const a = event.object;
          const ready = a.status?.conditions?.find((c) => c.type === 'Ready');
          say(
            `${at()} Application ${a.metadata.name} ${event.type.toLowerCase()}: ready=${a.status?.ready ?? false}${ready ? ` (${ready.reason})` : ''}${a.metadata.finalizers ? `, finalizers ${a.metadata.finalizers.join(',')}` : ''}`,
          );
          if (a.status?.ready === true && !readyShown) {
            readyShown = true;
            onReady('the sample Application is ready', [
              'kubectl get applications,deployments,pods',
              'kubectl patch application demo --type=merge -p \'{"spec":{"image":"nginx:1.23"}}\'',
              'kubectl apply -f - <<< \'{"apiVersion":"core.crd.lixueduan.com/v1","kind":"Application","metadata":{"name":"bad"},"spec":{"image":""}}\'   # denied by the webhook',
            ]);
          }
        }
        seen.applications = applications.events.length;
      },
      close() {
        deployments.close();
        applications.close();
      },
    };
  },
};
