// The myjob-operator installed with its Helm chart (chart/, `ops-operator helm`) and Helm 4
// ($HELM, scripts/ensure-helm.sh): `helm install` with the chart's defaults, the manager run as
// the ServiceAccount the chart made under the RBAC the chart made (startOperatorManager, as the
// kustomize suites run it) finishing the sample of config/samples, then `helm upgrade`,
// `helm rollback` and `helm uninstall`. `pnpm test` runs it on the local API server,
// `pnpm test:binaries` on the cluster plane (kube-apiserver, whose authorizer judges the
// chart's RBAC, and kwok nodes).
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client, type KubernetesObject, Manager, objectKind } from '@ops/core';
import {
  Environment,
  eventually,
  type RunningOperatorManager,
  startOperatorManager,
} from '@ops/envtest';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { type MyJob, myJobResource } from '../src/api/v1beta1/my-job.js';
import { addMyJobController } from '../src/operator.js';

const run = promisify(execFile);
const operatorRoot = fileURLToPath(new URL('..', import.meta.url));
const release = 'myjob';
const namespace = 'myjob-operator-system';
const prefix = 'myjob-operator-';
const deployments = objectKind<KubernetesObject & { spec: { replicas: number } }>(
  'apps/v1',
  'Deployment',
);
const clusterRoles = objectKind<KubernetesObject>('rbac.authorization.k8s.io/v1', 'ClusterRole');
const crds = objectKind<KubernetesObject>('apiextensions.k8s.io/v1', 'CustomResourceDefinition');

let env: Environment;
let admin: Client;
let operator: RunningOperatorManager<Manager> | undefined;

/** Runs Helm 4 against the environment as its admin; resolves with stdout. */
async function helm(...args: string[]): Promise<string> {
  const { stdout } = await run(
    process.env.HELM || 'helm',
    [...args, '--kubeconfig', env.kubeconfigPath, '-n', namespace],
    { cwd: operatorRoot, maxBuffer: 16 * 1024 * 1024 },
  );
  return stdout;
}

const gone = (read: () => Promise<unknown>) =>
  read().then(
    () => false,
    (error: { code?: number }) => error.code === 404,
  );

beforeAll(async () => {
  env = await Environment.start({ requires: 'pods', apiServer: { rbac: true } });
  admin = new Client({ kubeConfig: env.kubeConfig });
}, 120_000);

afterAll(async () => {
  await operator?.stop();
  admin?.close();
  await env?.stop();
});

describe('myjob-operator, installed with its Helm chart', () => {
  it("installs with its defaults, and the manager under the chart's RBAC finishes the sample", {
    timeout: 180_000,
  }, async () => {
    const installed = await helm('install', release, 'chart', '--create-namespace');
    expect(installed).toContain('STATUS: deployed');
    const deployment = await admin.get(deployments, `${prefix}controller-manager`, namespace);
    expect(deployment.metadata?.labels).toMatchObject({
      'app.kubernetes.io/managed-by': 'Helm',
      'app.kubernetes.io/instance': release,
    });
    expect(deployment.spec.replicas).toBe(1);

    // The chart's ServiceAccount, rights from the chart's roles only.
    const identity = await env.serviceAccount({ namespace, name: `${prefix}controller-manager` });
    operator = await startOperatorManager({
      identity,
      createManager: (settings) =>
        new Manager({
          ...settings,
          logger: pino({ level: process.env.OPERATOR_LOG_LEVEL ?? 'silent' }),
        }),
      setup: (manager) => addMyJobController(manager),
      timeoutMs: 60_000,
    });
    const sample = YAML.parse(
      await readFile(join(operatorRoot, 'config/samples/myjob_v1beta1_myjob.yaml'), 'utf8'),
    ) as MyJob;
    sample.metadata.namespace = 'default';
    await admin.create(sample);
    const done = await eventually(
      async () => {
        const job = await admin.get(myJobResource, sample.metadata.name ?? '', 'default');
        return job.status?.phase === 'completed' && job;
      },
      { description: 'the sample MyJob completed', timeoutMs: 90_000 },
    );
    expect(done.status).toMatchObject({ phase: 'completed', podPhase: 'Succeeded' });
  });

  it('upgrades, rolls back, and uninstalls everything but the CRDs', {
    timeout: 120_000,
  }, async () => {
    await helm('upgrade', release, 'chart', '--set', 'manager.replicas=2');
    expect(
      (await admin.get(deployments, `${prefix}controller-manager`, namespace)).spec.replicas,
    ).toBe(2);

    await helm('rollback', release, '1');
    expect(
      (await admin.get(deployments, `${prefix}controller-manager`, namespace)).spec.replicas,
    ).toBe(1);
    const history = JSON.parse(await helm('history', release, '-o', 'json')) as Array<{
      revision: number;
      status: string;
    }>;
    expect(history.map((entry) => [entry.revision, entry.status])).toEqual([
      [1, 'superseded'],
      [2, 'superseded'],
      [3, 'deployed'],
    ]);

    await operator?.stop();
    operator = undefined;
    await helm('uninstall', release, '--wait');
    await eventually(
      async () =>
        (await gone(() => admin.get(deployments, `${prefix}controller-manager`, namespace))) &&
        (await gone(() => admin.get(clusterRoles, `${prefix}manager-role`))),
      { description: 'the Deployment and ClusterRole deleted', timeoutMs: 60_000 },
    );
    // crds/: Helm never deletes them, so the MyJobs survive an uninstall.
    expect(await gone(() => admin.get(crds, 'myjobs.myjob.github.com'))).toBe(false);
    expect(await helm('list', '-o', 'json')).toBe('[]\n');
  });
});
