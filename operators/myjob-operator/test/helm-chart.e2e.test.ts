// The myjob-operator installed with its Helm chart (chart/, `ops-operator helm`) and Helm 4
// ($HELM, scripts/ensure-helm.sh): `helm install` with the chart's defaults, the manager run as
// the ServiceAccount the chart made under the RBAC the chart made (installChartOperator, as the
// kustomize suites run it) finishing the sample of config/samples, then `helm upgrade`,
// `helm rollback` and `helm uninstall`. `pnpm test` runs it on the local API server,
// `pnpm test:binaries` on the cluster plane (kube-apiserver, whose authorizer judges the
// chart's RBAC, and kwok nodes).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, Manager } from '@ops/core';
import {
  chartLifecycle,
  cleanChartLifecycle,
  Environment,
  eventually,
  installChartOperator,
  type RunningOperatorManager,
} from '@ops/envtest';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { type MyJob, myJobResource } from '../src/api/v1beta1/my-job.js';
import { addMyJobController } from '../src/operator.js';

const operatorDir = fileURLToPath(new URL('..', import.meta.url));
const namespace = 'myjob-operator-system';

let env: Environment;
let admin: Client;
let operator: RunningOperatorManager<Manager> | undefined;

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
    const installed = await installChartOperator({
      env,
      operatorDir,
      release: 'myjob',
      namespace,
      serviceAccount: 'myjob-operator-controller-manager',
      createManager: (settings) =>
        new Manager({
          ...settings,
          logger: pino({ level: process.env.OPERATOR_LOG_LEVEL ?? 'silent' }),
        }),
      setup: (manager) => addMyJobController(manager),
      timeoutMs: 60_000,
    });
    operator = installed.operator;
    expect(installed.installed).toContain('STATUS: deployed');
    const sample = YAML.parse(
      await readFile(join(operatorDir, 'config/samples/myjob_v1beta1_myjob.yaml'), 'utf8'),
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
    await operator?.stop();
    operator = undefined;
    const crd = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/myjobs.myjob.github.com';
    const seen = await chartLifecycle({
      env,
      operatorDir,
      release: 'myjob',
      namespace,
      deployment: `/apis/apps/v1/namespaces/${namespace}/deployments/myjob-operator-controller-manager`,
      deleted: [
        `/apis/apps/v1/namespaces/${namespace}/deployments/myjob-operator-controller-manager`,
        '/apis/rbac.authorization.k8s.io/v1/clusterroles/myjob-operator-manager-role',
      ],
      kept: [crd],
    });
    // crds/: Helm never deletes them, so the custom resources survive an uninstall.
    expect(seen).toEqual(cleanChartLifecycle([crd]));
  });
});
