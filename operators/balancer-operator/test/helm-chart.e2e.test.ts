// The balancer-operator installed with its Helm chart (chart/, `ops-operator helm`) and Helm 4
// ($HELM, scripts/ensure-helm.sh) with the chart's defaults (`helm get values` is empty): the
// manager run in this process as the ServiceAccount the chart made under the RBAC the chart
// made (ChartRelease, as the other operators' chart suites; the Deployment's own Pod never runs
// its image here, kwok simulates it) making the sample of config/samples Ready, then
// `helm upgrade`, `helm rollback` and `helm uninstall`, which leaves nothing of the release
// behind but the CRD. `pnpm test` runs it on the local API server, `pnpm test:binaries` on the
// cluster plane (kube-apiserver, whose authorizer judges the chart's RBAC, and kwok nodes).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, type KubernetesObject, Manager } from '@ops/core';
import { ChartRelease, cleanChartLifecycle, eventually } from '@ops/envtest';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { type Balancer, balancerResource } from '../src/api/v1alpha1/balancer.js';
import { addBalancerController } from '../src/operator.js';

const operatorDir = fileURLToPath(new URL('..', import.meta.url));

let chart: ChartRelease;
let admin: Client;

beforeAll(async () => {
  chart = await ChartRelease.start({
    operatorDir,
    name: 'balancer-operator',
    release: 'balancer',
    requires: 'pods',
  });
  admin = new Client({ kubeConfig: chart.env.kubeConfig });
}, 120_000);

afterAll(async () => {
  admin?.close();
  await chart?.stop();
});

describe('balancer-operator, installed with its Helm chart', () => {
  it("installs with its defaults, and the manager under the chart's RBAC makes the sample Ready", {
    timeout: 180_000,
  }, async () => {
    const installed = await chart.installOperator({
      createManager: (settings) =>
        new Manager({
          ...settings,
          logger: pino({ level: process.env.OPERATOR_LOG_LEVEL ?? 'silent' }),
        }),
      // Name conflicts are looked at again every second, as the kustomize suite does.
      setup: (manager) => addBalancerController(manager, { conflictRecheckMs: 1000 }),
      timeoutMs: 60_000,
    });
    expect(installed).toContain('STATUS: deployed');
    expect(await chart.suppliedValues()).toEqual({});
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

    // The chart's helm test (templates/tests): its hooks admitted, its Pod run to success
    // (simulated by kwok on the cluster plane: its curl of the metrics Service does not run
    // here; myjob-operator's test/secure-metrics.e2e.test.ts runs that script against secured
    // metrics), then deleted (hook-delete-policy hook-succeeded; helmTest waits for that).
    const tested = await chart.helmTest();
    expect(tested).toMatch(/TEST SUITE: +balancer-operator-metrics-test\n[\s\S]*Phase: +Succeeded/);
  });

  it('upgrades, rolls back, and uninstalls every object of the release, keeping the CRD', {
    timeout: 120_000,
  }, async () => {
    const crd =
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/balancers.exposer.hliangzhao.io';
    const seen = await chart.lifecycle({ kept: [crd] });
    // crds/: Helm never deletes them, so the custom resources survive an uninstall.
    expect(seen).toEqual(cleanChartLifecycle([crd]));
  });
});
