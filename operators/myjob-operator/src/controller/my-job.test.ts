import { ApiError, type ApiErrorReason, type KubernetesObject, type Pod } from '@ops/core';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { type MyJobReconcilerDeps, myJobReconciler } from './my-job.js';
import { testMyJob } from './test-my-job.js';

const apiError = (code: number, reason: ApiErrorReason) =>
  new ApiError(code, reason, reason, { kind: 'Status', code, reason, message: reason });

const myJob = testMyJob;
const ownedPod = (phase: string): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'job',
    namespace: 'default',
    uid: 'pod-uid',
    ownerReferences: [
      {
        apiVersion: 'myjob.github.com/v1',
        kind: 'MyJob',
        name: 'job',
        uid: 'job-uid',
        controller: true,
      },
    ],
  },
  status: { phase: phase as 'Running' },
});

/**
 * A reconciler over in-memory reads: `cached` is what the informer cache holds, `live` what
 * the API server holds. Records the status patches, creates and events.
 */
function harness(cached: KubernetesObject[], live: KubernetesObject[], createError?: ApiError) {
  const patches: unknown[] = [];
  const created: KubernetesObject[] = [];
  const events: string[] = [];
  const reader = (objects: KubernetesObject[]) => ({
    get: async (kind: { kind: string }, name: string) => {
      const found = objects.find((o) => o.kind === kind.kind && o.metadata?.name === name);
      if (!found) throw apiError(404, 'NotFound');
      return structuredClone(found);
    },
  });
  const deps = {
    client: {
      ...reader(cached),
      create: async (object: KubernetesObject) => {
        if (createError) throw createError;
        created.push(object);
        return { ...object, metadata: { ...object.metadata, uid: 'new-pod-uid' } };
      },
      patchStatus: async (_object: KubernetesObject, patch: unknown) => {
        patches.push(patch);
        return _object;
      },
    },
    apiReader: reader(live),
    recorder: { event: (_o: unknown, _t: string, reason: string) => events.push(reason) },
  } as unknown as MyJobReconcilerDeps;
  const reconcile = myJobReconciler(deps);
  const context = { log: pino({ level: 'silent' }), signal: new AbortController().signal };
  return {
    patches,
    created,
    events,
    run: () => reconcile({ namespace: 'default', name: 'job' }, context),
  };
}

describe('myJobReconciler', () => {
  it('creates the Pod of a new MyJob and records its uid with phase pending', async () => {
    const h = harness([myJob()], []);
    expect(await h.run()).toBeUndefined();
    expect(h.created).toHaveLength(1);
    expect(h.patches).toEqual([
      { status: expect.objectContaining({ phase: 'pending', podUID: 'new-pod-uid' }) },
    ]);
    expect(h.events).toEqual(['CreatedPod', 'Pending']);
  });

  it('reads a Pod it created and the cache lacks from the API server: no false completion', async () => {
    const status = { phase: 'pending' as const, podUID: 'pod-uid' };
    const h = harness([myJob(status)], [ownedPod('Running')]);
    await h.run();
    expect(h.created).toEqual([]);
    expect(h.patches).toEqual([{ status: expect.objectContaining({ phase: 'running' }) }]);
    expect(h.events).toEqual(['Running']);
  });

  it('completes a MyJob whose Pod is gone from the API server too, creating nothing', async () => {
    const h = harness([myJob({ phase: 'running', podUID: 'pod-uid' })], []);
    await h.run();
    expect(h.created).toEqual([]);
    expect(h.patches).toEqual([
      { status: expect.objectContaining({ phase: 'completed', podPhase: 'Deleted' }) },
    ]);
    expect(h.events).toEqual(['Completed']);
  });

  it('waits for the cache when its create finds the Pod already there', async () => {
    const h = harness([myJob()], [], apiError(409, 'AlreadyExists'));
    expect(await h.run()).toEqual({ requeueAfterMs: 1000 });
    expect(h.patches).toEqual([]);
  });

  it("writes nothing for a settled MyJob, completed or running, and never reads a completed one's Pod", async () => {
    const condition = (
      status: 'True' | 'False',
      reason: string,
      message: string,
      type = 'Completed',
    ) => ({
      type,
      status,
      reason,
      message,
      lastTransitionTime: '2026-01-01T00:00:00Z',
      observedGeneration: 1,
    });
    const done = harness(
      [
        myJob({
          phase: 'completed',
          podPhase: 'Succeeded',
          observedGeneration: 1,
          conditions: [
            condition('True', 'PodSucceeded', 'Pod job Succeeded'),
            condition('True', 'Succeeded', 'Pod job Succeeded', 'Ready'),
          ],
        }),
        // A Pod of its name, not its own: a completed MyJob looks at no Pod at all.
        { ...ownedPod('Running'), metadata: { name: 'job', namespace: 'default' } },
      ],
      [],
    );
    await done.run();
    expect(done.patches).toEqual([]);
    expect(done.created).toEqual([]);
    expect(done.events).toEqual([]);
    const running = harness(
      [
        myJob({
          phase: 'running',
          podUID: 'pod-uid',
          podPhase: 'Running',
          observedGeneration: 1,
          conditions: [
            condition('False', 'PodRunning', 'Pod job is running'),
            condition('False', 'Running', 'Pod job is running', 'Ready'),
          ],
        }),
        ownedPod('Running'),
      ],
      [],
    );
    await running.run();
    expect(running.patches).toEqual([]);
    expect(running.events).toEqual([]);
  });
});
