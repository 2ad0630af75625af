import type { KubernetesObject } from '@ops/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatusError } from '../api/status-error.js';
import {
  type ClusterFixture,
  eventually,
  sleep,
  startClusterFixture,
  type WatchRecording,
  watchEvents,
} from './cluster-fixture.test-helper.js';
import { SimulatedCluster } from './simulated-cluster.js';

let f: ClusterFixture;
let jobs: WatchRecording;
let pods: WatchRecording;
beforeAll(async () => {
  f = await startClusterFixture({ podRunDurationMs: 100 });
  jobs = await watchEvents(f.server, '/apis/batch/v1/namespaces/default/jobs');
  pods = await watchEvents(f.server, '/api/v1/namespaces/default/pods');
});
afterAll(async () => {
  jobs.stop();
  pods.stop();
  await f.stop();
});

const status = (object: KubernetesObject | undefined): any => object?.status ?? {};
const job = (
  name: string,
  spec: Record<string, unknown> = {},
  annotations: Record<string, string> = {},
): KubernetesObject => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name },
  spec: {
    template: {
      metadata: { labels: { app: name }, annotations },
      spec: { restartPolicy: 'Never', containers: [{ name: 'work', image: 'busybox:1.36' }] },
    },
    ...spec,
  },
});
const conditionTypes = (object: KubernetesObject): string[] =>
  (status(object).conditions ?? []).filter((c: any) => c.status === 'True').map((c: any) => c.type);
/** Each distinct status the watch saw of a Job, as `active/succeeded/failed conditions`. */
const history = (name: string): string[] =>
  jobs.events
    .filter((e) => e.object.metadata?.name === name)
    .map((e) => {
      const s = status(e.object);
      return `${s.active ?? 0}/${s.succeeded ?? 0}/${s.failed ?? 0} ${conditionTypes(e.object).join(',')}`.trim();
    })
    .filter((line, i, all) => i === 0 || all[i - 1] !== line);
const finished = (name: string) =>
  eventually(() => {
    const current = f.get('batch', 'jobs', 'default', name);
    const types = conditionTypes(current ?? {});
    return (types.includes('Complete') || types.includes('Failed')) && current;
  }, 10_000);
const podsOf = (name: string) =>
  f.list('', 'pods', 'default').filter((p) => p.metadata?.labels?.['job-name'] === name);

describe('JobController', () => {
  it('runs a Job Pod labelled and owned by the Job, then completes the Job', async () => {
    const created = await f.create('batch', 'jobs', 'default', job('once'));
    const uid = created.metadata?.uid ?? '';
    expect(created.spec).toMatchObject({
      completions: 1,
      parallelism: 1,
      backoffLimit: 6,
      completionMode: 'NonIndexed',
      selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } },
    });
    const done = await finished('once');
    const [pod] = podsOf('once');
    expect(pod?.metadata?.name).toMatch(/^once-[a-z0-9]{5}$/);
    expect(pod?.metadata?.labels).toEqual({
      app: 'once',
      'batch.kubernetes.io/controller-uid': uid,
      'batch.kubernetes.io/job-name': 'once',
      'controller-uid': uid,
      'job-name': 'once',
    });
    expect(pod?.metadata?.ownerReferences).toEqual([
      {
        apiVersion: 'batch/v1',
        kind: 'Job',
        name: 'once',
        uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(status(pod).phase).toBe('Succeeded');
    expect(status(done)).toMatchObject({
      succeeded: 1,
      ready: 0,
      terminating: 0,
      startTime: expect.any(String),
      completionTime: expect.any(String),
    });
    expect(status(done).active).toBeUndefined();
    expect(status(done).conditions).toEqual([
      expect.objectContaining({
        type: 'SuccessCriteriaMet',
        status: 'True',
        reason: 'CompletionsReached',
      }),
      expect.objectContaining({
        type: 'Complete',
        status: 'True',
        reason: 'CompletionsReached',
        message: 'Reached expected number of succeeded pods',
      }),
    ]);
    await eventually(() =>
      expect(history('once')).toEqual([
        '0/0/0',
        '1/0/0',
        // No Pod is left to stop: both conditions come in one write.
        '0/1/0 SuccessCriteriaMet,Complete',
      ]),
    );
  });

  it('runs `completions` Pods, at most `parallelism` at a time', async () => {
    await f.create('batch', 'jobs', 'default', job('batch', { completions: 5, parallelism: 2 }));
    const done = await finished('batch');
    expect(status(done)).toMatchObject({ succeeded: 5 });
    expect(podsOf('batch')).toHaveLength(5);
    // Replay the Pod watch: never more than two of the Job's Pods running at once.
    const live = new Map<string, string>();
    let most = 0;
    for (const event of pods.events) {
      if (event.object.metadata?.labels?.['job-name'] !== 'batch') continue;
      const name = event.object.metadata?.name ?? '';
      if (event.type === 'DELETED') live.delete(name);
      else live.set(name, String(status(event.object).phase ?? 'Pending'));
      most = Math.max(most, [...live.values()].filter((p) => p !== 'Succeeded').length);
    }
    expect(most).toBe(2);
    // The watch may lag behind the store the Job was read from.
    await eventually(() =>
      expect(history('batch').at(-1)).toBe('0/5/0 SuccessCriteriaMet,Complete'),
    );
    expect(history('batch')).toContain('2/0/0');
  });

  it('fails a Job once its failed Pods exceed backoffLimit', async () => {
    await f.create(
      'batch',
      'jobs',
      'default',
      job('doomed', { backoffLimit: 1 }, { 'ops-ts.github.io/exit-code': '2' }),
    );
    const done = await finished('doomed');
    expect(status(done)).toMatchObject({ failed: 2 });
    expect(status(done).completionTime).toBeUndefined();
    expect(status(done).conditions).toEqual([
      expect.objectContaining({ type: 'FailureTarget', reason: 'BackoffLimitExceeded' }),
      expect.objectContaining({
        type: 'Failed',
        status: 'True',
        reason: 'BackoffLimitExceeded',
        message: 'Job has reached the specified backoff limit',
      }),
    ]);
    expect(podsOf('doomed').map((p) => status(p).phase)).toEqual(['Failed', 'Failed']);
    await eventually(() =>
      expect(history('doomed')).toEqual(['0/0/0', '1/0/0', '1/0/1', '0/0/2 FailureTarget,Failed']),
    );
  });

  it('fails a Job past activeDeadlineSeconds, stopping its running Pods first', async () => {
    await f.create(
      'batch',
      'jobs',
      'default',
      job('slow', { activeDeadlineSeconds: 1 }, { 'ops-ts.github.io/run-duration': '1h' }),
    );
    const done = await finished('slow');
    expect(status(done).conditions).toContainEqual(
      expect.objectContaining({ type: 'Failed', reason: 'DeadlineExceeded' }),
    );
    expect(podsOf('slow')).toEqual([]);
    await eventually(() => expect(history('slow').at(-1)).toBe('0/0/0 FailureTarget,Failed'));
    // The Job waited for its Pod to stop before it failed.
    expect(history('slow')).toContain('0/0/0 FailureTarget');
  });

  it('makes no writes once its Jobs are finished', async () => {
    await f.cluster.idle();
    const before = f.server.store.currentRevision();
    const seen = jobs.events.length + pods.events.length;
    await sleep(300);
    await f.cluster.idle();
    expect(f.server.store.currentRevision()).toBe(before);
    expect(jobs.events.length + pods.events.length).toBe(seen);
    expect(f.cluster.errors).toEqual([]);
  });

  it('after a restart of the cluster, neither creates a second Pod nor loses a completion', async () => {
    await f.create(
      'batch',
      'jobs',
      'default',
      job(
        'steady',
        { completions: 2, parallelism: 2 },
        { 'ops-ts.github.io/run-duration': '600ms' },
      ),
    );
    await eventually(() => status(f.get('batch', 'jobs', 'default', 'steady')).active === 2);
    await f.cluster.stop();
    const restarted = new SimulatedCluster(f.server, { podRunDurationMs: 100 });
    await restarted.start();
    try {
      const done = await finished('steady');
      expect(status(done)).toMatchObject({ succeeded: 2 });
      expect(conditionTypes(done)).toEqual(['SuccessCriteriaMet', 'Complete']);
      expect(podsOf('steady')).toHaveLength(2);
      expect(restarted.errors).toEqual([]);
    } finally {
      await restarted.stop();
    }
  });

  it('refuses a Job whose Pods would never finish', async () => {
    const error = await f
      .create('batch', 'jobs', 'default', {
        ...job('forever'),
        spec: {
          template: { spec: { containers: [{ name: 'work', image: 'busybox' }] } },
        },
      })
      .catch((e: unknown) => e);
    expect(StatusError.isInstance(error) && error.code).toBe(422);
    expect((error as Error).message).toContain(
      'spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"',
    );
  });
});
