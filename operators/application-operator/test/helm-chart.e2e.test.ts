// The application-operator installed with its Helm chart (chart/, `ops-operator helm`) and
// Helm 4 ($HELM, scripts/ensure-helm.sh) with the chart's defaults, whose certificate mode is
// self-managed (no cert-manager needed, none here): `helm install`, the operator's entry point
// run in this process with the installed Deployment's flags as the ServiceAccount the chart
// made (under the chart's RBAC only), making its own webhook certificate and injecting its CA;
// the sample admitted through both webhooks and reconciled; `helm upgrade` (the webhooks still
// answering), `helm rollback` and `helm uninstall`, which leaves nothing of the release behind
// but the CRD (ChartRelease, as the other operators' chart suites).
// No value is overridden (`helm get values` is empty). What the plane needs instead: it has no
// kube-proxy to reach the webhook Service, and the Deployment's Pod never runs its image here,
// so a Helm post-renderer points the webhook configurations at the operator in this process by
// URL (webhooksByUrlPostRenderer); everything else is installed as the chart renders it.
// `pnpm test` runs it on the local API server, `pnpm test:binaries` on real etcd +
// kube-apiserver, whose authorizer judges the chart's RBAC.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, type KubernetesObject, runOperator } from '@ops/core';
import { ChartRelease, cleanChartLifecycle, eventually } from '@ops/envtest';
import { dashboardMetricsMissing } from '@ops/operator-cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { type Application, applicationResource } from '../src/api/v1/application.js';
import { applicationOperator } from '../src/operator.js';
import { operatorRoot } from './tooling-support.js';

let chart: ChartRelease;
let admin: Client;

beforeAll(async () => {
  chart = await ChartRelease.start({
    operatorDir: operatorRoot,
    name: 'application-operator',
    release: 'application',
  });
  admin = new Client({ kubeConfig: chart.env.kubeConfig });
}, 120_000);

afterAll(async () => {
  admin?.close();
  await chart?.stop();
});

/** Creates the Application `name` in `default`; what the API server stored, after admission. */
function createApplication(name: string, spec: Record<string, unknown>): Promise<Application> {
  return admin.create<Application>({
    apiVersion: applicationResource.apiVersion,
    kind: 'Application',
    metadata: { name, namespace: 'default' },
    spec,
  } as Application);
}

describe('application-operator, installed with its Helm chart and its defaults (self-managed certificates)', () => {
  it('installs, and the operator under the chart RBAC admits and reconciles the sample through its own certificates', {
    timeout: 240_000,
  }, async () => {
    const operator = await chart.installWebhookOperator({
      definition: applicationOperator,
      runOperator,
    });
    expect(operator.installed).toContain('STATUS: deployed');
    expect(await chart.suppliedValues()).toEqual({});
    expect(operator.installed).toContain('Webhook certificates: self-managed');
    expect(operator.args).toContain('--webhook-cert-mode=self-managed');
    // Helm 4 applies a new release with server-side apply: its field manager's Apply entry.
    const installedDeployment = await admin.get<KubernetesObject>({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: 'application-operator-controller-manager',
      namespace: chart.namespace,
    });
    expect(installedDeployment.metadata?.managedFields).toContainEqual(
      expect.objectContaining({ manager: 'helm', operation: 'Apply' }),
    );

    // The sample (OPERATORS.md's) without `enabled`: the mutating webhook defaults it.
    const sample = YAML.parse(
      await readFile(join(operatorRoot, 'config/samples/core_v1_application.yaml'), 'utf8'),
    ) as Application;
    const { enabled: _defaulted, ...spec } = sample.spec;
    // Until the operator serves with the CA it injects, the API server cannot call it.
    const created = await eventually(
      () => createApplication(sample.metadata.name ?? 'demo', spec),
      {
        description: 'the sample admitted by the webhooks',
        timeoutMs: 90_000,
      },
    );
    expect(created.spec.enabled).toBe(true);
    // The validating webhook, through the certificate the operator made.
    await expect(createApplication('bad', { image: 'Nginx:latest!' })).rejects.toThrow(
      'admission webhook "vapplication-v1.lixueduan.com" denied the request: invalid image name: Nginx:latest!',
    );
    // The caBundle the operator injected, into the configurations Helm installed.
    const validating = await admin.get<
      KubernetesObject & { webhooks: { clientConfig: { caBundle?: string } }[] }
    >({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      name: 'application-operator-validating-webhook-configuration',
    });
    expect(validating.webhooks[0]?.clientConfig.caBundle).toMatch(/^LS0t/);
    // Reconciled: the owned Deployment, the finalizer.
    const owned = await eventually(
      () =>
        admin.get<KubernetesObject>({
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name: `app-${sample.metadata.name}`,
          namespace: 'default',
        }),
      { description: 'the sample Application owns its Deployment', timeoutMs: 60_000 },
    );
    expect(owned.metadata?.ownerReferences?.[0]).toMatchObject({
      kind: 'Application',
      controller: true,
    });

    // Every metric the generated Grafana dashboard queries, webhooks' included, is on the page.
    const page = await operator.scrapeMetrics();
    const dashboard = await dashboardMetricsMissing(operatorRoot, page);
    expect(dashboard.queried).toContain('controller_runtime_webhook_latency_seconds');
    expect(dashboard.missing).toEqual([]);
    expect(page).toMatch(
      /controller_runtime_webhook_requests_total\{webhook="\/mutate-core-crd-lixueduan-com-v1-application",code="200"\} [1-9]/,
    );
  });

  it('upgrades (the webhooks still answering), rolls back, and uninstalls every object of the release, keeping the CRD', {
    timeout: 180_000,
  }, async () => {
    const crd = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/applications.${applicationResource.group}`;
    const seen = await chart.lifecycle({
      afterUpgrade: async () => {
        const upgraded = await createApplication('after-upgrade', { image: 'nginx:1.27' });
        expect(upgraded.spec.enabled).toBe(true);
        // The operator removes its finalizer from what it owns before it stops.
        for (const name of ['demo', 'after-upgrade']) {
          await admin.delete({
            apiVersion: applicationResource.apiVersion,
            kind: 'Application',
            name,
            namespace: 'default',
          });
        }
        await eventually(
          async () =>
            (
              await admin.list<Application>(applicationResource.apiVersion, 'Application', {
                namespace: 'default',
              })
            ).items.length === 0,
          { description: 'the Applications deleted (finalizers removed)', timeoutMs: 60_000 },
        );
      },
      kept: [crd],
    });
    // crds/: Helm never deletes them, so the custom resources survive an uninstall.
    expect(seen).toEqual(cleanChartLifecycle([crd]));
  });
});
