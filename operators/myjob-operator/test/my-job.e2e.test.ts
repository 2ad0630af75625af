// The myjob-operator end to end, as it runs in a cluster: the CRD installed from config/crd/bases
// and the controller running as the manager's ServiceAccount under the RBAC of
// `kubectl kustomize config/default`, both as `pnpm run manifests` generated them. `pnpm test`
// runs it on the local API server (@ops/envtest), `pnpm test:binaries` on the cluster plane
// (kube-apiserver, kube-controller-manager, kube-scheduler, kwok nodes), whose authorizer then
// judges the generated ClusterRole. Both planes finish a Pod with restartPolicy Never after its
// `ops-ts.github.io/run-duration` annotation (default 1s) with its `ops-ts.github.io/exit-code`.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { podExitCodeAnnotation, podRunDurationAnnotation } from '@ops/apiserver';
import { eventually } from '@ops/envtest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import type { MyJob } from '../src/api/v1/my-job.js';
import { completedCondition, MyJobHarness, readyCondition } from './my-job-harness.js';

const operatorRoot = fileURLToPath(new URL('..', import.meta.url));

let harness: MyJobHarness;
beforeAll(async () => {
  harness = await MyJobHarness.start();
  await harness.startOperator();
}, 180_000);
afterAll(async () => {
  await harness?.stop();
});

/**
 * How long a step may take before the test fails: on the cluster plane a Pod's start, finish and
 * deletion go through kube-scheduler, kwok and the garbage collector, seconds apart when the
 * machine is busy. Only a failing test waits this long.
 */
const patient = { timeoutMs: 15_000 };

/** A Pod template that runs `runFor` (a Go duration) and exits with `exitCode`. */
const template = (runFor: string, exitCode = 0, restartPolicy = 'Never') => ({
  metadata: {
    labels: { team: 'e2e' },
    annotations: { [podRunDurationAnnotation]: runFor, [podExitCodeAnnotation]: String(exitCode) },
  },
  spec: { containers: [{ name: 'main', image: 'busybox' }], restartPolicy },
});

describe('myjob-operator, end to end', () => {
  it('runs the sample of config/samples to completed: pending, running, completed, with events', async () => {
    const sample = YAML.parse(
      await readFile(join(operatorRoot, 'config/samples/myjob_v1beta1_myjob.yaml'), 'utf8'),
    ) as MyJob;
    sample.metadata.namespace = 'default';
    await harness.admin.create(sample);
    const name = sample.metadata.name ?? '';
    const pod = await eventually(
      async () => (await harness.pod(name).catch(() => undefined)) ?? false,
      patient,
    );
    expect(pod.metadata?.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'MyJob', name, controller: true }),
    ]);
    expect(pod.spec?.containers).toEqual([
      expect.objectContaining({
        name: 'pi',
        image: 'perl',
        command: sample.spec.template.spec.containers[0]?.command,
      }),
    ]);
    const done = await harness.completed(name);
    expect(done.status).toMatchObject({
      phase: 'completed',
      podPhase: 'Succeeded',
      containers: [{ name: 'pi', exitCode: 0 }],
      podUID: pod.metadata?.uid,
      observedGeneration: done.metadata.generation,
    });
    expect(Date.parse(done.status?.completionTime ?? '')).toBeGreaterThanOrEqual(
      Date.parse(done.status?.startTime ?? ''),
    );
    expect(completedCondition(done)).toMatchObject({ status: 'True', reason: 'PodSucceeded' });
    expect(readyCondition(done)).toMatchObject({
      status: 'True',
      reason: 'Succeeded',
      message: 'Pod myjob-sample Succeeded (exit codes {"pi":0})',
      observedGeneration: done.metadata.generation,
    });
    await eventually(async () => (await harness.eventReasons(name)).includes('Completed'), patient);
    expect(await harness.eventReasons(name)).toEqual(
      expect.arrayContaining(['CreatedPod', 'Pending', 'Completed']),
    );
    expect(await harness.kubectl(['get', 'myjobs'])).toMatch(
      /NAME\s+PHASE\s+POD PHASE\s+READY\s+AGE\n.*myjob-sample\s+completed\s+Succeeded\s+True\s+\d+s/,
    );
    expect(await harness.kubectl(['get', 'pods', name])).toMatch(
      /myjob-sample\s+0\/1\s+Completed\s/,
    );
  });

  it('is running while its Pod runs, carries the template labels and annotations over', async () => {
    await harness.createMyJob('runs', template('1h'));
    const running = await eventually(async () => {
      const job = await harness.myJob('runs');
      return job.status?.phase === 'running' && job;
    }, patient);
    expect(completedCondition(running)).toMatchObject({ status: 'False', reason: 'PodRunning' });
    expect(readyCondition(running)).toMatchObject({
      status: 'False',
      reason: 'Running',
      observedGeneration: running.metadata.generation,
    });
    expect(running.status?.startTime).toBeDefined();
    const pod = await harness.pod('runs');
    expect(pod.metadata?.labels).toEqual({ team: 'e2e' });
    expect(pod.metadata?.annotations).toMatchObject({ [podRunDurationAnnotation]: '1h' });
    await eventually(async () => (await harness.eventReasons('runs')).includes('Running'), patient);
  });

  it('is completed when its running Pod is deleted, and never starts it again', async () => {
    await harness.admin.delete(await harness.pod('runs'));
    const done = await harness.completed('runs');
    expect(done.status?.podPhase).toBe('Deleted');
    expect(completedCondition(done)?.reason).toBe('PodDeleted');
    expect(readyCondition(done)).toMatchObject({
      status: 'False',
      reason: 'Failed',
      message: 'Pod runs was deleted before it finished; it is not started again',
    });
    await eventually(() => harness.podGone('runs'), patient);
    await harness.settle();
    expect(await harness.podGone('runs')).toBe(true);
  });

  it('records a failed Pod with its exit code', async () => {
    await harness.createMyJob('fails', template('0s', 3));
    const done = await harness.completed('fails');
    expect(done.status).toMatchObject({
      podPhase: 'Failed',
      containers: [{ name: 'main', exitCode: 3 }],
    });
    expect(completedCondition(done)?.reason).toBe('PodFailed');
    expect(readyCondition(done)).toMatchObject({
      status: 'False',
      reason: 'Failed',
      message: 'Pod fails Failed (exit codes {"main":3})',
    });
  });

  it('leaves a Pod of its name that it does not own alone, reports it, and waits', async () => {
    await harness.admin.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'taken', namespace: 'default' },
      spec: { containers: [{ name: 'other', image: 'redis:7' }], terminationGracePeriodSeconds: 0 },
    });
    await harness.createMyJob('taken', template('1h'));
    const conflicted = await eventually(async () => {
      const job = await harness.myJob('taken');
      return completedCondition(job)?.reason === 'PodConflict' && job;
    }, patient);
    expect(conflicted.status?.phase).toBe('pending');
    expect(readyCondition(conflicted)).toMatchObject({ status: 'False', reason: 'PodConflict' });
    expect(completedCondition(conflicted)?.message).toContain('not controlled by MyJob taken');
    const untouched = await harness.pod('taken');
    expect(untouched.metadata?.ownerReferences).toBeUndefined();
    // The Event is written after the status it explains: wait for it rather than read it once.
    await eventually(
      async () => (await harness.eventReasons('taken')).includes('PodConflict'),
      patient,
    );
    await harness.admin.delete(untouched);
    const ours = await eventually(async () => {
      const pod = await harness.pod('taken').catch(() => undefined);
      return pod?.metadata?.ownerReferences?.[0]?.kind === 'MyJob' && pod;
    }, patient);
    expect(ours.spec?.containers?.[0]?.image).toBe('busybox');
  });

  it('has a PodTemplateSpec schema: kubectl explain walks it, and a Pod without containers is refused', async () => {
    const explained = await harness.kubectl([
      'explain',
      'myjobs.spec.template.spec.containers.command',
    ]);
    expect(explained).toContain("The entrypoint (replaces the image's ENTRYPOINT).");
    await expect(
      harness.createMyJob('empty', { spec: { containers: [], restartPolicy: 'Never' } }),
    ).rejects.toThrow(/spec\.template\.spec\.containers/);
  });

  it('writes nothing while nothing changes', async () => {
    await eventually(
      async () => (await harness.myJob('taken')).status?.phase === 'running',
      patient,
    );
    await harness.settle();
    const settled = harness.writes.length;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(harness.writes.slice(settled)).toEqual([]);
  });

  it('never makes a second Pod nor loses a completion across restarts at every step', async () => {
    // Before the Pod is created.
    await harness.stopOperator();
    await harness.createMyJob('before', template('1h'));
    await harness.startOperator();
    const first = await eventually(
      async () => (await harness.pod('before').catch(() => undefined)) ?? false,
      patient,
    );

    // While running: the same Pod, still running.
    await eventually(
      async () => (await harness.myJob('before')).status?.phase === 'running',
      patient,
    );
    await harness.stopOperator();
    await harness.startOperator();
    await harness.settle();
    expect((await harness.pod('before')).metadata?.uid).toBe(first.metadata?.uid);
    expect((await harness.myJob('before')).status?.phase).toBe('running');

    // After the Pod finished while the operator was down, from pending too.
    // 4 s: long enough that the Pod cannot finish before the test reads the MyJob and stops the
    // operator, even when a busy machine delays that read by seconds.
    await harness.createMyJob('fast', template('4s'));
    const pending = await eventually(async () => {
      const job = await harness.myJob('fast');
      return job.status?.podUID !== undefined && job;
    }, patient);
    await harness.stopOperator();
    await eventually(async () => (await harness.pod('fast')).status?.phase === 'Succeeded', {
      timeoutMs: 15_000,
    });
    await harness.startOperator();
    const fast = await harness.completed('fast');
    expect(['pending', 'running']).toContain(pending.status?.phase);
    expect(['Pending', 'Running']).toContain(readyCondition(pending)?.reason);
    expect(readyCondition(pending)?.status).toBe('False');
    expect(readyCondition(fast)).toMatchObject({ status: 'True', reason: 'Succeeded' });
    expect(fast.status).toMatchObject({ podPhase: 'Succeeded', podUID: pending.status?.podUID });

    // During deletion: its Pod deleted, and another MyJob deleted, while it is down.
    await harness.stopOperator();
    await harness.admin.delete(await harness.pod('before'));
    await harness.admin.delete(await harness.myJob('taken'));
    await eventually(() => harness.podGone('before'), patient);
    await harness.startOperator();
    const before = await harness.completed('before');
    expect(before.status?.podPhase).toBe('Deleted');
    // The garbage collector deletes the Pod of the deleted MyJob 'taken'. kube-controller-manager's
    // collector sees deletions of a kind only once it watches it, and it starts watching a new
    // CRD's kind at its discovery resync, every 30 s: on the cluster plane this can take that long.
    await eventually(() => harness.podGone('taken'), { timeoutMs: 60_000 });

    // Completions survive a restart, and no Pod comes back.
    await harness.stopOperator();
    await harness.startOperator();
    await harness.settle();
    for (const name of ['myjob-sample', 'runs', 'fails', 'before', 'fast']) {
      expect((await harness.myJob(name)).status?.phase).toBe('completed');
    }
    expect(await harness.podGone('runs')).toBe(true);
    expect(await harness.podGone('before')).toBe(true);
    // One Pod created per MyJob that ran one: sample, runs, fails, taken, before, fast.
    expect(harness.writes.filter((write) => write === 'create pods')).toHaveLength(6);
  }, 120_000);
});
