// Secured metrics, as kubebuilder v4.1+ ships them: the manager serves /metrics over HTTPS and
// asks the API server about every scrape (TokenReview, then SubjectAccessReview of get
// /metrics) as its own ServiceAccount, under the metrics-auth-role `pnpm run manifests`
// generated; a scraper needs the metrics-reader ClusterRole. `pnpm test` runs it on the local
// API server, `pnpm test:binaries` on real etcd + kube-apiserver, whose authenticator and
// authorizer then answer the reviews.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServingCertificates } from '@ops/apiserver';
import { type KubernetesObject, Manager } from '@ops/core';
import { WebhookServer } from '@ops/core/webhook';
import {
  type Environment,
  type RunningOperatorManager,
  startOperatorEnvironment,
  startOperatorManager,
} from '@ops/envtest';
import { dashboardMetrics, dashboardPath } from '@ops/operator-cli';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { addMyJobController } from '../src/operator.js';
import { myJobConversion } from '../src/webhook/my-job-conversion.js';

const operatorRoot = fileURLToPath(new URL('..', import.meta.url));
const prefix = 'myjob-operator-';

let env: Environment;
let rendered: KubernetesObject[];
let operator: RunningOperatorManager<Manager>;
let port: number;
let certDir: string;

beforeAll(async () => {
  // The operator serves its conversion webhook, so the dashboard charts webhook metrics too:
  // the manager gets the webhook server it runs with (its certificate self-signed here).
  certDir = await mkdtemp(join(tmpdir(), 'myjob-operator-metrics-certs-'));
  const certificates = await createServingCertificates(['127.0.0.1']);
  await writeFile(join(certDir, 'tls.crt'), certificates.cert);
  await writeFile(join(certDir, 'tls.key'), certificates.key);
  const webhookServer = new WebhookServer({ port: 0, host: '127.0.0.1', certDir });
  webhookServer.register(myJobConversion);
  const started = await startOperatorEnvironment(operatorRoot);
  env = started.env;
  rendered = started.rendered;
  operator = await startOperatorManager({
    identity: started.identity,
    createManager: (settings) =>
      new Manager({
        ...settings,
        logger: pino({ level: process.env.OPERATOR_LOG_LEVEL ?? 'silent' }),
        metricsBindAddress: { host: '127.0.0.1', port: 0 },
        metricsSecureServing: true,
        webhookServer,
      }),
    setup: (manager) => addMyJobController(manager),
  });
  port = operator.manager.metricsServer?.port ?? 0;
}, 180_000);

afterAll(async () => {
  await operator?.stop();
  await env?.stop();
  if (certDir) await rm(certDir, { recursive: true, force: true });
});

/**
 * Runs the script of the chart's `helm test` Pod (templates/tests/metrics-test.yaml, as
 * `helm template` renders it) with sh and the curl of this machine, against this manager's
 * secured metrics, with `token` as the Pod's ServiceAccount token; resolves with its exit code
 * and output.
 */
async function runChartMetricsTest(token: string): Promise<{ code: number; output: string }> {
  const rendered = await env.helm(
    ['template', 'myjob', 'chart', '--show-only', 'templates/tests/metrics-test.yaml'],
    { cwd: operatorRoot },
  );
  const pod = YAML.parseAllDocuments(rendered)
    .map((document) => document.toJS() as KubernetesObject & { spec?: Record<string, unknown> })
    .find((object) => object.kind === 'Pod');
  const container = (pod?.spec?.containers as { command: string[] }[] | undefined)?.[0];
  const script = container?.command[2] ?? '';
  expect(container?.command.slice(0, 2)).toEqual(['sh', '-c']);
  const tokenFile = join(certDir, 'token');
  await writeFile(tokenFile, token);
  return new Promise((resolve) => {
    execFile(
      'sh',
      ['-c', script],
      {
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          METRICS_URL: `https://127.0.0.1:${port}/metrics`,
          METRICS_SECURE: 'true',
          TOKEN_FILE: tokenFile,
        },
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

/** GET https://127.0.0.1:<port>/metrics (self-signed, so not verified) with a bearer token. */
function scrape(token: string | undefined): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/metrics',
        rejectUnauthorized: false,
        headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('myjob-operator metrics, secured', () => {
  it('ships metrics-reader and the metrics-auth-role bound to the manager', () => {
    const names = rendered.map((object) => `${object.kind}/${object.metadata?.name}`);
    expect(names).toEqual(
      expect.arrayContaining([
        `ClusterRole/${prefix}metrics-reader`,
        `ClusterRole/${prefix}metrics-auth-role`,
        `ClusterRoleBinding/${prefix}metrics-auth-rolebinding`,
      ]),
    );
  });

  it("serves a token bound to metrics-reader (200) every metric the Grafana dashboard queries, refuses one without it (403) and none (401); the chart's helm test script passes with the first and fails with the second", {
    timeout: 120_000,
  }, async () => {
    const reader = rendered.find(
      (object) =>
        object.kind === 'ClusterRole' && object.metadata?.name === `${prefix}metrics-reader`,
    ) as KubernetesObject;
    const prometheus = await env.serviceAccount({
      namespace: 'monitoring',
      name: 'prometheus',
      rbac: [
        reader,
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRoleBinding',
          metadata: { name: 'prometheus-metrics-reader' },
          roleRef: {
            apiGroup: 'rbac.authorization.k8s.io',
            kind: 'ClusterRole',
            name: `${prefix}metrics-reader`,
          },
          subjects: [{ kind: 'ServiceAccount', name: 'prometheus', namespace: 'monitoring' }],
        } as KubernetesObject,
      ],
    });
    const stranger = await env.serviceAccount({ namespace: 'monitoring', name: 'stranger' });

    const allowed = await scrape(prometheus.token);
    expect(allowed.status, allowed.body).toBe(200);
    expect(allowed.body).toContain('# TYPE controller_runtime_reconcile_total counter');
    expect(allowed.body).toContain(
      'controller_runtime_max_concurrent_reconciles{controller="my-job"}',
    );

    // Every metric the generated Grafana dashboard queries is on the page.
    const dashboard = JSON.parse(
      await readFile(join(operatorRoot, dashboardPath), 'utf8'),
    ) as Parameters<typeof dashboardMetrics>[0];
    const queried = dashboardMetrics(dashboard);
    expect(queried.length).toBeGreaterThan(10);
    for (const metric of queried) expect(allowed.body, metric).toContain(`# TYPE ${metric} `);

    const forbidden = await scrape(stranger.token);
    expect(forbidden.status, forbidden.body).toBe(403);
    expect(forbidden.body).toMatch(
      /^Forbidden: user "system:serviceaccount:monitoring:stranger" may not get \/metrics/,
    );

    const anonymous = await scrape(undefined);
    expect(anonymous.status).toBe(401);
    expect((await scrape(`${prometheus.token}x`)).status).toBe(401);

    // The chart's helm test script, as its Pod runs it (here with this machine's sh and curl):
    // passes with a token bound to metrics-reader (after its 401 without one), fails on a 403.
    const passed = await runChartMetricsTest(prometheus.token);
    expect(passed, passed.output).toEqual({
      code: 0,
      output: `GET https://127.0.0.1:${port}/metrics answered the manager's metrics\n`,
    });
    const refused = await runChartMetricsTest(stranger.token);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain('403');
  });
});
