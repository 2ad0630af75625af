import type { KubernetesObject } from '@ops/core';
import {
  type Application,
  applicationResource,
} from '../../../../operators/application-operator/src/api/v1/application.js';
import { addApplicationController } from '../../../../operators/application-operator/src/operator.js';
import type { BenchContext, BenchmarkModule, BenchmarkResult } from '../benchmark.js';
import { operatorAtScaleResult } from '../harness/operator-at-scale-result.js';
import { runBeforeAndAfter } from '../harness/operator-before-after.js';

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
  async run(context: BenchContext): Promise<BenchmarkResult> {
    const { options } = context;
    const count = options.steadyObjects;
    const runs = await runBeforeAndAfter(
      context,
      {
        namespace,
        crd: applicationResource.crd() as unknown as KubernetesObject,
        apiVersion: applicationResource.apiVersion,
        kind: applicationResource.kind,
        configure: (manager, controller) => addApplicationController(manager, { controller }),
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
    );
    return operatorAtScaleResult(
      this,
      count,
      runs,
      options.quietMs,
      { plural: 'Applications', singular: 'Application', state: 'ready' },
      `${count} Applications created in batches of 50 on a local API server with its simulated cluster (Deployments -> ReplicaSets -> Pods that start at once); ready = status.ready on every Application, read from the operator's cache. Writes are the operator's (finalizer, Deployment, status patches).`,
    );
  },
};
