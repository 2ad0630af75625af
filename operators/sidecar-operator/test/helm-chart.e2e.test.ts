// The sidecar-operator installed with its Helm chart (chart/, `ops-operator helm`) and Helm 4
// ($HELM, scripts/ensure-helm.sh) in the chart's self-managed certificate mode (no
// cert-manager here): `helm install`, the operator's entry point run in this process with the
// installed Deployment's flags as the ServiceAccount the chart made (under the chart's RBAC
// only), making its own webhook certificate and injecting its CA (installWebhookChartOperator,
// as the application-operator's chart suite); the sample SidecarSet admitted by the validating
// webhook and reconciled, a Pod it selects given its sidecar by the Pod webhook, a SidecarSet
// without a selector denied; `helm upgrade` (the webhooks still answering), `helm rollback`
// and `helm uninstall`, which leaves nothing of the release behind but the CRD. `pnpm test`
// runs it on the local API server, `pnpm test:binaries` on real etcd + kube-apiserver.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, type Pod, runOperator } from '@ops/core';
import {
  chartLifecycle,
  cleanChartLifecycle,
  Environment,
  eventually,
  installWebhookChartOperator,
  type WebhookChartOperator,
} from '@ops/envtest';
import { dashboardMetricsMissing } from '@ops/operator-cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { type SidecarSet, sidecarSetResource } from '../src/api/v1alpha1/sidecar-set.js';
import { createSidecarOperator } from '../src/operator.js';
import { operatorRoot } from './sidecar-harness.js';

const namespace = 'sidecar-operator-system';
const release = 'sidecar';
const deployment = `/apis/apps/v1/namespaces/${namespace}/deployments/sidecar-operator-controller-manager`;

let env: Environment;
let admin: Client;
let scratch: string;
let operator: WebhookChartOperator | undefined;

beforeAll(async () => {
  env = await Environment.start({ apiServer: { rbac: true } });
  admin = new Client({ kubeConfig: env.kubeConfig });
  scratch = await mkdtemp(join(tmpdir(), 'sidecar-operator-helm-chart-'));
}, 120_000);

afterAll(async () => {
  await operator?.stop();
  admin?.close();
  await env?.stop();
  if (scratch) await rm(scratch, { recursive: true, force: true });
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

describe('sidecar-operator, installed with its Helm chart (self-managed certificates)', () => {
  it('installs, and the operator under the chart RBAC admits the sample, reconciles it and injects its sidecar', {
    timeout: 240_000,
  }, async () => {
    operator = await installWebhookChartOperator({
      env,
      operatorDir: operatorRoot,
      release,
      namespace,
      serviceAccount: 'sidecar-operator-controller-manager',
      helmArgs: ['--set', 'webhook.certificates=self-managed'],
      directory: scratch,
      deployment,
      definition: createSidecarOperator(),
      runOperator,
    });
    expect(operator.installed).toContain('STATUS: deployed');
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

  it('upgrades (the webhooks still answering), rolls back, and uninstalls everything but the CRD', {
    timeout: 180_000,
  }, async () => {
    const crd = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/sidecarsets.${sidecarSetResource.group}`;
    const seen = await chartLifecycle({
      env,
      operatorDir: operatorRoot,
      release,
      namespace,
      deployment,
      upgradeArgs: operator?.upgradeArgs ?? [],
      helmEnv: operator?.helmEnv ?? {},
      afterUpgrade: async () => {
        expect(containerNames(await webPod('after-upgrade'))).toEqual(['web', 'log-agent']);
        await admin.delete({ apiVersion: 'v1', kind: 'Pod', name: 'web-1', namespace: 'default' });
        await admin.delete({
          apiVersion: sidecarSetResource.apiVersion,
          kind: 'SidecarSet',
          name: 'logging',
        });
        expect(await operator?.stop()).toBe(0);
        operator = undefined;
      },
      deleted: [
        deployment,
        `/api/v1/namespaces/${namespace}/secrets/sidecar-operator-webhook-server-cert`,
        `/api/v1/namespaces/${namespace}/services/sidecar-operator-webhook-service`,
        `/api/v1/namespaces/${namespace}/serviceaccounts/sidecar-operator-controller-manager`,
        '/apis/rbac.authorization.k8s.io/v1/clusterroles/sidecar-operator-manager-role',
        '/apis/rbac.authorization.k8s.io/v1/clusterroles/sidecar-operator-self-managed-certs-role',
        `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/roles/sidecar-operator-self-managed-certs-role`,
        '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/sidecar-operator-validating-webhook-configuration',
        '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/sidecar-operator-mutating-webhook-configuration',
      ],
      kept: [crd],
    });
    // crds/: Helm never deletes them, so the custom resources survive an uninstall.
    expect(seen).toEqual(cleanChartLifecycle([crd]));
  });
});
