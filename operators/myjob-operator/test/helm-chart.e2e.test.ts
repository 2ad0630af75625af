// The myjob-operator installed with its Helm chart (chart/, `ops-operator helm`) and Helm 4
// ($HELM, scripts/ensure-helm.sh) with the chart's defaults, whose certificate mode is
// self-managed (no cert-manager needed, none here): `helm install`, the operator's entry point
// run in this process with the installed Deployment's flags as the ServiceAccount the chart
// made (under the chart's RBAC only), making its own webhook certificate and injecting its CA
// into the MyJob CRD, whose v1beta1 converts through the operator's webhook (ChartRelease, as
// the other operators' chart suites). The sample of config/samples, written in v1beta1,
// finishes; then `helm upgrade`, `helm rollback` and `helm uninstall`, which leaves nothing of
// the release behind but the CRD.
// No value is overridden (`helm get values` is empty). What the plane needs instead: it has no
// kube-proxy to reach the webhook Service, and the Deployment's Pod never runs its image here
// (kwok simulates it), so the test points the CRD's conversion at the operator in this process
// by URL (Helm installs crds/ as they are, no post-renderer), as the post-renderer does for
// admission webhooks. `pnpm test` runs it on the local API server, `pnpm test:binaries` on the
// cluster plane (kube-apiserver and kwok nodes).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, type KubernetesObject, runOperator } from '@ops/core';
import { ChartRelease, cleanChartLifecycle, eventually } from '@ops/envtest';
import { dashboardMetricsMissing } from '@ops/operator-cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { myJobResource } from '../src/api/v1/my-job.js';
import { myjobOperator } from '../src/operator.js';

const operatorDir = fileURLToPath(new URL('..', import.meta.url));
const crdPath = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/myjobs.${myJobResource.group}`;

let chart: ChartRelease;
let admin: Client;

beforeAll(async () => {
  chart = await ChartRelease.start({
    operatorDir,
    name: 'myjob-operator',
    release: 'myjob',
    requires: 'pods',
  });
  admin = new Client({ kubeConfig: chart.env.kubeConfig });
}, 120_000);

afterAll(async () => {
  admin?.close();
  await chart?.stop();
});

/** Points the installed CRD's conversion webhook at this process (the CA the operator injects kept). */
async function routeConversion(port: number): Promise<void> {
  const ref = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    name: `myjobs.${myJobResource.group}`,
  };
  const crd = await admin.get<
    KubernetesObject & {
      spec: { conversion?: { webhook?: { clientConfig?: { caBundle?: string } } } };
    }
  >(ref);
  const caBundle = crd.spec.conversion?.webhook?.clientConfig?.caBundle;
  await admin.patch(
    ref,
    {
      spec: {
        conversion: {
          webhook: {
            clientConfig: {
              service: null,
              url: `https://127.0.0.1:${port}/convert`,
              ...(caBundle ? { caBundle } : {}),
            },
          },
        },
      },
    },
    'merge',
  );
}

describe('myjob-operator, installed with its Helm chart and its defaults (self-managed certificates)', () => {
  it('installs, and the operator under the chart RBAC converts and finishes the v1beta1 sample', {
    timeout: 240_000,
  }, async () => {
    const operator = await chart.installWebhookOperator({ definition: myjobOperator, runOperator });
    expect(operator.installed).toContain('STATUS: deployed');
    expect(await chart.suppliedValues()).toEqual({});
    expect(operator.installed).toContain('Webhook certificates: self-managed');
    expect(operator.args).toContain('--webhook-cert-mode=self-managed');
    await routeConversion(operator.webhookPort);

    const sample = YAML.parse(
      await readFile(join(operatorDir, 'config/samples/myjob_v1beta1_myjob.yaml'), 'utf8'),
    ) as KubernetesObject;
    sample.metadata = { ...sample.metadata, namespace: 'default' };
    // Until the operator serves with the CA it injects, the API server cannot convert.
    await eventually(() => admin.create(sample), {
      description: 'the v1beta1 sample stored through the conversion webhook',
      timeoutMs: 90_000,
    });
    const done = await eventually(
      async () => {
        const job = await admin.get(myJobResource, sample.metadata?.name ?? '', 'default');
        return job.status?.phase === 'completed' && job;
      },
      { description: 'the sample MyJob completed', timeoutMs: 90_000 },
    );
    expect(done.status).toMatchObject({ phase: 'completed', podPhase: 'Succeeded' });

    // The chart's helm test (templates/tests): its hooks admitted, its Pod run to success
    // (simulated by kwok on the cluster plane: its curl of the metrics Service does not run
    // here; myjob-operator's test/secure-metrics.e2e.test.ts runs that script against secured
    // metrics), then deleted (hook-delete-policy hook-succeeded; helmTest waits for that).
    const tested = await chart.helmTest();
    expect(tested).toMatch(/TEST SUITE: +myjob-operator-metrics-test\n[\s\S]*Phase: +Succeeded/);

    // Every metric the generated Grafana dashboard queries, the conversion webhook's included.
    const page = await operator.scrapeMetrics();
    const dashboard = await dashboardMetricsMissing(operatorDir, page);
    expect(dashboard.queried).toContain('controller_runtime_webhook_latency_seconds');
    expect(dashboard.missing).toEqual([]);
    expect(page).toMatch(
      /controller_runtime_webhook_requests_total\{webhook="\/convert",code="200"\} [1-9]/,
    );
  });

  it('upgrades, rolls back, and uninstalls every object of the release, keeping the CRD', {
    timeout: 180_000,
  }, async () => {
    const seen = await chart.lifecycle({ kept: [crdPath] });
    // crds/: Helm never deletes them, so the custom resources survive an uninstall.
    expect(seen).toEqual(cleanChartLifecycle([crdPath]));
  });
});
