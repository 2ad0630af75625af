import { podExitCodeAnnotation, podRunDurationAnnotation } from '@ops/apiserver';
import { Client, type KubernetesObject } from '@ops/core';
import {
  type MyJob,
  myJobResource,
} from '../../../../operators/myjob-operator/src/api/v1beta1/my-job.js';
import { addMyJobController } from '../../../../operators/myjob-operator/src/operator.js';
import type { BenchContext, BenchmarkModule, BenchmarkResult } from '../benchmark.js';
import { formatNumber } from '../harness/format.js';
import { startManager } from '../harness/manager.js';
import { waitUntil } from '../harness/wait.js';
import { writesAtRest } from '../harness/writes-at-rest.js';

const namespace = 'myjobs';
const writeVerbs = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

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
  async run({ options, startServer, log }: BenchContext): Promise<BenchmarkResult> {
    const count = options.steadyObjects;
    const server = await startServer({ cluster: true });
    const admin = new Client({ kubeConfig: server.kubeConfig() });
    await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
    await admin.create(myJobResource.crd() as unknown as KubernetesObject);
    let operatorWrites = 0;
    const running = await startManager(server, namespace, addMyJobController, {
      onRequest: (verb) => {
        if (writeVerbs.has(verb)) operatorWrites++;
      },
    });
    const completedCount = () =>
      running.manager.cache
        .list(myJobResource.apiVersion, myJobResource.kind, { namespace })
        .filter((object) => (object as MyJob).status?.phase === 'completed').length;
    log(`creating ${count} MyJobs`);
    const started = performance.now();
    for (let i = 0; i < count; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, count - i) }, (_, j) =>
          admin.create({
            apiVersion: myJobResource.apiVersion,
            kind: 'MyJob',
            metadata: { name: `job-${i + j}`, namespace },
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
        ),
      );
    }
    const created = performance.now();
    await waitUntil(
      () => completedCount() === count,
      `${count} MyJobs to be completed`,
      300_000,
      20,
    );
    const completed = performance.now();
    const writesToCompleted = operatorWrites;
    const { settled, quietWrites } = await writesAtRest(() => operatorWrites, options.quietMs);
    await running.stop();
    const seconds = (completed - started) / 1000;
    return {
      id: this.id,
      title: this.title,
      metrics: [
        { name: `time until ${count} MyJobs are completed`, value: seconds, unit: 's' },
        { name: 'of which creating them', value: (created - started) / 1000, unit: 's' },
        { name: 'MyJobs completed per second', value: count / seconds, unit: '/s' },
        {
          name: 'operator writes until all completed, per MyJob',
          value: writesToCompleted / count,
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
        `${count} MyJobs created in batches of 50 on a local API server with its simulated cluster; each Pod runs for 0s (its ops-ts.github.io/run-duration annotation) and exits 0, so the simulated kubelet finishes it Succeeded as soon as it runs. Completed = status.phase on every MyJob, read from the operator's cache. Writes are the operator's (Pod creates, status patches, Events).`,
      ],
      samples: { count, seconds, writesToCompleted, settled, quietWrites },
    };
  },
};
