import type { KubernetesObject } from '@ops/core';
import {
  type Application,
  applicationResource,
} from '../../../../operators/application-operator/src/api/v1/application.js';
import { addApplicationController } from '../../../../operators/application-operator/src/operator.js';
import type { BenchContext, BenchmarkModule, BenchmarkResult } from '../benchmark.js';
import { formatNumber } from '../harness/format.js';
import { runOperatorAtScale } from '../harness/operator-at-scale.js';

const namespace = 'applications';

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
    log(`creating ${count} Applications`);
    const { seconds, createSeconds, writesToDone, settled, quietWrites } = await runOperatorAtScale(
      server,
      {
        namespace,
        crd: applicationResource.crd() as unknown as KubernetesObject,
        apiVersion: applicationResource.apiVersion,
        kind: applicationResource.kind,
        configure: (manager) => addApplicationController(manager),
        object: (index) => ({
          apiVersion: applicationResource.apiVersion,
          kind: 'Application',
          metadata: { name: `app-${index}`, namespace },
          spec: { image: `nginx:1.${20 + (index % 7)}` },
        }),
        done: (object) => (object as Application).status?.ready === true,
        description: `${count} Applications to be ready`,
      },
      count,
      options.quietMs,
    );
    const writesToReady = writesToDone;
    return {
      id: this.id,
      title: this.title,
      metrics: [
        { name: `time until ${count} Applications are ready`, value: seconds, unit: 's' },
        { name: 'of which creating them', value: createSeconds, unit: 's' },
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
