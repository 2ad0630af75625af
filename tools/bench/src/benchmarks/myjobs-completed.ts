import { podExitCodeAnnotation, podRunDurationAnnotation } from '@ops/apiserver';
import type { KubernetesObject } from '@ops/core';
import {
  type MyJob,
  myJobResource,
} from '../../../../operators/myjob-operator/src/api/v1/my-job.js';
import { addMyJobController } from '../../../../operators/myjob-operator/src/operator.js';
import type { BenchContext, BenchmarkModule, BenchmarkResult } from '../benchmark.js';
import { operatorAtScaleResult } from '../harness/operator-at-scale-result.js';
import { runBeforeAndAfter } from '../harness/operator-before-after.js';

const namespace = 'myjobs';

/**
 * The myjob-operator at scale: N MyJobs are created at once on a local API server whose
 * simulated cluster runs their Pods, each finishing Succeeded as soon as it runs (run-duration
 * annotation `0s`); measured is
 * the time until every MyJob is `completed`, the operator's writes to get there (Pods, status
 * patches, Events), and its writes once everything is completed and nothing changes (must be 0).
 */
export const myJobsCompletedBenchmark: BenchmarkModule = {
  id: 'myjobs',
  title: 'MyJobs completed',
  description:
    'myjob-operator: time until N MyJobs (default 1,000) are completed on the simulated cluster, writes to get there, and writes at rest (must be 0).',
  unsupportedOn: {
    real: "needs a cluster that runs Pods (the local server's simulated cluster); the real server is etcd + kube-apiserver without kube-controller-manager or nodes",
  },
  async run(context: BenchContext): Promise<BenchmarkResult> {
    const { options } = context;
    const count = options.steadyObjects;
    const runs = await runBeforeAndAfter(
      context,
      {
        namespace,
        crd: myJobResource.crd() as unknown as KubernetesObject,
        apiVersion: myJobResource.apiVersion,
        kind: myJobResource.kind,
        configure: (manager, controller) => addMyJobController(manager, { controller }),
        object: (index) => ({
          apiVersion: myJobResource.apiVersion,
          kind: 'MyJob',
          metadata: { name: `job-${index}`, namespace },
          spec: {
            template: {
              metadata: {
                annotations: { [podRunDurationAnnotation]: '0s', [podExitCodeAnnotation]: '0' },
              },
              spec: {
                containers: [{ name: 'main', image: 'busybox', command: ['true'] }],
                restartPolicy: 'Never',
              },
            },
          },
        }),
        done: (object) => (object as MyJob).status?.phase === 'completed',
        description: `${count} MyJobs to be completed`,
      },
      count,
    );
    return operatorAtScaleResult(
      this,
      count,
      runs,
      options.quietMs,
      { plural: 'MyJobs', singular: 'MyJob', state: 'completed' },
      `${count} MyJobs created in batches of 50 on a local API server with its simulated cluster; each Pod runs for 0s (its ops-ts.github.io/run-duration annotation) and exits 0, so the simulated kubelet finishes it Succeeded as soon as it runs. Completed = status.phase on every MyJob, read from the operator's cache. Writes are the operator's (Pod creates, status patches, Events).`,
    );
  },
};
