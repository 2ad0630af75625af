import { afterEach, describe, expect, it } from 'vitest';
import { ApiServer } from '../server/api-server.js';
import {
  type ClusterFixture,
  configMap,
  deployment,
  eventually,
  sleep,
  startClusterFixture,
} from './cluster-fixture.test-helper.js';

let f: ClusterFixture | undefined;
afterEach(async () => {
  await f?.stop();
  f = undefined;
});

describe('SimulatedCluster', () => {
  it('makes no writes once settled', async () => {
    f = await startClusterFixture();
    const c = f;
    await c.create('apps', 'deployments', 'default', deployment('steady', 2));
    await c.create('', 'services', 'default', {
      metadata: { name: 'steady' },
      spec: { selector: { app: 'steady' }, ports: [{ port: 80, targetPort: 'http' }] },
    });
    const owner = await c.create('', 'configmaps', 'default', configMap('owner'));
    await c.create(
      '',
      'configmaps',
      'default',
      configMap('child', {
        ownerReferences: [
          { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata?.uid ?? '' },
        ],
      }),
    );
    await eventually(
      () =>
        (c.get('apps', 'deployments', 'default', 'steady')?.status as any)?.availableReplicas ===
          2 &&
        (c.get('', 'endpoints', 'default', 'steady')?.subsets as any[])?.[0]?.addresses?.length ===
          2,
    );
    await c.cluster.idle();
    const before = c.server.store.currentRevision();
    await sleep(300);
    await c.cluster.idle();
    expect(c.server.store.currentRevision()).toBe(before);
    expect(c.cluster.errors).toEqual([]);
  });

  it('does nothing with every part switched off', async () => {
    f = await startClusterFixture(false);
    const c = f;
    expect(c.cluster.controllers).toEqual([]);
    expect(c.cluster.nodeName).toBeUndefined();
    await c.create('apps', 'deployments', 'default', deployment('idle', 1));
    await c.create('', 'pods', 'default', {
      metadata: { name: 'lonely' },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    });
    await sleep(100);
    expect(c.list('apps', 'replicasets', 'default')).toEqual([]);
    expect(c.get('', 'nodes', '', 'local-node')).toBeUndefined();
    expect(c.get('', 'pods', 'default', 'lonely')?.spec).not.toHaveProperty('nodeName');
    expect(c.get('apps', 'deployments', 'default', 'idle')?.status).toBeUndefined();
    await c.remove('', 'pods', 'default', 'lonely');
    expect(c.get('', 'pods', 'default', 'lonely')).toBeUndefined();
    await expect(c.cluster.finishPod('default', 'lonely', 'Failed')).rejects.toThrow(
      /kubelet is switched off/,
    );
  });

  it('runs only the parts switched on', async () => {
    f = await startClusterFixture({
      kubelet: false,
      endpoints: false,
      garbageCollector: false,
      namespaces: false,
      jobs: false,
    });
    const c = f;
    expect(c.cluster.controllers).toEqual(['deployment', 'replicaset']);
    await c.create('apps', 'deployments', 'default', deployment('partial', 2));
    const pods = await eventually(
      () => c.list('', 'pods', 'default').length === 2 && c.list('', 'pods', 'default'),
    );
    await c.create('', 'services', 'default', {
      metadata: { name: 'partial' },
      spec: { selector: { app: 'partial' }, ports: [{ port: 80 }] },
    });
    const owner = await c.create('', 'configmaps', 'default', configMap('gc-off-owner'));
    await c.create(
      '',
      'configmaps',
      'default',
      configMap('gc-off-child', {
        ownerReferences: [
          {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            name: 'gc-off-owner',
            uid: owner.metadata?.uid ?? '',
          },
        ],
      }),
    );
    await c.remove('', 'configmaps', 'default', 'gc-off-owner');
    await c.create('', 'namespaces', '', { metadata: { name: 'stays' } });
    await c.remove('', 'namespaces', '', 'stays');
    await sleep(100);
    await c.cluster.idle();
    expect(
      pods.every((p) => (p.status as any).phase === 'Pending' && !(p.spec as any).nodeName),
    ).toBe(true);
    expect(c.get('', 'endpoints', 'default', 'partial')).toBeUndefined();
    expect(c.get('', 'configmaps', 'default', 'gc-off-child')).toBeDefined();
    expect((c.get('', 'namespaces', '', 'stays')?.status as any)?.phase).toBe('Terminating');
    expect((c.get('apps', 'deployments', 'default', 'partial')?.status as any)?.replicas).toBe(2);
  });

  it('stops: later writes are not acted on and Pods are deleted at once again', async () => {
    f = await startClusterFixture();
    const c = f;
    await c.create('', 'pods', 'default', {
      metadata: { name: 'before' },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    });
    await eventually(
      () => (c.get('', 'pods', 'default', 'before')?.status as any)?.phase === 'Running',
    );
    await c.cluster.stop();
    await c.create('apps', 'deployments', 'default', deployment('after', 1));
    await c.remove('', 'pods', 'default', 'before');
    expect(c.get('', 'pods', 'default', 'before')).toBeUndefined();
    await sleep(50);
    expect(c.list('apps', 'replicasets', 'default')).toEqual([]);
    await expect(c.cluster.start()).rejects.toThrow(/cannot start/);
  });

  it('runs by default with ApiServer.start, and finishes Pods through the control API', async () => {
    const server = await ApiServer.start({ https: false });
    try {
      expect(server.cluster.controllers).toEqual([
        'garbagecollector',
        'namespace',
        'deployment',
        'replicaset',
        'endpoints',
        'job',
        'scheduler',
        'kubelet',
      ]);
      expect(server.store.get('/nodes', 'local-node')).toBeDefined();
      const admin = { user: { name: 'admin', groups: ['system:masters'] } };
      const pods = server.registry.findAnyVersion('', 'pods');
      if (pods === undefined) throw new Error('no pods');
      for (const name of ['job-a', 'job-b']) {
        await server.resources.create(
          pods,
          'default',
          {
            // Finished by the test, not by the kubelet's run duration.
            metadata: { name, annotations: { 'ops-ts.github.io/run-duration': '1h' } },
            spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] },
          },
          admin,
        );
      }
      await eventually(() =>
        ['job-a', 'job-b'].every(
          (n) =>
            (server.store.get('/pods', `default/${n}`)?.object.status as any)?.phase === 'Running',
        ),
      );
      const post = (path: string, body: unknown) =>
        fetch(`${server.url}${path}`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${server.adminToken}`,
            'Content-Type': 'application/json',
          },
          body: JSON.stringify(body),
        });
      const finished = await post('/__ops/pods/finish', {
        namespace: 'default',
        name: 'job-a',
        phase: 'Succeeded',
      });
      expect(finished.status).toBe(200);
      expect(((await finished.json()) as any).status.phase).toBe('Succeeded');
      const failed = await post('/__ops/pods/fail', {
        namespace: 'default',
        name: 'job-b',
        exitCode: 2,
      });
      expect(
        ((await failed.json()) as any).status.containerStatuses[0].state.terminated,
      ).toMatchObject({ exitCode: 2, reason: 'Error' });
      expect(
        (
          await post('/__ops/pods/finish', {
            namespace: 'default',
            name: 'job-a',
            phase: 'Running',
          })
        ).status,
      ).toBe(400);
      expect((await post('/__ops/pods/fail', { namespace: 'default', name: 'nope' })).status).toBe(
        404,
      );
      expect((await post('/__ops/pods/fail', {})).status).toBe(400);
    } finally {
      await server.stop();
    }
  });
});
