import type { KubernetesObject } from '@ops/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatusError } from '../api/status-error.js';
import {
  type ClusterFixture,
  eventually,
  startClusterFixture,
} from './cluster-fixture.test-helper.js';

let f: ClusterFixture;
beforeAll(async () => {
  f = await startClusterFixture({ podStopDelayMs: 200 });
});
afterAll(async () => {
  await f.stop();
});

const status = (object: KubernetesObject | undefined): any => object?.status ?? {};
const pod = (name: string, spec: Record<string, unknown> = {}): KubernetesObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels: { app: name } },
  spec: { containers: [{ name: 'main', image: 'nginx:1.27' }], ...spec },
});
const condition = (object: KubernetesObject | undefined, type: string): any =>
  status(object).conditions?.find((c: any) => c.type === type);
const running = (name: string) =>
  eventually(() => {
    const current = f.get('', 'pods', 'default', name);
    return condition(current, 'Ready')?.status === 'True' && current;
  });

describe('Kubelet and Scheduler', () => {
  it('registers a Ready node', () => {
    const node = f.get('', 'nodes', '', 'local-node');
    expect(node?.metadata?.labels).toMatchObject({
      'kubernetes.io/hostname': 'local-node',
      'kubernetes.io/os': 'linux',
    });
    expect(condition(node, 'Ready')).toMatchObject({ status: 'True', reason: 'KubeletReady' });
    expect(status(node).nodeInfo).toMatchObject({
      kubeletVersion: 'v1.33.0',
      operatingSystem: 'linux',
    });
    expect(status(node).addresses).toContainEqual({ type: 'InternalIP', address: '172.18.0.2' });
    expect(status(node).allocatable).toMatchObject({ pods: '110' });
    expect(f.cluster.nodeName).toBe('local-node');
  });

  it('schedules and starts Pods with unique IPs, Ready', async () => {
    await f.create(
      '',
      'pods',
      'default',
      pod('one', { initContainers: [{ name: 'init', image: 'busybox:1' }] }),
    );
    await f.create('', 'pods', 'default', pod('two'));
    const one = await running('one');
    const two = await running('two');
    expect(one.spec).toMatchObject({ nodeName: 'local-node' });
    expect(status(one)).toMatchObject({
      phase: 'Running',
      hostIP: '172.18.0.2',
      hostIPs: [{ ip: '172.18.0.2' }],
    });
    expect(status(one).podIP).toMatch(/^10\.244\.\d+\.\d+$/);
    expect(status(one).podIPs).toEqual([{ ip: status(one).podIP }]);
    expect(status(two).podIP).not.toBe(status(one).podIP);
    expect(status(one).startTime).toMatch(/Z$/);
    for (const type of [
      'PodScheduled',
      'Initialized',
      'ContainersReady',
      'Ready',
      'PodReadyToStartContainers',
    ]) {
      expect(condition(one, type)).toMatchObject({ status: 'True' });
    }
    const [container] = status(one).containerStatuses;
    expect(container).toMatchObject({
      name: 'main',
      ready: true,
      started: true,
      restartCount: 0,
      image: 'nginx:1.27',
    });
    expect(container.state.running.startedAt).toMatch(/Z$/);
    expect(container.containerID).toMatch(/^containerd:\/\/[0-9a-f]{64}$/);
    expect(container.imageID).toMatch(/^nginx@sha256:[0-9a-f]{64}$/);
    expect(status(one).initContainerStatuses[0]).toMatchObject({
      name: 'init',
      state: { terminated: { exitCode: 0, reason: 'Completed' } },
    });
  });

  it('gives hostNetwork Pods the node address', async () => {
    await f.create('', 'pods', 'default', pod('host', { hostNetwork: true }));
    expect(status(await running('host')).podIP).toBe('172.18.0.2');
  });

  it('finishes Pods as Succeeded or Failed', async () => {
    await running('one');
    const done = await f.cluster.finishPod('default', 'one', 'Succeeded');
    expect(status(done).phase).toBe('Succeeded');
    expect(condition(done, 'Ready')).toMatchObject({ status: 'False', reason: 'PodCompleted' });
    expect(status(done).containerStatuses[0]).toMatchObject({
      ready: false,
      started: false,
      state: { terminated: { exitCode: 0, reason: 'Completed' } },
    });

    await running('two');
    const failed = await f.cluster.failPod('default', 'two', 137);
    expect(status(failed).phase).toBe('Failed');
    expect(status(failed).containerStatuses[0].state.terminated).toMatchObject({
      exitCode: 137,
      reason: 'Error',
    });
    // A finished Pod is not started again.
    await f.cluster.idle();
    expect(status(f.get('', 'pods', 'default', 'two')).phase).toBe('Failed');

    await expect(f.cluster.finishPod('default', 'missing', 'Failed')).rejects.toSatisfy(
      (e) => StatusError.isInstance(e) && e.code === 404,
    );
    await expect(f.cluster.finishPod('default', 'two', 'Running' as never)).rejects.toSatisfy(
      (e) => StatusError.isInstance(e) && e.code === 400,
    );
  });

  it('deletes scheduled Pods gracefully: deletionTimestamp first, then gone', async () => {
    await f.create('', 'pods', 'default', pod('graceful', { terminationGracePeriodSeconds: 20 }));
    const live = await running('graceful');
    const marked = await f.remove('', 'pods', 'default', 'graceful');
    expect(marked.metadata?.deletionTimestamp).toBeDefined();
    expect(marked.metadata?.deletionGracePeriodSeconds).toBe(20);
    const visible = f.get('', 'pods', 'default', 'graceful');
    expect(visible?.metadata?.uid).toBe(live.metadata?.uid);
    expect(visible?.metadata?.deletionTimestamp).toBeDefined();
    await eventually(() => f.get('', 'pods', 'default', 'graceful') === undefined);
  });

  it('uses the grace period of the request, and deletes at once with 0', async () => {
    await f.create('', 'pods', 'default', pod('quick'));
    await running('quick');
    const marked = await f.remove('', 'pods', 'default', 'quick', { gracePeriodSeconds: 5 });
    expect(marked.metadata?.deletionGracePeriodSeconds).toBe(5);
    await eventually(() => f.get('', 'pods', 'default', 'quick') === undefined);

    await f.create('', 'pods', 'default', pod('now'));
    await running('now');
    await f.remove('', 'pods', 'default', 'now', { gracePeriodSeconds: 0 });
    expect(f.get('', 'pods', 'default', 'now')).toBeUndefined();
  });

  it('leaves Pods whose nodeSelector does not match unschedulable, and deletes them at once', async () => {
    await f.create('', 'pods', 'default', pod('nowhere', { nodeSelector: { disk: 'ssd' } }));
    const pending = await eventually(() => {
      const current = f.get('', 'pods', 'default', 'nowhere');
      return condition(current, 'PodScheduled')?.reason === 'Unschedulable' && current;
    });
    expect(condition(pending, 'PodScheduled')).toMatchObject({ status: 'False' });
    expect(pending.spec).not.toHaveProperty('nodeName');
    await f.remove('', 'pods', 'default', 'nowhere');
    expect(f.get('', 'pods', 'default', 'nowhere')).toBeUndefined();
  });

  it('schedules a waiting Pod once the node matches', async () => {
    await f.create('', 'pods', 'default', pod('later', { nodeSelector: { zone: 'a' } }));
    await eventually(
      () =>
        condition(f.get('', 'pods', 'default', 'later'), 'PodScheduled')?.reason ===
        'Unschedulable',
    );
    await f.patch('', 'nodes', '', 'local-node', { metadata: { labels: { zone: 'a' } } });
    await running('later');
  });

  it('registers the node again when it is deleted', async () => {
    const before = f.get('', 'nodes', '', 'local-node');
    await f.remove('', 'nodes', '', 'local-node');
    const again = await eventually(() => f.get('', 'nodes', '', 'local-node'));
    expect(again.metadata?.uid).not.toBe(before?.metadata?.uid);
  });
});
