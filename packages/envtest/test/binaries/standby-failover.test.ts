import { Manager } from '@ops/core';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Environment, eventually, kubeRequest } from '../../src/index.js';

// Runs with pnpm test:binaries, on real etcd + kube-apiserver (issue #31, item 2): a leader
// that died without releasing its Lease, and a standby that takes over once the Lease
// expires. A warm standby (the default) has listed and watched all along, so it reconciles
// what changed while it waited without listing again; a cold one (enableWarmup: false)
// lists only once it leads.
const leaseName = 'standby-failover';
const leaseDurationSeconds = 2;
const generous = { timeoutMs: 60_000, intervalMs: 50 };

let env: Environment;
beforeAll(async () => {
  env = await Environment.start({ controlPlane: 'binaries' });
}, 240_000);
afterAll(async () => {
  await env?.stop();
});

const post = async (path: string, body: unknown) => {
  const response = await kubeRequest(env.kubeConfig, 'POST', path, body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
};

/** A Lease held by a leader that is gone: nobody renews it, so it expires after its duration. */
async function crashedLeader(namespace: string): Promise<void> {
  const now = new Date().toISOString().replace('Z', '000Z');
  await post(`/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases`, {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: leaseName, namespace },
    spec: {
      holderIdentity: 'crashed-leader',
      leaseDurationSeconds,
      acquireTime: now,
      renewTime: now,
      leaseTransitions: 0,
    },
  });
}

/** Who holds the failover Lease in `namespace`, as kube-apiserver says now. */
async function leaseHolder(namespace: string): Promise<string | undefined> {
  const lease = await kubeRequest(
    env.kubeConfig,
    'GET',
    `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases/${leaseName}`,
  );
  expect(lease.status, JSON.stringify(lease.body)).toBe(200);
  return (lease.body as { spec: { holderIdentity?: string } }).spec.holderIdentity;
}

async function namespaceWithConfigMaps(namespace: string, count: number): Promise<void> {
  await post('/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: namespace },
  });
  for (let i = 0; i < count; i++) {
    await post(`/api/v1/namespaces/${namespace}/configmaps`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `existing-${i}`, namespace },
    });
  }
}

function standby(namespace: string, enableWarmup: boolean) {
  const firstReconcile = new Map<string, number>();
  const manager = new Manager({
    kubeConfig: env.kubeConfig,
    logger: pino({ level: 'silent' }),
    metricsBindAddress: false,
    healthProbeBindAddress: false,
    namespace,
    leaderElection: true,
    leaderElectionId: leaseName,
    leaderElectionNamespace: namespace,
    leaderElectionIdentity: `standby-${enableWarmup ? 'warm' : 'cold'}`,
    leaseDurationMs: leaseDurationSeconds * 1000,
    renewDeadlineMs: 1_500,
    retryPeriodMs: 200,
    enableWarmup,
  });
  manager
    .controller('failover')
    .for({ apiVersion: 'v1', kind: 'ConfigMap' })
    .complete((request) => {
      if (!firstReconcile.has(request.name)) firstReconcile.set(request.name, Date.now());
    });
  const stop = new AbortController();
  const running = manager.start(stop.signal);
  return {
    manager,
    firstReconcile,
    // The state fetches: paged LIST requests and streaming lists (WatchList, the informer's
    // default where the server streams lists, as kube-apiserver 1.34+ does).
    listRequests: () =>
      manager.cache.informers().reduce((sum, informer) => {
        const stats = informer.stats();
        return sum + stats.listRequests + stats.watchLists;
      }, 0),
    stop: async () => {
      stop.abort();
      await running;
    },
  };
}

describe('leader failover on kube-apiserver', () => {
  it('a warm standby syncs while another leads, then reconciles what changed without listing again', async () => {
    const namespace = 'failover-warm';
    await namespaceWithConfigMaps(namespace, 50);
    await crashedLeader(namespace);
    const replica = standby(namespace, true);
    try {
      await eventually(() => replica.manager.cache.list('v1', 'ConfigMap').length === 50, generous);
      expect(replica.manager.isLeader()).toBe(false);
      expect(replica.firstReconcile.size).toBe(0);
      const listed = replica.listRequests();
      expect(listed).toBeGreaterThan(0);
      // Changed while the standby waits for the dead leader's Lease to expire.
      await post(`/api/v1/namespaces/${namespace}/configmaps`, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'changed-during-failover', namespace },
      });
      await eventually(() => replica.manager.isLeader(), generous);
      await eventually(() => replica.firstReconcile.has('changed-during-failover'), generous);
      await eventually(() => replica.firstReconcile.size === 51, generous);
      expect(replica.listRequests()).toBe(listed);
      expect(await leaseHolder(namespace)).toBe('standby-warm');
    } finally {
      await replica.stop();
    }
  }, 120_000);

  it('a cold standby (enableWarmup: false) lists nothing until it leads', async () => {
    const namespace = 'failover-cold';
    await namespaceWithConfigMaps(namespace, 10);
    await crashedLeader(namespace);
    const replica = standby(namespace, false);
    try {
      // The dead leader's Lease holds for 2 s from when the standby first sees it. A sample of
      // the standby's informers counts only when a read of the Lease after it still names the
      // dead leader: the standby did not hold the Lease when it was taken. (isLeader() is no
      // such witness: a cold standby holds the Lease while its caches sync, before it leads.)
      const informersWhileStandby: number[] = [];
      await eventually(async () => {
        const informers = replica.manager.cache.informers().length;
        if ((await leaseHolder(namespace)) !== 'crashed-leader') return true;
        informersWhileStandby.push(informers);
        return false;
      }, generous);
      expect(informersWhileStandby.length).toBeGreaterThan(0);
      expect(new Set(informersWhileStandby)).toEqual(new Set([0]));
      await eventually(() => replica.manager.isLeader(), generous);
      await eventually(() => replica.firstReconcile.size === 10, generous);
      expect(replica.listRequests()).toBeGreaterThan(0);
    } finally {
      await replica.stop();
    }
  }, 120_000);
});
