import type { KubeConfig } from '@kubernetes/client-node';
import {
  Client,
  configMaps,
  ignoreNotFound,
  leases,
  Manager,
  secrets,
  setControllerReference,
} from '@ops/core';
import {
  ringLabel,
  sharderLeaseName,
  shardLabel,
  shardLeaseName,
  shardNameLabel,
} from '@ops/core/sharding';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Environment, eventually, FaultProxy } from '../../src/index.js';
import { overlappingReconciles, type ReconcileInterval } from './reconcile-intervals.js';

// Runs with pnpm test:binaries, on real etcd + kube-apiserver (issue #35): a controller
// sharded across replicas, where the label-selected watches, the conditional label patches
// of the drain handshake and the shard Leases meet the real API server. A replica that
// crashed holding objects (its Lease left behind, never renewed) loses them only once its
// Lease lapsed; then a rolling restart replaces every replica. A replica cut off from its own
// Lease (through a fault proxy) stops, and only then do its objects move. Every reconcile is
// logged as an interval per object and replica; no two replicas' intervals of one object may
// overlap.

const namespace = 'sharding';
const ring = 'copier';
const parents = 200;
const crashedObjects = 40;
// Leases that a loaded machine still renews in time (2 s / 1.5 s lost renewals at a load
// average of 16): the case judges how a crash is handled, not whether a renewal is late.
const timing = { leaseDurationMs: 6_000, renewDeadlineMs: 4_500, retryPeriodMs: 500 };
const generous = { timeoutMs: 90_000, intervalMs: 100 };
/** The duration the crashed replica's Lease says: the sharder judges its lapse by it. */
const crashedLeaseSeconds = 2;

let env: Environment;
let admin: Client;
beforeAll(async () => {
  env = await Environment.start({ controlPlane: 'binaries' });
  admin = new Client({ kubeConfig: env.kubeConfig });
}, 240_000);
afterAll(async () => {
  admin?.close();
  await env?.stop();
});

/** Reconcile intervals per object and replica; no two replicas' may overlap. */
const intervals: ReconcileInterval[] = [];
const overlaps = () => overlappingReconciles(intervals);

/** How a replica's reconciles behave: `ms` of work each, and whether an abort ends it. */
interface Work {
  ms: number;
  honoursAbort: boolean;
}

function replica(
  who: string,
  space = namespace,
  connection: { kubeConfig?: KubeConfig; work?: Work } = {},
): { stop(): Promise<void>; done: Promise<void>; stoppedAt(): number | undefined } {
  const manager = new Manager({
    kubeConfig: connection.kubeConfig ?? env.kubeConfig,
    logger: pino({ level: 'silent' }),
    metricsBindAddress: false,
    healthProbeBindAddress: false,
    namespace: space,
    leaderElectionNamespace: space,
    leaderElectionIdentity: who,
    ...timing,
  });
  manager
    .controller('copier')
    .for(configMaps)
    .owns(secrets)
    .withOptions({ maxConcurrentReconciles: 4, sharding: { ring } })
    .complete(async (request, context) => {
      const interval = { key: request.name, who, start: Date.now() } as ReconcileInterval;
      intervals.push(interval);
      try {
        const work = connection.work;
        if (work !== undefined && work.ms > 0)
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, work.ms);
            if (work.honoursAbort)
              context.signal.addEventListener('abort', () => {
                clearTimeout(timer);
                resolve();
              });
          });
        const parent = await ignoreNotFound(
          manager.client.get(configMaps, request.name, request.namespace),
        );
        if (parent === undefined) return {};
        // Server-side apply of the child, owned by the parent and carrying its shard label.
        const shard = parent.metadata?.labels?.[shardLabel(ring)] ?? '';
        await manager.client.apply(
          setControllerReference(parent, {
            apiVersion: 'v1',
            kind: 'Secret',
            metadata: {
              name: `${request.name}-copy`,
              namespace: space,
              labels: { [shardLabel(ring)]: shard },
            },
            data: { value: Buffer.from(parent.data?.value ?? '').toString('base64') },
          }),
          { fieldManager: 'copier', force: true },
        );
        return {};
      } finally {
        interval.end = Date.now();
      }
    });
  const abort = new AbortController();
  let stoppedAt: number | undefined;
  const done = manager.start(abort.signal).finally(() => {
    stoppedAt = Date.now();
  });
  done.catch(() => undefined);
  return {
    done,
    stoppedAt: () => stoppedAt,
    stop: async () => {
      abort.abort();
      await done;
    },
  };
}

/** Parents not assigned to one of `owners` with a child of the same shard holding `value`. */
async function unconverged(owners: string[], value: string, space: string): Promise<string[]> {
  const encoded = Buffer.from(value).toString('base64');
  const [parentList, childList] = await Promise.all([
    admin.list(configMaps, { namespace: space, labelSelector: 'role=parent' }),
    admin.list(secrets, { namespace: space }),
  ]);
  const children = new Map(childList.items.map((child) => [child.metadata?.name, child]));
  return parentList.items
    .filter((parent) => {
      const shard = parent.metadata?.labels?.[shardLabel(ring)] ?? '';
      const child = children.get(`${parent.metadata?.name}-copy`);
      return !(
        owners.includes(shard) &&
        child?.data?.value === encoded &&
        child.metadata?.labels?.[shardLabel(ring)] === shard
      );
    })
    .map((parent) => parent.metadata?.name ?? '');
}

async function converge(owners: string[], value: string, space = namespace): Promise<void> {
  await eventually(async () => (await unconverged(owners, value, space)).length === 0, {
    ...generous,
    description: `every parent reconciled on ${owners.join(', ')} with ${value}`,
  });
}

/** Waits until `who` owns at least one parent of `space` (its label on the parent). */
async function ownsParents(who: string, space = namespace): Promise<void> {
  await eventually(
    async () => {
      const list = await admin.list(configMaps, {
        namespace: space,
        labelSelector: `${shardLabel(ring)}=${who}`,
      });
      return list.items.length > 0;
    },
    { ...generous, description: `${who} owns objects` },
  );
}

async function setAllValues(value: string, space = namespace, count = parents): Promise<void> {
  for (let i = 0; i < count; i++)
    await admin.patch(
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `parent-${i}`, namespace: space } },
      { data: { value } },
      'merge',
    );
}

describe('a sharded controller on kube-apiserver', () => {
  it('takes a crashed replica’s objects only after its lease lapsed, and survives a rolling restart', async () => {
    await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
    for (let i = 0; i < parents; i++) {
      await admin.create({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: `parent-${i}`,
          namespace,
          labels: {
            role: 'parent',
            // The first ones belong to a replica that crashed: its Lease is never renewed.
            ...(i < crashedObjects ? { [shardLabel(ring)]: 'crashed' } : {}),
          },
        },
        data: { value: 'v1' },
      });
    }
    const now = new Date().toISOString().replace('Z', '000Z');
    await admin.create({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: {
        name: shardLeaseName(ring, 'crashed'),
        namespace,
        labels: { [ringLabel]: ring, [shardNameLabel]: 'crashed' },
      },
      spec: {
        holderIdentity: 'crashed',
        leaseDurationSeconds: crashedLeaseSeconds,
        renewTime: now,
      },
    });

    const startedAt = Date.now();
    const replicas = new Map(['r1', 'r2', 'r3'].map((who) => [who, replica(who)]));
    await converge(['r1', 'r2', 'r3'], 'v1');
    // The crashed replica's objects moved only after its Lease lapsed: two of its lease
    // durations after the sharder first saw it, which was after the replicas started.
    const firstCrashedReconcile = Math.min(
      ...intervals
        .filter((interval) => Number(interval.key.slice('parent-'.length)) < crashedObjects)
        .map((interval) => interval.start),
    );
    expect(firstCrashedReconcile - startedAt).toBeGreaterThanOrEqual(
      2 * crashedLeaseSeconds * 1000,
    );

    // Rolling restart: each new replica joins (taking its share by drain), then an old one stops.
    const alive = ['r1', 'r2', 'r3'];
    for (const [i, old] of ['r1', 'r2', 'r3'].entries()) {
      const newcomer = `r${i + 4}`;
      replicas.set(newcomer, replica(newcomer));
      alive.push(newcomer);
      await ownsParents(newcomer);
      await replicas.get(old)?.stop();
      alive.splice(alive.indexOf(old), 1);
      await setAllValues(`v${i + 2}`);
      await converge(alive, `v${i + 2}`);
    }
    expect(overlaps()).toEqual([]);
    await Promise.all(['r4', 'r5', 'r6'].map((who) => replicas.get(who)?.stop()));
  }, 300_000);

  it('lets another replica take a partitioned replica’s objects only after it stopped', async () => {
    const space = 'sharding-partition';
    const count = 60;
    intervals.length = 0;
    await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: space } });
    for (let i = 0; i < count; i++)
      await admin.create({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `parent-${i}`, namespace: space, labels: { role: 'parent' } },
        data: { value: 'v1' },
      });
    // r1 first, so it holds the sharder Lease and the partitioned replica is only a shard.
    const r1 = replica('r1', space);
    await eventually(
      async () =>
        (await ignoreNotFound(admin.get(leases, sharderLeaseName(ring), space)))?.spec
          ?.holderIdentity === 'r1',
      { ...generous, description: 'r1 holds the sharder Lease' },
    );
    // r2 talks to kube-apiserver through a proxy that, once `partitioned`, answers every
    // request on r2's own shard Lease with an error: r2 can no longer renew it, while its
    // other requests, and the other replicas, go on as before.
    let partitioned = false;
    const r2Lease = shardLeaseName(ring, 'r2');
    const proxy = await FaultProxy.start(env.kubeConfig, undefined, {
      decide: (request) =>
        partitioned && request.resource === 'leases' && request.name === r2Lease
          ? { action: 'reject', code: 500 }
          : { action: 'forward' },
    });
    const r2Work: Work = { ms: 2, honoursAbort: true };
    const r2 = replica('r2', space, { kubeConfig: proxy.kubeConfig(), work: r2Work });
    const r3 = replica('r3', space);
    try {
      // On a loaded machine r2 may join after r1 and r3 took every parent: converged then
      // says nothing of r2, so wait for its share first.
      await ownsParents('r2', space);
      await converge(['r1', 'r2', 'r3'], 'v1', space);
      const owned = await admin.list(configMaps, {
        namespace: space,
        labelSelector: `${shardLabel(ring)}=r2`,
      });
      const r2Objects = owned.items.map((parent) => parent.metadata?.name ?? '');
      expect(r2Objects.length).toBeGreaterThan(0);

      // r2's reconciles become slow and no longer stop when told: after it steps down they run
      // on for most of a lease duration. Its objects may only move once they have ended.
      Object.assign(r2Work, { ms: 0.6 * timing.leaseDurationMs, honoursAbort: false });
      await setAllValues('v2', space, count);
      await eventually(
        () => intervals.some((interval) => interval.who === 'r2' && interval.end === undefined),
        { ...generous, description: 'r2 has a reconcile in flight' },
      );
      const partitionedAt = Date.now();
      partitioned = true;
      await expect(r2.done).rejects.toThrow(/could not be renewed in time/);
      const stoppedAt = r2.stoppedAt() as number;
      expect(stoppedAt - partitionedAt).toBeGreaterThanOrEqual(timing.renewDeadlineMs - 300);
      expect(intervals.filter((i) => i.who === 'r2' && i.end === undefined)).toEqual([]);

      await setAllValues('v3', space, count);
      await converge(['r1', 'r3'], 'v3', space);
      for (const key of r2Objects) {
        const takeover = intervals.find(
          (interval) =>
            interval.key === key && interval.who !== 'r2' && interval.start >= partitionedAt,
        );
        expect(takeover, `${key} was taken over`).toBeDefined();
        expect(takeover?.start as number).toBeGreaterThanOrEqual(stoppedAt);
      }
      expect(overlaps()).toEqual([]);
    } finally {
      await Promise.all([r1.stop(), r3.stop(), r2.stop().catch(() => undefined)]);
      await proxy.sever();
    }
  }, 300_000);
});
