import type { KubernetesObject } from '@ops/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdmissionAttributes } from '../admission/admission.js';
import { StatusError } from '../api/status-error.js';
import {
  type ClusterFixture,
  eventually,
  sleep,
  startClusterFixture,
} from './cluster-fixture.test-helper.js';
import { comparePodsForDeletion } from './replica-set-controller.js';

let f: ClusterFixture;
beforeAll(async () => {
  f = await startClusterFixture();
});
afterAll(async () => {
  await f.stop();
});

const replicaSet = (name: string, replicas: number): KubernetesObject => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: { name },
  spec: {
    replicas,
    selector: { matchLabels: { rs: name } },
    template: {
      metadata: { labels: { rs: name }, annotations: { note: 'from-template' } },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    },
  },
});
const status = (object: KubernetesObject | undefined): any => object?.status ?? {};
const podsOf = (name: string) =>
  f.list('', 'pods', 'default').filter((p) => p.metadata?.labels?.rs === name);
const activePodsOf = (name: string) =>
  podsOf(name).filter(
    (p) =>
      p.metadata?.deletionTimestamp === undefined &&
      !['Succeeded', 'Failed'].includes(status(p).phase),
  );

describe('ReplicaSetController', () => {
  it('creates spec.replicas Pods from the template, owned by the ReplicaSet', async () => {
    const rs = await f.create('apps', 'replicasets', 'default', replicaSet('pool', 3));
    await eventually(
      () => status(f.get('apps', 'replicasets', 'default', 'pool')).readyReplicas === 3,
    );
    const pods = podsOf('pool');
    expect(pods).toHaveLength(3);
    for (const pod of pods) {
      expect(pod.metadata?.generateName).toBe('pool-');
      expect(pod.metadata?.annotations).toEqual({ note: 'from-template' });
      expect(pod.metadata?.ownerReferences).toEqual([
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: 'pool',
          uid: rs.metadata?.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ]);
    }
    expect(status(f.get('apps', 'replicasets', 'default', 'pool'))).toEqual({
      replicas: 3,
      fullyLabeledReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      observedGeneration: 1,
    });
  });

  it('replaces deleted and finished Pods', async () => {
    const [first, second] = activePodsOf('pool');
    await f.remove('', 'pods', 'default', first?.metadata?.name ?? '');
    await f.cluster.finishPod('default', second?.metadata?.name ?? '', 'Succeeded');
    await eventually(
      () =>
        activePodsOf('pool').length === 3 &&
        status(f.get('apps', 'replicasets', 'default', 'pool')).readyReplicas === 3,
    );
    expect(activePodsOf('pool').map((p) => p.metadata?.name)).not.toContain(first?.metadata?.name);
  });

  it('scales down, deleting Pods that are not ready first', async () => {
    const g = await startClusterFixture({ kubelet: false });
    try {
      await g.create('apps', 'replicasets', 'default', replicaSet('half', 3));
      const pods = await eventually(() => {
        const list = g.list('', 'pods', 'default');
        return list.length === 3 && list;
      });
      const [keep1, keep2, drop] = pods;
      for (const pod of [keep1, keep2]) {
        await g.patch(
          '',
          'pods',
          'default',
          pod?.metadata?.name ?? '',
          { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } },
          'status',
        );
      }
      await eventually(
        () => status(g.get('apps', 'replicasets', 'default', 'half')).readyReplicas === 2,
      );
      await g.patch('apps', 'replicasets', 'default', 'half', { spec: { replicas: 2 } });
      await eventually(() => g.list('', 'pods', 'default').length === 2);
      expect(g.get('', 'pods', 'default', drop?.metadata?.name ?? '')).toBeUndefined();
      await eventually(
        () =>
          status(g.get('apps', 'replicasets', 'default', 'half')).observedGeneration === 2 &&
          status(g.get('apps', 'replicasets', 'default', 'half')).replicas === 2,
      );
    } finally {
      await g.stop();
    }
  });

  it('creates Pods through admission, as the controller manager', async () => {
    const seen: AdmissionAttributes[] = [];
    f.server.setAdmission({
      mutate: async (attributes, object) => {
        if (attributes.type.plural !== 'pods' || attributes.operation !== 'CREATE') return object;
        seen.push(attributes);
        return {
          ...object,
          metadata: { ...object.metadata, labels: { ...object.metadata?.labels, injected: 'yes' } },
        };
      },
      validate: async () => undefined,
    });
    try {
      await f.create('apps', 'replicasets', 'default', replicaSet('hooked', 1));
      const [pod] = await eventually(() => podsOf('hooked').length === 1 && podsOf('hooked'));
      expect(pod?.metadata?.labels).toEqual({ rs: 'hooked', injected: 'yes' });
      expect(seen[0]?.user.name).toBe('system:kube-controller-manager');
    } finally {
      f.server.setAdmission({
        mutate: async (_a, object) => object,
        validate: async () => undefined,
      });
    }
  });

  it('creates Pods in slow-start batches of 1, 2, 4 (each batch concurrently)', async () => {
    const concurrency: number[] = [];
    let inFlight = 0;
    f.server.setAdmission({
      mutate: async (attributes, object) => {
        if (attributes.type.plural !== 'pods' || attributes.operation !== 'CREATE') return object;
        if (object.metadata?.labels?.rs !== 'batched') return object;
        concurrency.push(++inFlight);
        await sleep(20);
        inFlight--;
        return object;
      },
      validate: async () => undefined,
    });
    try {
      await f.create('apps', 'replicasets', 'default', replicaSet('batched', 7));
      await eventually(() => podsOf('batched').length === 7);
      // Each batch starts its calls together, so in-flight counts climb 1; 1, 2; 1, 2, 3, 4.
      expect(concurrency).toEqual([1, 1, 2, 1, 2, 3, 4]);
    } finally {
      f.server.setAdmission({
        mutate: async (_a, object) => object,
        validate: async () => undefined,
      });
    }
  });

  it('stops creating at the next batch once its ReplicaSet is deleted (no Pod bomb)', async () => {
    let attempts = 0;
    f.server.setAdmission({
      mutate: async (_attributes, object) => object,
      validate: async (attributes, object) => {
        if (attributes.type.plural !== 'pods' || attributes.operation !== 'CREATE') return;
        if (object.metadata?.labels?.rs !== 'bomb') return;
        attempts++;
        if (attempts === 3) await f.remove('apps', 'replicasets', 'default', 'bomb');
      },
    });
    try {
      await f.create('apps', 'replicasets', 'default', replicaSet('bomb', 100_000));
      await eventually(() => attempts >= 3);
      await sleep(300);
      await f.cluster.idle();
      // Batches 1 and 2 ran (three Pods); the ReplicaSet was gone before batch 3.
      expect(attempts).toBe(3);
      await eventually(() => podsOf('bomb').length === 0);
    } finally {
      f.server.setAdmission({
        mutate: async (_a, object) => object,
        validate: async () => undefined,
      });
    }
  });

  it('reports Pods a webhook denies with a ReplicaFailure condition, and recovers', async () => {
    let deny = true;
    f.server.setAdmission({
      mutate: async (_attributes, object) => object,
      validate: async (attributes) => {
        if (deny && attributes.type.plural === 'pods' && attributes.operation === 'CREATE') {
          throw new StatusError(
            403,
            'Forbidden',
            'admission webhook "deny.example.com" denied the request: no pods today',
          );
        }
      },
    });
    try {
      await f.create('apps', 'replicasets', 'default', replicaSet('denied', 1));
      const failure = await eventually(
        () => status(f.get('apps', 'replicasets', 'default', 'denied')).conditions?.[0],
      );
      expect(failure).toMatchObject({
        type: 'ReplicaFailure',
        status: 'True',
        reason: 'FailedCreate',
      });
      expect(failure.message).toContain('no pods today');
      expect(
        f.cluster.errors.some((e) => e.controller === 'replicaset' && e.key === 'default/denied'),
      ).toBe(true);
      deny = false;
      await eventually(
        () => status(f.get('apps', 'replicasets', 'default', 'denied')).readyReplicas === 1,
      );
      expect(status(f.get('apps', 'replicasets', 'default', 'denied')).conditions).toBeUndefined();
    } finally {
      f.server.setAdmission({
        mutate: async (_a, object) => object,
        validate: async () => undefined,
      });
    }
  });
});

describe('comparePodsForDeletion', () => {
  const pod = (
    name: string,
    nodeName: string | undefined,
    phase: string,
    ready: boolean,
    created: string,
  ): KubernetesObject => ({
    metadata: { name, creationTimestamp: created },
    spec: nodeName ? { nodeName } : {},
    status: { phase, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  });

  it('orders unscheduled, pending, not ready and newer Pods first', () => {
    const pods = [
      pod('ready-old', 'n', 'Running', true, '2024-01-01T00:00:00Z'),
      pod('ready-new', 'n', 'Running', true, '2024-01-02T00:00:00Z'),
      pod('not-ready', 'n', 'Running', false, '2024-01-01T00:00:00Z'),
      pod('pending', 'n', 'Pending', false, '2024-01-01T00:00:00Z'),
      pod('unscheduled', undefined, 'Pending', false, '2024-01-01T00:00:00Z'),
    ];
    expect([...pods].sort(comparePodsForDeletion).map((p) => p.metadata?.name)).toEqual([
      'unscheduled',
      'pending',
      'not-ready',
      'ready-new',
      'ready-old',
    ]);
  });
});
