// The sidecar-operator installed with its Helm chart (chart/, `ops-operator helm`) and Helm 4
// ($HELM, scripts/ensure-helm.sh) with the chart's defaults, whose certificate mode is
// self-managed (no cert-manager needed, none here): `helm install`, the operator's entry point
// run in this process with the installed Deployment's flags as the ServiceAccount the chart
// made (under the chart's RBAC only), making its own webhook certificate and injecting its CA
// (ChartRelease, as the other operators' chart suites); the sample SidecarSet admitted by the
// validating webhook and reconciled, a Pod it selects given its sidecar by the Pod webhook, a
// SidecarSet without a selector denied; `helm upgrade` (the webhooks still answering),
// `helm rollback` and `helm uninstall`, which leaves nothing of the release behind but the CRD.
// No value is overridden (`helm get values` is empty). What the plane needs instead: it has no
// kube-proxy to reach the webhook Service, and the Deployment's Pod never runs its image here,
// so a Helm post-renderer points the webhook configurations at the operator in this process by
// URL. `pnpm test` runs it on the local API server, `pnpm test:binaries` on real etcd +
// kube-apiserver.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, type Pod, runOperator } from '@ops/core';
import { ChartRelease, cleanChartLifecycle, eventually } from '@ops/envtest';
import { dashboardMetricsMissing } from '@ops/operator-cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { type SidecarSet, sidecarSetResource } from '../src/api/v1alpha1/sidecar-set.js';
import { createSidecarOperator } from '../src/operator.js';
import { operatorRoot } from './sidecar-harness.js';

let chart: ChartRelease;
let admin: Client;

beforeAll(async () => {
  chart = await ChartRelease.start({
    operatorDir: operatorRoot,
    name: 'sidecar-operator',
    release: 'sidecar',
  });
  admin = new Client({ kubeConfig: chart.env.kubeConfig });
}, 120_000);

afterAll(async () => {
  admin?.close();
  await chart?.stop();
});

/** A Pod the sample selects (`app: web`), as the API server would store it (dry run unless `persist`). */
function webPod(name: string, persist = false): Promise<Pod> {
  return admin.create<Pod>(
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'default', labels: { app: 'web' } },
      spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] },
    } as Pod,
    persist ? {} : { dryRun: true },
  );
}

const containerNames = (pod: Pod) => (pod.spec?.containers ?? []).map((c) => c.name);

describe('sidecar-operator, installed with its Helm chart and its defaults (self-managed certificates)', () => {
  it('installs, and the operator under the chart RBAC admits the sample, reconciles it and injects its sidecar', {
    timeout: 240_000,
  }, async () => {
    const operator = await chart.installWebhookOperator({
      definition: createSidecarOperator(),
      runOperator,
    });
    expect(operator.installed).toContain('STATUS: deployed');
    expect(await chart.suppliedValues()).toEqual({});
    expect(operator.installed).toContain('Webhook certificates: self-managed');
    expect(operator.args).toContain('--webhook-cert-mode=self-managed');

    const sample = YAML.parse(
      await readFile(join(operatorRoot, 'config/samples/apps_v1alpha1_sidecarset.yaml'), 'utf8'),
    ) as SidecarSet;
    // Until the operator serves with the CA it injects, the API server cannot call it.
    await eventually(() => admin.create(sample), {
      description: 'the sample SidecarSet admitted by the validating webhook',
      timeoutMs: 90_000,
    });
    await expect(
      admin.create({
        apiVersion: sidecarSetResource.apiVersion,
        kind: 'SidecarSet',
        metadata: { name: 'no-selector' },
        spec: { containers: [{ name: 'c', image: 'busybox:1.36' }] },
      } as SidecarSet),
    ).rejects.toThrow(
      'admission webhook "vsidecarset.kb.io" denied the request: SidecarSet.apps.chinalhr.github.io "no-selector" is invalid: spec.selector: Required value: no selector defined for sidecarset',
    );
    // The Pod webhook answers from the operator's cache: once it holds the sample, a Pod the
    // sample selects gets its sidecar.
    await eventually(
      async () => expect(containerNames(await webPod('web-probe'))).toEqual(['web', 'log-agent']),
      { description: 'a dry-run Pod given the sample sidecar', timeoutMs: 60_000 },
    );
    expect(containerNames(await webPod('web-1', true))).toEqual(['web', 'log-agent']);
    // Reconciled: the status counts the Pod.
    const reconciled = await eventually(
      async () => {
        const current = await admin.get(sidecarSetResource, 'logging');
        return (
          current.status?.observedGeneration === current.metadata.generation &&
          current.status?.matchedPods === 1 &&
          current
        );
      },
      { description: 'the sample SidecarSet reconciled, matching web-1', timeoutMs: 60_000 },
    );
    expect(reconciled.status?.matchedPods).toBe(1);

    // Every metric the generated Grafana dashboard queries, webhooks' included, is on the page.
    const page = await operator.scrapeMetrics();
    const dashboard = await dashboardMetricsMissing(operatorRoot, page);
    expect(dashboard.queried).toContain('controller_runtime_webhook_latency_seconds');
    expect(dashboard.missing).toEqual([]);
    expect(page).toMatch(
      /controller_runtime_webhook_requests_total\{webhook="\/mutate-sidecar-pod",code="200"\} [1-9]/,
    );
  });

  it('upgrades (the webhooks still answering), rolls back, and uninstalls every object of the release, keeping the CRD', {
    timeout: 180_000,
  }, async () => {
    const crd = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/sidecarsets.${sidecarSetResource.group}`;
    const seen = await chart.lifecycle({
      afterUpgrade: async () => {
        expect(containerNames(await webPod('after-upgrade'))).toEqual(['web', 'log-agent']);
        await admin.delete({ apiVersion: 'v1', kind: 'Pod', name: 'web-1', namespace: 'default' });
        await admin.delete({
          apiVersion: sidecarSetResource.apiVersion,
          kind: 'SidecarSet',
          name: 'logging',
        });
      },
      kept: [crd],
    });
    // crds/: Helm never deletes them, so the custom resources survive an uninstall.
    expect(seen).toEqual(cleanChartLifecycle([crd]));
  });
});
