import type { Pod } from '@ops/core';
import { describe, expect, it } from 'vitest';
import { nextMyJobStatus } from './next-my-job-status.js';
import { testMyJob } from './test-my-job.js';

const now = new Date('2026-01-01T00:00:10Z');
const myJob = testMyJob;
const pod = (status: Pod['status'], deleting = false): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'job',
    namespace: 'default',
    uid: 'pod-uid',
    ...(deleting ? { deletionTimestamp: '2026-01-01T00:00:05Z' } : {}),
  },
  status,
});
const terminated = (exitCode: number, finishedAt: string) => ({
  name: 'main',
  image: 'busybox:1.36',
  imageID: '',
  ready: false,
  restartCount: 0,
  state: { terminated: { exitCode, finishedAt } },
});

describe('nextMyJobStatus', () => {
  it('creates the Pod of a new MyJob and makes it pending', () => {
    const decision = nextMyJobStatus({ myJob: myJob(), pod: undefined, owned: false, now });
    expect(decision).toMatchObject({ createPod: true, phase: 'pending' });
    expect(decision.condition).toMatchObject({ status: 'False', reason: 'PodCreated' });
  });

  it('is pending while its Pod is Pending, running while it runs', () => {
    const pending = nextMyJobStatus({
      myJob: myJob(),
      pod: pod({ phase: 'Pending' }),
      owned: true,
      now,
    });
    expect(pending).toMatchObject({
      createPod: false,
      phase: 'pending',
      pod: { podUID: 'pod-uid' },
    });
    const running = nextMyJobStatus({
      myJob: myJob({ phase: 'pending', podUID: 'pod-uid' }),
      pod: pod({ phase: 'Running', startTime: '2026-01-01T00:00:01Z' }),
      owned: true,
      now,
    });
    expect(running).toMatchObject({
      phase: 'running',
      condition: { reason: 'PodRunning' },
      pod: { podPhase: 'Running', startTime: '2026-01-01T00:00:01Z' },
    });
  });

  it('completes from pending when the Pod finished before it was seen running', () => {
    const decision = nextMyJobStatus({
      myJob: myJob({ phase: 'pending', podUID: 'pod-uid' }),
      pod: pod({
        phase: 'Succeeded',
        startTime: '2026-01-01T00:00:01Z',
        containerStatuses: [terminated(0, '2026-01-01T00:00:03Z')],
      }),
      owned: true,
      now,
    });
    expect(decision).toMatchObject({
      createPod: false,
      phase: 'completed',
      condition: { status: 'True', reason: 'PodSucceeded' },
      pod: {
        podPhase: 'Succeeded',
        containers: [{ name: 'main', exitCode: 0 }],
        startTime: '2026-01-01T00:00:01Z',
        completionTime: '2026-01-01T00:00:03Z',
      },
    });
  });

  it('records a Failed Pod with its exit codes', () => {
    const decision = nextMyJobStatus({
      myJob: myJob({ phase: 'running', podUID: 'pod-uid' }),
      pod: pod({ phase: 'Failed', containerStatuses: [terminated(3, '2026-01-01T00:00:04Z')] }),
      owned: true,
      now,
    });
    expect(decision).toMatchObject({
      phase: 'completed',
      condition: { reason: 'PodFailed', message: 'Pod job Failed (exit codes {"main":3})' },
      pod: { podPhase: 'Failed', containers: [{ name: 'main', exitCode: 3 }] },
    });
  });

  it('completes when its running Pod is being deleted or is gone, and never recreates it', () => {
    const deleting = nextMyJobStatus({
      myJob: myJob({ phase: 'running', podUID: 'pod-uid' }),
      pod: pod({ phase: 'Running' }, true),
      owned: true,
      now,
    });
    expect(deleting).toMatchObject({
      createPod: false,
      phase: 'completed',
      condition: { reason: 'PodDeleted' },
      pod: { podPhase: 'Deleted', completionTime: now.toISOString() },
    });
    for (const status of [
      { phase: 'running' as const },
      { phase: 'pending' as const, podUID: 'pod-uid' },
    ]) {
      const gone = nextMyJobStatus({ myJob: myJob(status), pod: undefined, owned: false, now });
      expect(gone).toMatchObject({
        createPod: false,
        phase: 'completed',
        pod: { podPhase: 'Deleted' },
      });
    }
  });

  it('keeps a completed MyJob completed, whatever the Pod does', () => {
    const done = myJob({
      phase: 'completed',
      podPhase: 'Succeeded',
      conditions: [
        {
          type: 'Completed',
          status: 'True',
          reason: 'PodSucceeded',
          message: 'Pod job Succeeded',
          lastTransitionTime: '2026-01-01T00:00:05Z',
        },
      ],
    });
    for (const found of [undefined, pod({ phase: 'Running' })]) {
      expect(nextMyJobStatus({ myJob: done, pod: found, owned: false, now })).toMatchObject({
        createPod: false,
        phase: 'completed',
        condition: { status: 'True', reason: 'PodSucceeded' },
        pod: { podPhase: 'Succeeded' },
      });
    }
  });

  it('never adopts a Pod of its name that it does not control: conflict, no creation', () => {
    const decision = nextMyJobStatus({
      myJob: myJob(),
      pod: pod({ phase: 'Running' }),
      owned: false,
      now,
    });
    expect(decision).toMatchObject({
      createPod: false,
      phase: 'pending',
      condition: { status: 'False', reason: 'PodConflict' },
      pod: {},
    });
    expect(decision.condition.message).toContain('not controlled by MyJob job');
  });

  it('is Ready only once its Pod Succeeded: Pending, Running, then Succeeded (True) or Failed (False)', () => {
    const step = (status: Parameters<typeof myJob>[0], found: Pod | undefined, owned = true) =>
      nextMyJobStatus({ myJob: myJob(status), pod: found, owned, now }).ready;
    expect(step(undefined, undefined)).toEqual({
      status: 'False',
      reason: 'Pending',
      message: 'created Pod job',
    });
    expect(step({ phase: 'pending', podUID: 'pod-uid' }, pod({ phase: 'Pending' }))).toEqual({
      status: 'False',
      reason: 'Pending',
      message: 'waiting for Pod job to run (phase Pending)',
    });
    expect(step({ phase: 'pending', podUID: 'pod-uid' }, pod({ phase: 'Running' }))).toEqual({
      status: 'False',
      reason: 'Running',
      message: 'Pod job is running',
    });
    const finished = (phase: 'Succeeded' | 'Failed', code: number) =>
      pod({ phase, containerStatuses: [terminated(code, '2026-01-01T00:00:04Z')] });
    expect(step({ phase: 'running', podUID: 'pod-uid' }, finished('Succeeded', 0))).toEqual({
      status: 'True',
      reason: 'Succeeded',
      message: 'Pod job Succeeded (exit codes {"main":0})',
    });
    expect(step({ phase: 'running', podUID: 'pod-uid' }, finished('Failed', 3))).toEqual({
      status: 'False',
      reason: 'Failed',
      message: 'Pod job Failed (exit codes {"main":3})',
    });
    // Its Pod vanished before it finished: deleted while running, or gone from the API server.
    const deleted = {
      status: 'False',
      reason: 'Failed',
      message: 'Pod job was deleted before it finished; it is not started again',
    };
    expect(step({ phase: 'running', podUID: 'pod-uid' }, pod({ phase: 'Running' }, true))).toEqual(
      deleted,
    );
    expect(step({ phase: 'running', podUID: 'pod-uid' }, undefined)).toEqual(deleted);
    expect(step(undefined, pod({ phase: 'Running' }), false)).toMatchObject({
      status: 'False',
      reason: 'PodConflict',
    });
  });

  it('keeps the Ready of a completed MyJob from what it recorded, whatever the Pod does', () => {
    const recorded = (podPhase: 'Succeeded' | 'Failed' | 'Deleted', reason: string) =>
      myJob({
        phase: 'completed',
        podPhase,
        conditions: [
          {
            type: 'Completed',
            status: 'True',
            reason,
            message: `Pod job ${podPhase}`,
            lastTransitionTime: '2026-01-01T00:00:05Z',
          },
        ],
      });
    const ready = (done: ReturnType<typeof myJob>) =>
      nextMyJobStatus({ myJob: done, pod: undefined, owned: false, now }).ready;
    expect(ready(recorded('Succeeded', 'PodSucceeded'))).toMatchObject({
      status: 'True',
      reason: 'Succeeded',
    });
    expect(ready(recorded('Failed', 'PodFailed'))).toMatchObject({
      status: 'False',
      reason: 'Failed',
    });
    expect(ready(recorded('Deleted', 'PodDeleted'))).toMatchObject({
      status: 'False',
      reason: 'Failed',
    });
  });
});
