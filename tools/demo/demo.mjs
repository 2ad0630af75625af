#!/usr/bin/env node
// The demo (README's first command, via scripts/demo.sh [operator]): starts the local
// Kubernetes API server, an operator (by its short name: `application`, the default,
// `myjob`, `sidecar` or `balancer`), applies its sample, shows what happens as it happens, then
// leaves everything running until Ctrl-C. With --real, the same on a real cluster: envtest's cluster plane
// (kube-apiserver, kube-controller-manager, kube-scheduler and a kwok node, built with Go into
// ~/.cache/ops/kube or reused). What differs per operator is in operators/.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { KubeConfig } from '@kubernetes/client-node';
import { ApiServer } from '@ops/apiserver';
import { Client } from '@ops/core';
import { ControlPlaneAssetsError, Environment, freePort, kubeRequest } from '@ops/envtest';
import { boundOperatorPorts } from './operator-output.mjs';
import { applicationDemo } from './operators/application.mjs';
import { balancerDemo } from './operators/balancer.mjs';
import { myJobDemo } from './operators/myjob.mjs';
import { sidecarDemo } from './operators/sidecar.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const operators = {
  application: applicationDemo,
  myjob: myJobDemo,
  sidecar: sidecarDemo,
  balancer: balancerDemo,
};
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    port: { type: 'string', default: '6443' },
    'webhook-port': { type: 'string', default: '19443' },
    'metrics-port': { type: 'string', default: '18080' },
    'health-port': { type: 'string', default: '18081' },
    'exit-when-ready': { type: 'boolean' },
    real: { type: 'boolean' },
  },
});
const shortName = positionals[0] ?? 'application';
const chosen = operators[shortName];
if (!chosen || positionals.length > 1) {
  console.error(
    `demo: ${positionals.length > 1 ? `one operator at a time, not ${positionals.join(' ')}` : `no operator named ${JSON.stringify(shortName)}`}: run ./scripts/demo.sh [${Object.keys(operators).join('|')}] (the operator's name without -operator; application when omitted)`,
  );
  process.exit(2);
}
// Each port: a number from 0 to 65535, 0 meaning any free one.
for (const flag of ['port', 'webhook-port', 'metrics-port', 'health-port']) {
  const value = values[flag];
  if (!/^\d+$/.test(value) || Number(value) > 65535) {
    console.error(
      `demo: --${flag} ${JSON.stringify(value)} is not a port: give a number from 0 to 65535 (0 for any free one)`,
    );
    process.exit(2);
  }
}
const operatorDir = join(root, chosen.dir);
const { customResources } = await import(join(operatorDir, 'dist/manifests.js'));

// A directory of its own per run (kubeconfig, webhook certificates), so two demos at once (one
// with --real, say) never read each other's; removed when the demo exits.
mkdirSync(join(root, '.cache', 'demo'), { recursive: true });
const work = mkdtempSync(join(root, '.cache', 'demo', 'run-'));
process.once('exit', () => rmSync(work, { recursive: true, force: true }));
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
// manager Deployment: the operator runs here as a process.
for (const resource of customResources) await client.create(resource.crd());
// The webhook configurations name the port before the operator listens: 0 is resolved here.
const webhookPort =
  values['webhook-port'] === '0' ? await freePort() : Number(values['webhook-port']);
const operatorFlags = await chosen.install({
  client,
  operatorDir,
  work,
  webhookPort,
  real: values.real === true,
});

const operator = spawn(
  process.execPath,
  [
    join(operatorDir, 'dist/main.js'),
    '--kubeconfig',
    kubeconfigPath,
    ...operatorFlags,
    '--metrics-bind-address',
    `127.0.0.1:${values['metrics-port']}`,
    '--health-probe-bind-address',
    `127.0.0.1:${values['health-port']}`,
    // info, for the lines that say which ports its servers bound; only warn and above are shown.
    '--log-level',
    'info',
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const exitedEarly = (code) => {
  say(`the operator exited (code ${code}) before its metrics and probe servers listened`);
  process.exit(1);
};
operator.once('exit', exitedEarly);
const ports = await boundOperatorPorts(operator.stdout, (line) => process.stdout.write(line));
operator.off('exit', exitedEarly);
say(
  `${chosen.name} started (pid ${operator.pid}); metrics on :${ports.metrics}, probes on :${ports.health}, ${operatorFlags.includes('--disable-webhooks') ? 'no webhooks' : `webhooks on :${webhookPort}`}`,
);
for (let i = 0; ; i++) {
  const ready = await fetch(`http://127.0.0.1:${ports.health}/readyz`).then(
    (r) => r.ok,
    () => false,
  );
  if (ready) break;
  if (i > 200) throw new Error('the operator did not become ready');
  await new Promise((r) => setTimeout(r, 50));
}

const start = Date.now();
const at = () => `+${((Date.now() - start) / 1000).toFixed(2)}s`;
const watching = await chosen.watch(kubeConfig, say, (headline, commands) => {
  say('');
  say(`${headline}. Point kubectl at the demo:`);
  say(`  export KUBECONFIG=${kubeconfigPath}`);
  for (const command of commands) say(`  ${command}`);
  say('Press Ctrl-C to stop.');
  if (values['exit-when-ready']) void shutdown();
});
const report = setInterval(() => watching.poll(at), 50);

await chosen.applySample(client, say, operatorDir);

let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  clearInterval(report);
  watching.close();
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
