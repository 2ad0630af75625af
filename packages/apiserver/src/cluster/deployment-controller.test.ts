import type { KubernetesObject } from '@ops/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ClusterFixture,
  deployment,
  eventually,
  startClusterFixture,
} from './cluster-fixture.test-helper.js';

let f: ClusterFixture;
beforeAll(async () => {
  f = await startClusterFixture();
});
afterAll(async () => {
  await f.stop();
});

const status = (object: KubernetesObject | undefined): any => object?.status ?? {};
const spec = (object: KubernetesObject | undefined): any => object?.spec ?? {};
const replicaSetsOf = (name: string) =>
  f
    .list('apps', 'replicasets', 'default')
    .filter((rs) => rs.metadata?.ownerReferences?.some((r) => r.name === name && r.controller));
const podsOf = (rs: KubernetesObject) =>
  f
    .list('', 'pods', 'default')
    .filter((p) => p.metadata?.ownerReferences?.some((r) => r.uid === rs.metadata?.uid));

describe('DeploymentController', () => {
  it('brings a Deployment to 2/2 ready through a ReplicaSet and Pods', async () => {
    const created = await f.create('apps', 'deployments', 'default', deployment('web', 2));
    const ready = await eventually(() => {
      const d = f.get('apps', 'deployments', 'default', 'web');
      return (
        status(d).readyReplicas === 2 &&
        status(d).availableReplicas === 2 &&
        status(d).updatedReplicas === 2 &&
        d
      );
    });
    expect(status(ready)).toMatchObject({ observedGeneration: 1, replicas: 2 });
    expect(status(ready).unavailableReplicas).toBeUndefined();
    const conditions = status(ready).conditions;
    expect(conditions.find((c: any) => c.type === 'Available')).toMatchObject({
      status: 'True',
      reason: 'MinimumReplicasAvailable',
    });
    expect(conditions.find((c: any) => c.type === 'Progressing')).toMatchObject({
      status: 'True',
      reason: 'NewReplicaSetAvailable',
    });
    expect(ready.metadata?.annotations?.['deployment.kubernetes.io/revision']).toBe('1');

    const [rs, ...others] = replicaSetsOf('web');
    expect(others).toEqual([]);
    const hash = rs?.metadata?.labels?.['pod-template-hash'];
    expect(hash).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]+$/);
    expect(rs?.metadata?.name).toBe(`web-${hash}`);
    expect(rs?.metadata?.ownerReferences).toEqual([
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name: 'web',
        uid: created.metadata?.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(spec(rs).selector.matchLabels).toEqual({ app: 'web', 'pod-template-hash': hash });
    expect(spec(rs).template.metadata.labels).toEqual({ app: 'web', 'pod-template-hash': hash });
    expect(rs?.metadata?.annotations).toMatchObject({
      'deployment.kubernetes.io/revision': '1',
      'deployment.kubernetes.io/desired-replicas': '2',
    });
    expect(status(rs)).toMatchObject({
      replicas: 2,
      readyReplicas: 2,
      availableReplicas: 2,
      fullyLabeledReplicas: 2,
      observedGeneration: 1,
    });

    const pods = podsOf(rs as KubernetesObject);
    expect(pods).toHaveLength(2);
    for (const pod of pods) {
      expect(pod.metadata?.name).toMatch(new RegExp(`^web-${hash}-[a-z0-9]{5}$`));
      expect(pod.metadata?.labels).toEqual({ app: 'web', 'pod-template-hash': hash });
      expect(status(pod).phase).toBe('Running');
    }
  });

  it('rolls an image change out to a new ReplicaSet and scales the old one to 0', async () => {
    const [before] = replicaSetsOf('web');
    await f.patch('apps', 'deployments', 'default', 'web', {
      spec: {
        template: {
          spec: {
            containers: [
              { name: 'web', image: 'nginx:1.28', ports: [{ name: 'http', containerPort: 8080 }] },
            ],
          },
        },
      },
    });
    const done = await eventually(() => {
      const d = f.get('apps', 'deployments', 'default', 'web');
      const progressing = status(d).conditions?.find((c: any) => c.type === 'Progressing');
      return (
        status(d).observedGeneration === 2 &&
        status(d).updatedReplicas === 2 &&
        status(d).replicas === 2 &&
        status(d).availableReplicas === 2 &&
        progressing?.reason === 'NewReplicaSetAvailable' &&
        d
      );
    });
    expect(done.metadata?.annotations?.['deployment.kubernetes.io/revision']).toBe('2');
    const sets = replicaSetsOf('web');
    expect(sets).toHaveLength(2);
    const old = sets.find((rs) => rs.metadata?.uid === before?.metadata?.uid);
    const next = sets.find((rs) => rs.metadata?.uid !== before?.metadata?.uid);
    expect(spec(old).replicas).toBe(0);
    expect(spec(next).replicas).toBe(2);
    expect(next?.metadata?.annotations?.['deployment.kubernetes.io/revision']).toBe('2');
    expect(next?.metadata?.labels?.['pod-template-hash']).not.toBe(
      old?.metadata?.labels?.['pod-template-hash'],
    );
    await eventually(() => podsOf(old as KubernetesObject).length === 0);
    const pods = podsOf(next as KubernetesObject);
    expect(pods).toHaveLength(2);
    expect(pods.map((p) => spec(p).containers[0].image)).toEqual(['nginx:1.28', 'nginx:1.28']);
  });

  it('scales to 0 and back', async () => {
    await f.patch('apps', 'deployments', 'default', 'web', { spec: { replicas: 0 } });
    const scaledDown = await eventually(() => {
      const d = f.get('apps', 'deployments', 'default', 'web');
      return (
        status(d).observedGeneration === 3 &&
        status(d).replicas === undefined &&
        f.list('', 'pods', 'default').filter((p) => p.metadata?.labels?.app === 'web').length ===
          0 &&
        d
      );
    });
    expect(status(scaledDown).readyReplicas).toBeUndefined();
    expect(status(scaledDown).conditions.find((c: any) => c.type === 'Available')).toMatchObject({
      status: 'True',
    });
    expect(replicaSetsOf('web').every((rs) => spec(rs).replicas === 0)).toBe(true);

    await f.patch('apps', 'deployments', 'default', 'web', { spec: { replicas: 3 } });
    await eventually(
      () => status(f.get('apps', 'deployments', 'default', 'web')).availableReplicas === 3,
    );
    expect(
      f.list('', 'pods', 'default').filter((p) => p.metadata?.labels?.app === 'web'),
    ).toHaveLength(3);
  });

  it('reports MinimumReplicasUnavailable while Pods are not available', async () => {
    await f.create(
      'apps',
      'deployments',
      'default',
      deployment('picky', 1, 'nginx:1.27', { minReadySeconds: 3600 }),
    );
    const d = await eventually(() => {
      const current = f.get('apps', 'deployments', 'default', 'picky');
      return status(current).readyReplicas === 1 && current;
    });
    await eventually(() => {
      const current = f.get('apps', 'deployments', 'default', 'picky');
      const available = status(current).conditions?.find((c: any) => c.type === 'Available');
      const progressing = status(current).conditions?.find((c: any) => c.type === 'Progressing');
      return (
        available?.reason === 'MinimumReplicasUnavailable' &&
        available.status === 'False' &&
        progressing?.reason === 'ReplicaSetUpdated' &&
        status(current).unavailableReplicas === 1
      );
    });
    expect(status(d).availableReplicas).toBeUndefined();
  });

  it('recreates: old Pods go before new ones start', async () => {
    await f.create(
      'apps',
      'deployments',
      'default',
      deployment('batch', 2, 'busybox:1', { strategy: { type: 'Recreate' } }),
    );
    await eventually(
      () => status(f.get('apps', 'deployments', 'default', 'batch')).availableReplicas === 2,
    );
    const image = (p: KubernetesObject) => spec(p).containers[0].image;
    const overlaps: string[] = [];
    const unsubscribe = f.server.store.subscribe('/pods', (event) => {
      if (event.type !== 'ADDED' || image(event.current.object) !== 'busybox:2') return;
      const left = f
        .list('', 'pods', 'default')
        .filter((p) => p.metadata?.labels?.app === 'batch' && image(p) === 'busybox:1');
      overlaps.push(...left.map((p) => p.metadata?.name ?? ''));
    });
    await f.patch('apps', 'deployments', 'default', 'batch', {
      spec: { template: { spec: { containers: [{ name: 'web', image: 'busybox:2' }] } } },
    });
    await eventually(() => {
      const d = f.get('apps', 'deployments', 'default', 'batch');
      return (
        status(d).observedGeneration === 2 &&
        status(d).updatedReplicas === 2 &&
        status(d).availableReplicas === 2 &&
        status(d).replicas === 2
      );
    });
    unsubscribe();
    expect(overlaps).toEqual([]);
    const images = await eventually(() => {
      const all = f
        .list('', 'pods', 'default')
        .filter((p) => p.metadata?.labels?.app === 'batch')
        .map(image);
      return all.length === 2 && all;
    });
    expect(images).toEqual(['busybox:2', 'busybox:2']);
  });
});
