import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServingCertificates } from '@ops/apiserver';
import { Client, type KubernetesObject } from '@ops/core';
import { WebhookServer, webhookConfigurations } from '@ops/core/webhook';
import pLimit from 'p-limit';
import { sidecarSetResource } from '../../../../operators/sidecar-operator/src/api/v1alpha1/sidecar-set.js';
import { createSidecarOperator } from '../../../../operators/sidecar-operator/src/operator.js';
import { mutatePodPath } from '../../../../operators/sidecar-operator/src/webhook/pod-injector.js';
import type { BenchContext, BenchmarkModule, BenchmarkResult } from '../benchmark.js';
import type { BenchServer } from '../harness/bench-server.js';
import { formatNumber, formatRatio } from '../harness/format.js';
import { startManager } from '../harness/manager.js';
import { percentile, ratio } from '../harness/stats.js';
import { waitUntil } from '../harness/wait.js';

const namespace = 'sidecar-bench';
const mutatingName = 'sidecar-bench-mutating';
/** AdmissionReviews in flight at once in the requests-per-second measurement. */
const concurrency = 8;

const pod = (name: string, app: string): KubernetesObject =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels: { app } },
    spec: { containers: [{ name: 'web', image: 'nginx:1.25' }] },
  }) as KubernetesObject;

/** Creates `count` Pods labelled `app` one at a time; resolves with each create's milliseconds. */
async function createPods(admin: Client, prefix: string, app: string, count: number) {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const created = await admin.create(pod(`${prefix}-${i}`, app));
    samples.push(performance.now() - started);
    const containers = (created as { spec?: { containers?: unknown[] } }).spec?.containers ?? [];
    if (app === 'web' && containers.length !== 2)
      throw new Error(`Pod ${prefix}-${i} was not injected: the benchmark measures nothing`);
  }
  return samples;
}

/** Sends `total` copies of `review` to the webhook, `concurrency` at a time; resolves with seconds. */
async function hammer(port: number, caCert: string, review: string, total: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency, ca: caCert });
  const post = () =>
    new Promise<void>((resolve, reject) => {
      const call = request(
        {
          host: '127.0.0.1',
          port,
          path: mutatePodPath,
          method: 'POST',
          agent,
          headers: { 'Content-Type': 'application/json' },
        },
        (response) => {
          let body = '';
          response.on('data', (chunk: Buffer) => {
            body += chunk.toString();
          });
          response.on('end', () => {
            const allowed = (
              JSON.parse(body) as { response?: { allowed?: boolean; patch?: string } }
            ).response;
            if (response.statusCode !== 200 || allowed?.allowed !== true || !allowed.patch)
              reject(new Error(`the webhook answered ${response.statusCode}: ${body}`));
            else resolve();
          });
        },
      );
      call.on('error', reject);
      call.end(review);
    });
  const limit = pLimit(concurrency);
  const started = performance.now();
  await Promise.all(Array.from({ length: total }, () => limit(post)));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return seconds;
}

/** The Pod webhook configuration, pointed at the bench process by URL on the loopback address. */
function podWebhookConfiguration(port: number, caCert: string): KubernetesObject {
  const [mutating] = webhookConfigurations(
    createSidecarOperator().webhooks.filter((webhook) => webhook.type === 'mutating'),
  );
  if (mutating === undefined) throw new Error('the sidecar-operator declares no mutating webhook');
  const configuration = structuredClone(mutating) as unknown as {
    metadata: { name: string };
    webhooks: Array<{ clientConfig: Record<string, unknown> }>;
  };
  configuration.metadata.name = mutatingName;
  for (const webhook of configuration.webhooks)
    webhook.clientConfig = {
      url: `https://127.0.0.1:${port}${mutatePodPath}`,
      caBundle: Buffer.from(caCert).toString('base64'),
    };
  return configuration as unknown as KubernetesObject;
}

/** Creates the webhook configuration and waits until the API server calls it. */
async function installWebhook(admin: Client, configuration: KubernetesObject): Promise<void> {
  await admin.create(configuration);
  let probe = 0;
  await waitUntil(
    async () => {
      const created = (await admin.create(pod(`probe-${probe++}`, 'web'), { dryRun: true })) as {
        spec?: { containers?: unknown[] };
      };
      return (created.spec?.containers?.length ?? 0) === 2;
    },
    'the API server to call the sidecar webhook',
    30_000,
    20,
  );
}

async function measure(server: BenchServer, count: number, log: (message: string) => void) {
  const admin = new Client({ kubeConfig: server.kubeConfig() });
  await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  log(`creating ${count} Pods without the webhook`);
  const baseline = await createPods(admin, 'plain', 'plain', count);
  await admin.create(sidecarSetResource.crd() as unknown as KubernetesObject);
  const certificates = await createServingCertificates(['127.0.0.1']);
  const certDir = await mkdtemp(join(tmpdir(), 'sidecar-bench-'));
  await writeFile(join(certDir, 'tls.crt'), certificates.cert);
  await writeFile(join(certDir, 'tls.key'), certificates.key);
  const operator = createSidecarOperator();
  const webhookServer = new WebhookServer({ port: 0, host: '127.0.0.1', certDir });
  for (const webhook of operator.webhooks) webhookServer.register(webhook);
  const running = await startManager(server, undefined, operator.setup, { webhookServer });
  try {
    const port = webhookServer.port;
    if (port === undefined) throw new Error('the webhook server started without a port');
    await waitUntil(
      () =>
        admin
          .create({
            apiVersion: sidecarSetResource.apiVersion,
            kind: 'SidecarSet',
            metadata: { name: 'logging' },
            spec: {
              selector: { matchLabels: { app: 'web' } },
              containers: [{ name: 'log-agent', image: 'busybox:1.36' }],
            },
          } as KubernetesObject)
          .then(
            () => true,
            () => false,
          ),
      'the SidecarSet CRD to be served',
    );
    await installWebhook(admin, podWebhookConfiguration(port, certificates.caCert));
    log(`creating ${count} Pods through the webhook, not matched`);
    const unmatched = await createPods(admin, 'other', 'other', count);
    log(`creating ${count} Pods through the webhook, injected`);
    const injected = await createPods(admin, 'web', 'web', count);
    log(`sending ${count * 5} AdmissionReviews to the webhook, ${concurrency} at a time`);
    const review = JSON.stringify({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      request: {
        uid: '00000000-0000-0000-0000-000000000000',
        kind: { group: '', version: 'v1', kind: 'Pod' },
        resource: { group: '', version: 'v1', resource: 'pods' },
        namespace,
        operation: 'CREATE',
        userInfo: { username: 'bench' },
        object: pod('review', 'web'),
      },
    });
    const reviewSeconds = await hammer(port, certificates.caCert, review, count * 5);
    return { baseline, unmatched, injected, reviews: count * 5, reviewSeconds };
  } finally {
    await running.stop();
    await rm(certDir, { recursive: true, force: true });
    admin.close();
  }
}

/**
 * The sidecar-operator's Pod webhook on the admission path: N Pods (default 1,000) created
 * one at a time, without the webhook, through it without a matching SidecarSet, and injected
 * by one; p50 and p99 of each create and the ratios to the baseline; then the webhook server's
 * AdmissionReviews per second when called directly (injecting, 8 in flight).
 */
export const sidecarAdmissionBenchmark: BenchmarkModule = {
  id: 'sidecar-admission',
  title: 'Pod admission with the sidecar webhook',
  description:
    'sidecar-operator: latency of Pod creation (N Pods one at a time, default 1,000; p50/p99) without the webhook, through it unmatched and injected, and the webhook’s AdmissionReviews per second.',
  async run({ options, startServer, log }: BenchContext): Promise<BenchmarkResult> {
    const count = options.steadyObjects;
    const server = await startServer();
    const { baseline, unmatched, injected, reviews, reviewSeconds } = await measure(
      server,
      count,
      log,
    );
    const p = (samples: number[], q: number) => percentile(samples, q);
    const rps = reviews / reviewSeconds;
    const injectedRatio = ratio(p(injected, 50), p(baseline, 50));
    return {
      id: this.id,
      title: this.title,
      metrics: [
        { name: 'Pod create without the webhook, p50', value: p(baseline, 50), unit: 'ms' },
        { name: 'Pod create without the webhook, p99', value: p(baseline, 99), unit: 'ms' },
        {
          name: 'Pod create through the webhook, not matched, p50',
          value: p(unmatched, 50),
          unit: 'ms',
        },
        {
          name: 'Pod create through the webhook, not matched, p99',
          value: p(unmatched, 99),
          unit: 'ms',
        },
        { name: 'Pod create injected, p50', value: p(injected, 50), unit: 'ms' },
        { name: 'Pod create injected, p99', value: p(injected, 99), unit: 'ms' },
        { name: 'injected / without the webhook, p50', value: injectedRatio, unit: '×' },
        {
          name: 'injected / without the webhook, p99',
          value: ratio(p(injected, 99), p(baseline, 99)),
          unit: '×',
        },
        { name: 'webhook AdmissionReviews per second', value: rps, unit: '/s' },
      ],
      targets: [],
      charts: [
        {
          title: 'Pod create latency, p50',
          unit: 'ms',
          bars: [
            { label: 'without webhook', value: p(baseline, 50) },
            { label: 'webhook, not matched', value: p(unmatched, 50) },
            { label: 'injected', value: p(injected, 50) },
          ],
        },
      ],
      notes: [
        `${count} Pods per variant, created one at a time by the admin client on the ${server.kind} server; the webhook runs in the bench process (the operator's own WebhookServer over TLS, called by URL on the loopback address, answering from its informer cache), with one SidecarSet selecting app: web. Injected is ${formatRatio(injectedRatio)} the baseline at p50. The requests-per-second figure is ${reviews} AdmissionReviews of an injected Pod sent straight to the webhook over keep-alive HTTPS, ${concurrency} in flight: ${formatNumber(rps)} /s.`,
      ],
      samples: { count, baseline, unmatched, injected, reviews, reviewSeconds },
    };
  },
};
