// The balancer-operator installed with its Helm chart (chart/, `ops-operator helm`) and Helm 4
// ($HELM, scripts/ensure-helm.sh): `helm install` with the chart's defaults, the manager run as
// the ServiceAccount the chart made under the RBAC the chart made (installChartOperator, as the
// kustomize suites run it) making the sample of config/samples Ready, then `helm upgrade`,
// `helm rollback` and `helm uninstall`. `pnpm test` runs it on the local API server,
// `pnpm test:binaries` on the cluster plane (kube-apiserver, whose authorizer judges the
// chart's RBAC, and kwok nodes).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, type KubernetesObject, Manager } from '@ops/core';
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
import { type Balancer, balancerResource } from '../src/api/v1alpha1/balancer.js';
import { addBalancerController } from '../src/operator.js';

const operatorDir = fileURLToPath(new URL('..', import.meta.url));
const namespace = 'balancer-operator-system';

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

describe('balancer-operator, installed with its Helm chart', () => {
  it("installs with its defaults, and the manager under the chart's RBAC makes the sample Ready", {
    timeout: 180_000,
  }, async () => {
    const installed = await installChartOperator({
      env,
      operatorDir,
      release: 'balancer',
      namespace,
      serviceAccount: 'balancer-operator-controller-manager',
      createManager: (settings) =>
        new Manager({
          ...settings,
          logger: pino({ level: process.env.OPERATOR_LOG_LEVEL ?? 'silent' }),
        }),
      // Name conflicts are looked at again every second, as the kustomize suite does.
      setup: (manager) => addBalancerController(manager, { conflictRecheckMs: 1000 }),
      timeoutMs: 60_000,
    });
    operator = installed.operator;
    expect(installed.installed).toContain('STATUS: deployed');
    for (const file of ['echo_backends.yaml', 'exposer_v1alpha1_balancer.yaml']) {
      const text = await readFile(join(operatorDir, 'config/samples', file), 'utf8');
      for (const document of YAML.parseAllDocuments(text)) {
        const object = document.toJS() as KubernetesObject;
        object.metadata = { ...object.metadata, namespace: 'default' };
        await admin.create(object);
      }
    }
    const ready = await eventually(
      async () => {
        const balancer = (await admin.get(
          balancerResource,
          'balancer-sample',
          'default',
        )) as Balancer;
        const condition = balancer.status?.conditions?.find((c) => c.type === 'Ready');
        return (
          balancer.status?.observedGeneration === balancer.metadata.generation &&
          condition?.status === 'True' &&
          balancer
        );
      },
      { description: 'the sample Balancer Ready', timeoutMs: 120_000 },
    );
    expect(ready.status).toMatchObject({ activeBackendsNum: 3 });
  });

  it('upgrades, rolls back, and uninstalls everything but the CRDs', {
    timeout: 120_000,
  }, async () => {
    await operator?.stop();
    operator = undefined;
    const crd =
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/balancers.exposer.hliangzhao.io';
    const seen = await chartLifecycle({
      env,
      operatorDir,
      release: 'balancer',
      namespace,
      deployment: `/apis/apps/v1/namespaces/${namespace}/deployments/balancer-operator-controller-manager`,
      deleted: [
        `/apis/apps/v1/namespaces/${namespace}/deployments/balancer-operator-controller-manager`,
        '/apis/rbac.authorization.k8s.io/v1/clusterroles/balancer-operator-manager-role',
      ],
      kept: [crd],
    });
    // crds/: Helm never deletes them, so the custom resources survive an uninstall.
    expect(seen).toEqual(cleanChartLifecycle([crd]));
  });
});
