#!/usr/bin/env node
// The demo (README's first command, via scripts/demo.sh): starts the local Kubernetes API
// server, the application-operator with its webhooks, applies the sample Application, shows
// what happens as it happens, then leaves everything running until Ctrl-C. With --real, the
// same on a real cluster: envtest's cluster plane (kube-apiserver, kube-controller-manager,
// kube-scheduler and a kwok node, built with Go into .cache/kube or reused).
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { KubeConfig } from '@kubernetes/client-node';
import { ApiServer, createServingCertificates } from '@ops/apiserver';
import { Client } from '@ops/core';
import { ControlPlaneAssetsError, Environment, kubeRequest, openWatch } from '@ops/envtest';
import YAML from 'yaml';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '6443' },
    'webhook-port': { type: 'string', default: '19443' },
    'metrics-port': { type: 'string', default: '18080' },
    'health-port': { type: 'string', default: '18081' },
    'exit-when-ready': { type: 'boolean' },
    real: { type: 'boolean' },
  },
});
const operatorDir = join(root, 'operators/application-operator');
const { customResources } = await import(join(operatorDir, 'dist/manifests.js'));

const work = join(root, '.cache', 'demo');
mkdirSync(work, { recursive: true });
const kubeconfigPath = join(work, 'kubeconfig');
const say = (message) => console.log(`demo: ${message}`);

/** The control plane: the local API server, or with --real the cluster plane. */
async function startControlPlane() {
  if (!values.real) {
    const server = await ApiServer.start({ port: Number(values.port) });
    await server.writeKubeconfig(kubeconfigPath);
    say(`local Kubernetes API server at ${server.url}`);
    return { stop: () => server.stop() };
  }
  let env;
  try {
    // Binaries from KUBEBUILDER_ASSETS, else the project's cache (built with Go when absent).
    env = await Environment.start({
      controlPlane: 'cluster',
      cluster: { apiServerPort: Number(values.port) },
      timeoutMs: 120_000,
      log: (line) => say(line),
    });
  } catch (error) {
    if (!ControlPlaneAssetsError.isInstance(error)) throw error;
    say(`--real needs the real control plane, which cannot be built here: ${error.message}`);
    say('Without --real, the demo runs on the local API server with nothing but Node.js.');
    process.exit(1);
  }
  writeFileSync(kubeconfigPath, env.kubeconfig, { mode: 0o600 });
  const version = await kubeRequest(env.kubeConfig, 'GET', '/version');
  say(
    `Kubernetes ${version.body.gitVersion} at ${env.kubeConfig.getCurrentCluster()?.server}: kube-apiserver, kube-controller-manager, kube-scheduler and a kwok node (envtest's cluster plane)`,
  );
  return { stop: () => env.stop() };
}
const controlPlane = await startControlPlane();
const kubeConfig = new KubeConfig();
kubeConfig.loadFromFile(kubeconfigPath);
const client = new Client({ kubeConfig });

// The operator's install, as `kubectl apply -k config/default` would make it, minus the
// manager Deployment: the operator runs here as a process, its webhook Service's Endpoints
// point at it (kubebuilder's local webhook debugging).
const system = 'application-operator-system';
await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: system } });
for (const resource of customResources) await client.create(resource.crd());
const webhookPort = Number(values['webhook-port']);
const certificates = await createServingCertificates([
  `application-operator-webhook-service.${system}.svc`,
  'localhost',
  '127.0.0.1',
]);
const certDir = join(work, 'serving-certs');
mkdirSync(certDir, { recursive: true });
writeFileSync(join(certDir, 'tls.crt'), certificates.cert);
writeFileSync(join(certDir, 'tls.key'), certificates.key);
if (!values.real) {
  await client.create({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'application-operator-webhook-service', namespace: system },
    spec: { ports: [{ port: 443, targetPort: webhookPort }] },
  });
  await client.create({
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name: 'application-operator-webhook-service', namespace: system },
    subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ port: webhookPort }] }],
  });
}
const caBundle = Buffer.from(certificates.caCert).toString('base64');
const webhookConfig = YAML.parseAllDocuments(
  await new Promise((done, fail) => {
    const kubectl = spawn(process.env.KUBECTL ?? 'kubectl', [
      'kustomize',
      join(operatorDir, 'config/webhook'),
    ]);
    let out = '';
    kubectl.stdout.on('data', (chunk) => {
      out += chunk;
    });
    kubectl.on('error', fail);
    kubectl.on('close', (code) =>
      code === 0 ? done(out) : fail(new Error(`kubectl kustomize exited with ${code}`)),
    );
  }),
).map((document) => document.toJS());
for (const object of webhookConfig) {
  if (!object?.kind?.endsWith('WebhookConfiguration')) continue;
  object.metadata.name = `application-operator-${object.metadata.name}`;
  for (const webhook of object.webhooks) {
    if (values.real) {
      // kube-apiserver cannot reach a Service on this machine: as controller-runtime's
      // envtest does, the webhook is called by URL on the loopback address.
      const path = webhook.clientConfig.service?.path ?? '/';
      webhook.clientConfig = { url: `https://127.0.0.1:${webhookPort}${path}` };
    } else {
      webhook.clientConfig.service = {
        ...webhook.clientConfig.service,
        name: 'application-operator-webhook-service',
        namespace: system,
      };
    }
    webhook.clientConfig.caBundle = caBundle;
  }
  await client.create(object);
}

const operator = spawn(
  process.execPath,
  [
    join(operatorDir, 'dist/main.js'),
    '--kubeconfig',
    kubeconfigPath,
    '--webhook-port',
    String(webhookPort),
    '--webhook-cert-dir',
    certDir,
    '--metrics-bind-address',
    `127.0.0.1:${values['metrics-port']}`,
    '--health-probe-bind-address',
    `127.0.0.1:${values['health-port']}`,
    '--log-level',
    'warn',
  ],
  { stdio: ['ignore', 'inherit', 'inherit'] },
);
say(
  `application-operator started (pid ${operator.pid}); metrics on :${values['metrics-port']}, probes on :${values['health-port']}, webhooks on :${webhookPort}`,
);
for (let i = 0; ; i++) {
  const ready = await fetch(`http://127.0.0.1:${values['health-port']}/readyz`).then(
    (r) => r.ok,
    () => false,
  );
  if (ready) break;
  if (i > 200) throw new Error('the operator did not become ready');
  await new Promise((r) => setTimeout(r, 50));
}

const start = Date.now();
const at = () => `+${((Date.now() - start) / 1000).toFixed(2)}s`;
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
const report = setInterval(() => {
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
      say('');
      say('the sample Application is ready. Point kubectl at the demo:');
      say(`  export KUBECONFIG=${kubeconfigPath}`);
      say('  kubectl get applications,deployments,pods');
      say('  kubectl patch application demo --type=merge -p \'{"spec":{"image":"nginx:1.23"}}\'');
      say(
        '  kubectl apply -f - <<< \'{"apiVersion":"core.crd.lixueduan.com/v1","kind":"Application","metadata":{"name":"bad"},"spec":{"image":""}}\'   # denied by the webhook',
      );
      say('Press Ctrl-C to stop.');
      if (values['exit-when-ready']) void shutdown();
    }
  }
  seen.applications = applications.events.length;
}, 50);

say('applying the sample Application demo (nginx:1.22)');
await client.create({
  apiVersion: 'core.crd.lixueduan.com/v1',
  kind: 'Application',
  metadata: { name: 'demo', namespace: 'default' },
  spec: { enabled: true, image: 'nginx:1.22' },
});

let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  clearInterval(report);
  deployments.close();
  applications.close();
  operator.kill('SIGTERM');
  await new Promise((r) => operator.once('exit', r));
  await controlPlane.stop();
  say('stopped');
  process.exit(0);
}
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
operator.once('exit', (code) => {
  if (!stopping) {
    say(`the operator exited unexpectedly (code ${code})`);
    process.exit(1);
  }
});
