import { podExitCodeAnnotation, podRunDurationAnnotation } from '@ops/apiserver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../src/index.js';
import { startCluster, type TestCluster } from '../cluster.js';

// The same Jobs on the cluster plane (kube-controller-manager's Job controller, kwok playing
// the kubelet through the Pod lifecycle annotations) and on the local server's simulated
// cluster: what a user or an operator sees of them must be the same.
let real: TestCluster;
let local: TestCluster;
beforeAll(async () => {
  [real, local] = await Promise.all([
    startCluster({ controlPlane: 'cluster', requires: 'pods' }),
    startCluster({ controlPlane: 'local' }),
  ]);
});
afterAll(async () => {
  await Promise.all([real?.stop(), local?.stop()]);
});

const job = (name: string, spec: object, annotations: Record<string, string>) => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name },
  spec: {
    ...spec,
    template: {
      metadata: { labels: { app: name }, annotations },
      spec: { restartPolicy: 'Never', containers: [{ name: 'work', image: 'busybox:1.36' }] },
    },
  },
});

const jobs = [
  job('twice', { completions: 2 }, { [podRunDurationAnnotation]: '500ms' }),
  job(
    'broken',
    { backoffLimit: 1 },
    { [podRunDurationAnnotation]: '0s', [podExitCodeAnnotation]: '3' },
  ),
];

/** What a user sees of a finished Job and its Pods, without names, uids and times. */
async function outcome(cluster: TestCluster, name: string): Promise<unknown> {
  const path = `/apis/batch/v1/namespaces/default/jobs/${name}`;
  const done = await eventually(
    async () => {
      const { body } = await cluster.request('GET', path);
      const finished = (body.status?.conditions ?? []).some(
        (c: { type: string; status: string }) =>
          ['Complete', 'Failed'].includes(c.type) && c.status === 'True',
      );
      expect(finished).toBe(true);
      return body;
    },
    { timeoutMs: 60_000, description: `Job ${name} finished` },
  );
  const { body: list } = await cluster.request(
    'GET',
    `/api/v1/namespaces/default/pods?labelSelector=${encodeURIComponent(`job-name=${name}`)}`,
  );
  const pods = list.items as any[];
  const table = (await cluster.kubectl(['get', 'job', name, '--no-headers'])).trim().split(/\s+/);
  const podStatuses = (
    await cluster.kubectl(['get', 'pods', '-l', `job-name=${name}`, '--no-headers'])
  )
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).slice(1, 3).join(' '))
    .sort();
  const { spec, status } = done;
  return {
    spec: {
      completions: spec.completions,
      parallelism: spec.parallelism,
      backoffLimit: spec.backoffLimit,
      completionMode: spec.completionMode,
      suspend: spec.suspend,
      podReplacementPolicy: spec.podReplacementPolicy,
      selector: Object.keys(spec.selector.matchLabels),
      templateLabels: Object.keys(spec.template.metadata.labels).sort(),
    },
    status: {
      fields: Object.keys(status).sort(),
      succeeded: status.succeeded,
      failed: status.failed,
      conditions: status.conditions.map((c: any) => [c.type, c.status, c.reason, c.message]),
    },
    pods: pods
      .map((pod) => ({
        name: /^[a-z]+-[a-z0-9]{5}$/.test(pod.metadata.name),
        labels: Object.keys(pod.metadata.labels).sort(),
        owner: pod.metadata.ownerReferences.map((r: any) => [
          r.kind,
          r.controller,
          r.blockOwnerDeletion,
        ]),
        finalizers: pod.metadata.finalizers ?? [],
        phase: pod.status.phase,
        terminated: pod.status.containerStatuses.map((s: any) => [
          s.state.terminated?.exitCode,
          s.state.terminated?.reason,
        ]),
      }))
      .sort((a, b) => String(a.phase).localeCompare(String(b.phase))),
    kubectl: { job: table.slice(1, 3), pods: podStatuses },
  };
}

describe('Jobs on the local server and on a real cluster', () => {
  it('end the same way, as the API and kubectl show them', async () => {
    for (const cluster of [real, local]) {
      for (const body of jobs) {
        const created = await cluster.request(
          'POST',
          '/apis/batch/v1/namespaces/default/jobs',
          body,
        );
        expect(created.status).toBe(201);
      }
    }
    for (const { metadata } of jobs) {
      const [onReal, onLocal] = await Promise.all([
        outcome(real, metadata.name),
        outcome(local, metadata.name),
      ]);
      expect(onLocal).toEqual(onReal);
    }
  });

  it('finish Pods with annotations they cannot read the same way', async () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'odd',
        annotations: { [podRunDurationAnnotation]: 'soon', [podExitCodeAnnotation]: 'x' },
      },
      spec: { restartPolicy: 'OnFailure', containers: [{ name: 'work', image: 'busybox:1.36' }] },
    };
    const ended = async (cluster: TestCluster) => {
      expect((await cluster.request('POST', '/api/v1/namespaces/default/pods', pod)).status).toBe(
        201,
      );
      const done = await eventually(
        async () => {
          const { body } = await cluster.request('GET', '/api/v1/namespaces/default/pods/odd');
          expect(['Succeeded', 'Failed']).toContain(body.status.phase);
          return body;
        },
        { timeoutMs: 60_000, description: 'Pod odd ended' },
      );
      const row = (await cluster.kubectl(['get', 'pod', 'odd', '--no-headers'])).trim();
      return {
        phase: done.status.phase,
        terminated: done.status.containerStatuses[0].state.terminated.exitCode,
        ready: done.status.conditions
          .filter((c: any) => ['Ready', 'ContainersReady'].includes(c.type))
          .map((c: any) => [c.type, c.status, c.reason])
          .sort(),
        kubectl: row.split(/\s+/).slice(1, 4),
      };
    };
    const [onReal, onLocal] = await Promise.all([ended(real), ended(local)]);
    expect(onReal).toMatchObject({ phase: 'Failed', terminated: 1 });
    expect(onLocal).toEqual(onReal);
  });
});
