import { Client, type KubernetesObject } from '@ops/core';
import {
  type Application,
  applicationResource,
} from '../../../../operators/application-operator/src/api/v1/application.js';
import { addApplicationController } from '../../../../operators/application-operator/src/operator.js';
import type { BenchContext, BenchmarkModule, BenchmarkResult } from '../benchmark.js';
import { formatNumber } from '../harness/format.js';
import { startManager } from '../harness/manager.js';
import { waitUntil } from '../harness/wait.js';
import { writesAtRest } from '../harness/writes-at-rest.js';

const namespace = 'applications';
const writeVerbs = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

/**
 * The application-operator at scale: N Applications are created at once on a local API
 * server whose simulated cluster runs their Deployments; measured is the time until every
 * Application reports `status.ready`, the operator's writes to get there, and its writes
 * once everything is ready and nothing changes (must be 0).
 */
export const applicationsReadyBenchmark: BenchmarkModule = {
  id: 'applications',
  title: 'Applications ready',
  description:
    'application-operator: time until N Applications (default 1,000) are ready on the simulated cluster, writes to get there, and writes at rest (must be 0).',
  unsupportedOn: {
    real: "needs a cluster that runs Deployments and Pods (the local server's simulated cluster); the real server is etcd + kube-apiserver without kube-controller-manager or nodes",
  },
  async run({ options, startServer, log }: BenchContext): Promise<BenchmarkResult> {
    const count = options.steadyObjects;
    const server = await startServer({ cluster: true });
    const admin = new Client({ kubeConfig: server.kubeConfig() });
    await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
    await admin.create(applicationResource.crd() as unknown as KubernetesObject);
    let operatorWrites = 0;
    const running = await startManager(
      server,
      namespace,
      (manager) => addApplicationController(manager),
      {
        onRequest: (verb) => {
          if (writeVerbs.has(verb)) operatorWrites++;
        },
      },
    );
    const readyCount = () =>
      running.manager.cache
        .list(applicationResource.apiVersion, applicationResource.kind, { namespace })
        .filter((object) => (object as Application).status?.ready === true).length;
    log(`creating ${count} Applications`);
    const started = performance.now();
    for (let i = 0; i < count; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, count - i) }, (_, j) =>
          admin.create({
            apiVersion: applicationResource.apiVersion,
            kind: 'Application',
            metadata: { name: `app-${i + j}`, namespace },
            spec: { image: `nginx:1.${20 + ((i + j) % 7)}` },
          }),
        ),
      );
    }
    const created = performance.now();
    await waitUntil(() => readyCount() === count, `${count} Applications to be ready`, 300_000, 20);
    const ready = performance.now();
    const writesToReady = operatorWrites;
    const { settled, quietWrites } = await writesAtRest(() => operatorWrites, options.quietMs);
    await running.stop();
    const seconds = (ready - started) / 1000;
    return {
      id: this.id,
      title: this.title,
      metrics: [
        { name: `time until ${count} Applications are ready`, value: seconds, unit: 's' },
        { name: 'of which creating them', value: (created - started) / 1000, unit: 's' },
        { name: 'Applications ready per second', value: count / seconds, unit: '/s' },
        {
          name: 'operator writes until all ready, per Application',
          value: writesToReady / count,
          unit: 'writes',
        },
        { name: 'operator writes at rest', value: quietWrites, unit: 'writes' },
      ],
      targets: [
        {
          target: '0 writes while nothing changes',
          measured: `${quietWrites} writes in ${formatNumber(options.quietMs / 1000)} s`,
          met: quietWrites === 0,
        },
      ],
      charts: [],
      notes: [
        `${count} Applications created in batches of 50 on a local API server with its simulated cluster (Deployments -> ReplicaSets -> Pods that start at once); ready = status.ready on every Application, read from the operator's cache. Writes are the operator's (finalizer, Deployment, status patches).`,
      ],
      samples: { count, seconds, writesToReady, settled, quietWrites },
    };
  },
};
