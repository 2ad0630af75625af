import type { KubernetesObject } from '@ops/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
let watch: WatchRecording;
beforeAll(async () => {
  f = await startClusterFixture({ podRunDurationMs: 150 });
  watch = await watchEvents(f.server, '/api/v1/namespaces/default/pods');
});
afterAll(async () => {
  watch.stop();
  await f.stop();
});

const status = (object: KubernetesObject | undefined): any => object?.status ?? {};
const pod = (
  name: string,
  restartPolicy: string,
  annotations: Record<string, string> = {},
): KubernetesObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, annotations },
  spec: {
    restartPolicy,
    containers: [
      { name: 'main', image: 'busybox:1.36' },
      { name: 'side', image: 'busybox:1.36' },
    ],
  },
});
/** The phases a Pod went through, as the watch saw them (repeats collapsed). */
const phasesOf = (name: string): string[] =>
  watch.events
    .filter((e) => e.object.metadata?.name === name && e.type !== 'DELETED')
    .map((e) => String(status(e.object).phase ?? 'Pending'))
    .filter((phase, i, all) => i === 0 || all[i - 1] !== phase);
const ended = (name: string) =>
  eventually(() => {
    const current = f.get('', 'pods', 'default', name);
    return ['Succeeded', 'Failed'].includes(status(current).phase) && current;
  });

describe('Kubelet: Pods that run to completion', () => {
  it('ends a restartPolicy Never Pod Succeeded after the default run duration', async () => {
    await f.create('', 'pods', 'default', pod('done', 'Never'));
    const done = await ended('done');
    await eventually(() => expect(phasesOf('done')).toEqual(['Pending', 'Running', 'Succeeded']));
    const running = watch.events.find(
      (e) => e.object.metadata?.name === 'done' && status(e.object).phase === 'Running',
    );
    const startedAt = status(running?.object).containerStatuses[0].state.running.startedAt;
    expect(status(done).containerStatuses).toEqual([
      expect.objectContaining({
        name: 'main',
        ready: false,
        started: false,
        state: {
          terminated: expect.objectContaining({
            exitCode: 0,
            reason: 'Completed',
            startedAt,
            finishedAt: expect.any(String),
          }),
        },
      }),
      expect.objectContaining({ name: 'side', ready: false }),
    ]);
    for (const type of ['Ready', 'ContainersReady'])
      expect(status(done).conditions).toContainEqual(
        expect.objectContaining({ type, status: 'False', reason: 'PodCompleted' }),
      );
  });

  it('ends a Pod Failed with the annotated exit code, after the annotated run duration', async () => {
    const started = Date.now();
    await f.create(
      '',
      'pods',
      'default',
      pod('broken', 'OnFailure', {
        'ops-ts.github.io/exit-code': '3',
        'ops-ts.github.io/run-duration': '400ms',
      }),
    );
    const broken = await ended('broken');
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    await eventually(() => expect(phasesOf('broken')).toEqual(['Pending', 'Running', 'Failed']));
    expect(status(broken).containerStatuses[0].state.terminated).toMatchObject({
      exitCode: 3,
      reason: 'Error',
    });
  });

  it('keeps restartPolicy Always Pods running', async () => {
    await f.create('', 'pods', 'default', pod('server', 'Always'));
    await eventually(() => status(f.get('', 'pods', 'default', 'server')).phase === 'Running');
    await sleep(400);
    expect(phasesOf('server')).toEqual(['Pending', 'Running']);
  });

  it('reports a bad annotation with a Warning event and uses the fallback', async () => {
    await f.create(
      '',
      'pods',
      'default',
      pod('confused', 'Never', {
        'ops-ts.github.io/run-duration': 'a while',
        'ops-ts.github.io/exit-code': 'none',
      }),
    );
    const confused = await ended('confused');
    expect(status(confused).phase).toBe('Failed');
    expect(status(confused).containerStatuses[0].state.terminated.exitCode).toBe(1);
    const warnings = f
      .list('', 'events', 'default')
      .filter((e: any) => e.involvedObject?.name === 'confused');
    expect(warnings).toHaveLength(2);
    expect(warnings.map((e: any) => [e.type, e.reason, e.message])).toEqual(
      expect.arrayContaining([
        [
          'Warning',
          'InvalidAnnotation',
          expect.stringContaining(
            'ops-ts.github.io/run-duration="a while" is not a duration: write a number with a unit',
          ),
        ],
        ['Warning', 'InvalidAnnotation', expect.stringContaining('the Pod fails with exit code 1')],
      ]),
    );
  });

  it('cancels the timer of a Pod deleted while it runs', async () => {
    await f.create(
      '',
      'pods',
      'default',
      pod('long', 'Never', { 'ops-ts.github.io/run-duration': '1h' }),
    );
    await eventually(() => status(f.get('', 'pods', 'default', 'long')).phase === 'Running');
    await f.remove('', 'pods', 'default', 'long', { gracePeriodSeconds: 0 });
    // idle() waits for scheduled reconciles: it would wait an hour for a timer left behind.
    await f.cluster.idle();
    expect(f.get('', 'pods', 'default', 'long')).toBeUndefined();
  });

  it('after a restart, leaves ended Pods alone and ends running ones on their schedule', async () => {
    await f.create(
      '',
      'pods',
      'default',
      pod('across', 'Never', { 'ops-ts.github.io/run-duration': '500ms' }),
    );
    const running = await eventually(() => {
      const current = f.get('', 'pods', 'default', 'across');
      return status(current).phase === 'Running' && current;
    });
    await f.cluster.stop();
    const restarted = new SimulatedCluster(f.server, { podRunDurationMs: 150 });
    await restarted.start();
    try {
      const across = await ended('across');
      const terminated = status(across).containerStatuses[0].state.terminated;
      expect(terminated.startedAt).toBe(
        status(running).containerStatuses[0].state.running.startedAt,
      );
      expect(Date.parse(terminated.finishedAt) - Date.parse(terminated.startedAt)).toBeLessThan(
        1500,
      );
      await restarted.idle();
      // Every Pod has ended or runs forever: a settled cluster makes no writes.
      const before = f.server.store.currentRevision();
      const events = watch.events.length;
      await sleep(300);
      await restarted.idle();
      expect(f.server.store.currentRevision()).toBe(before);
      expect(watch.events.length).toBe(events);
      expect(restarted.errors).toEqual([]);
    } finally {
      await restarted.stop();
    }
  });
});
