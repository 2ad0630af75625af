import {
  Client,
  configMaps,
  ignoreNotFound,
  Manager,
  secrets,
  setControllerReference,
} from '@ops/core';
import {
  acknowledgedAnnotation,
  assignmentLeaseName,
  readAssignment,
  ringLabel,
  ShardRanges,
  shardLabel,
  shardLeaseName,
  shardNameLabel,
} from '@ops/core/sharding';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Environment, eventually } from '../../src/index.js';
import { overlappingReconciles, type ReconcileInterval } from './reconcile-intervals.js';

// Runs with pnpm test:binaries, on real etcd + kube-apiserver (issue #35): a controller
// sharded by namespace. Where kube-apiserver shards lists and watches (KEP-5866, 1.36+ with
// the ShardedListAndWatch gate, turned on here), each replica's informers select its hash
// ranges on the server and no object is labelled; on an older release (the test command's
// 1.35 run) the same controller falls back to the shard labels. Either way a replica leaving
// and one joining move namespaces without two replicas ever reconciling one object at once.

const newestMinor = (() => {
  const pinned = process.env.OPS_ENVTEST_KUBERNETES_VERSION?.trim().replace(/^v/, '');
  return pinned ? Number(pinned.split('.')[1]) : Number.POSITIVE_INFINITY;
})();
/** Whether this release has server-side sharded watches (alpha since 1.36). */
const serverSide = newestMinor >= 36;
const ring = 'by-ns';
const leaseNamespace = 'sharding-leases';
// Names that differ early: kube-apiserver hashes by 64-bit FNV-1a, under which names that
// differ only in their last characters (tenant-1, tenant-2...) land close together, most
// often on one replica (core's README, "Sharding by namespace").
const namespaces = [
  'payments',
  'search',
  'checkout',
  'billing',
  'identity',
  'catalog',
  'shipping',
  'reviews',
  'ads',
  'mail',
];
const perNamespace = 4;
const timing = { leaseDurationMs: 6_000, renewDeadlineMs: 4_500, retryPeriodMs: 500 };
const generous = { timeoutMs: 90_000, intervalMs: 100 };

let env: Environment;
let admin: Client;
beforeAll(async () => {
  env = await Environment.start({
    controlPlane: 'binaries',
    ...(serverSide ? { featureGates: { ShardedListAndWatch: true } } : {}),
  });
  admin = new Client({ kubeConfig: env.kubeConfig });
  for (const name of [leaseNamespace, ...namespaces])
    await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  for (const space of namespaces)
    for (let i = 0; i < perNamespace; i++)
      await admin.create({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `parent-${i}`, namespace: space, labels: { role: 'parent' } },
        data: { value: 'v0' },
      });
}, 240_000);
afterAll(async () => {
  admin?.close();
  await env?.stop();
});

/** While true, every parent is reconciled again 50 ms after each reconcile ends. */
let busy = true;

/** Reconcile intervals per object and replica; no two replicas' may overlap. */
const intervals: ReconcileInterval[] = [];
const overlaps = () => overlappingReconciles(intervals);

interface Replica {
  manager: Manager;
  stop(): Promise<void>;
}

function replica(who: string): Replica {
  busy = true;
  const manager = new Manager({
    kubeConfig: env.kubeConfig,
    logger: pino({ level: 'silent' }),
    metricsBindAddress: false,
    healthProbeBindAddress: false,
    leaderElectionNamespace: leaseNamespace,
    leaderElectionIdentity: who,
    ...timing,
  });
  manager
    .controller('copier')
    .for(configMaps)
    .owns(secrets)
    .withOptions({ maxConcurrentReconciles: 40, sharding: { ring, by: 'namespace' } })
    .complete(async (request) => {
      if (!namespaces.includes(request.namespace)) return {};
      const interval = {
        key: `${request.namespace}/${request.name}`,
        who,
        start: Date.now(),
      } as ReconcileInterval;
      intervals.push(interval);
      try {
        // Long, and (while `busy`) again and again: reconciles are in flight on every replica
        // whenever the membership changes, where a replica that gained a namespace too early
        // would overlap its old owner.
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        const parent = await ignoreNotFound(
          manager.client.get(configMaps, request.name, request.namespace),
        );
        if (parent?.metadata?.labels?.role !== 'parent') return {};
        await manager.client.apply(
          setControllerReference(parent, {
            apiVersion: 'v1',
            kind: 'Secret',
            metadata: { name: `${request.name}-copy`, namespace: request.namespace },
            data: { value: Buffer.from(parent.data?.value ?? '').toString('base64') },
          }),
          { fieldManager: 'copier', force: true },
        );
        return busy ? { requeueAfterMs: 50 } : {};
      } finally {
        interval.end = Date.now();
      }
    });
  const abort = new AbortController();
  const done = manager.start(abort.signal);
  done.catch(() => undefined);
  return {
    manager,
    stop: async () => {
      abort.abort();
      await done;
    },
  };
}

async function setValue(value: string): Promise<void> {
  for (const space of namespaces)
    for (let i = 0; i < perNamespace; i++)
      await admin.patch(
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: `parent-${i}`, namespace: space },
        },
        { data: { value } },
        'merge',
      );
}

/** Waits until every parent's child holds `value`. */
async function converge(value: string): Promise<void> {
  const encoded = Buffer.from(value).toString('base64');
  await eventually(
    async () => {
      const children = await admin.list(secrets);
      const done = children.items.filter(
        (child) =>
          namespaces.includes(child.metadata?.namespace ?? '') && child.data?.value === encoded,
      );
      return done.length === namespaces.length * perNamespace;
    },
    { ...generous, description: `every parent copied with ${value}` },
  );
}

/** The test's namespaces whose parents a replica's cache holds. */
/** The drains the replicas counted: objects moved away from them, and drains acknowledged. */
async function drainCounts(
  members: Record<string, Replica>,
): Promise<{ reassigned: number; acknowledged: number }> {
  let reassigned = 0;
  let acknowledged = 0;
  for (const member of Object.values(members)) {
    const { metrics } = member.manager;
    reassigned += await metrics.sum('ops_sharding_reassignments_total', { ring, reason: 'drain' });
    acknowledged += await metrics.sum('ops_sharding_drains_acknowledged_total', { ring });
  }
  return { reassigned, acknowledged };
}

function cachedNamespaces(member: Replica): string[] {
  return [
    ...new Set(
      member.manager.cache
        .list('v1', 'ConfigMap')
        .map((object) => object.metadata?.namespace ?? '')
        .filter((space) => namespaces.includes(space)),
    ),
  ].sort();
}

/**
 * Server-side: the ring's active generation is `members`, and each replica caches exactly the
 * test's namespaces its hash ranges hold (none labelled). Labels: each namespace's parents
 * carry one shard, a live member.
 */
async function sharedOut(members: Record<string, Replica>): Promise<void> {
  const names = Object.keys(members).sort();
  if (serverSide) {
    await eventually(
      async () => {
        const lease = await ignoreNotFound(
          admin.get(
            { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' },
            assignmentLeaseName(ring),
            leaseNamespace,
          ),
        );
        const assignment = readAssignment(lease);
        if (assignment?.active !== assignment?.generation) return false;
        if (assignment?.activeMembers.join(',') !== names.join(',')) return false;
        const ranges = new ShardRanges(names);
        return names.every(
          (who) =>
            cachedNamespaces(members[who] as Replica).join(',') ===
            namespaces
              .filter((space) => ranges.ownerOf(space) === who)
              .sort()
              .join(','),
        );
      },
      { ...generous, description: `the namespaces shared out among ${names.join(', ')}` },
    );
    const labelled = (await admin.list(configMaps)).items.filter(
      (object) => shardLabel(ring) in (object.metadata?.labels ?? {}),
    );
    expect(labelled).toEqual([]);
    return;
  }
  await eventually(
    async () => {
      const parents = (await admin.list(configMaps, { labelSelector: 'role=parent' })).items;
      return namespaces.every((space) => {
        const shards = new Set(
          parents
            .filter((parent) => parent.metadata?.namespace === space)
            .map((parent) => parent.metadata?.labels?.[shardLabel(ring)]),
        );
        const [shard] = [...shards];
        return shards.size === 1 && shard !== undefined && names.includes(shard);
      });
    },
    { ...generous, description: `each namespace on one of ${names.join(', ')}` },
  );
}

describe(`a controller sharded by namespace (${serverSide ? 'server-side shard selectors' : 'shard labels'})`, () => {
  it('shares namespaces out, and moves them as replicas leave and join, never reconciling one object twice at once', async () => {
    const members: Record<string, Replica> = {
      'replica-1': replica('replica-1'),
      'replica-2': replica('replica-2'),
      'replica-3': replica('replica-3'),
    };
    try {
      await converge('v0');
      await sharedOut(members);
      await setValue('v1');
      await converge('v1');

      // A replica leaves (a rolling update's first step), while the others work.
      await setValue('v2');
      await (members['replica-3'] as Replica).stop();
      delete members['replica-3'];
      await converge('v2');
      await sharedOut(members);

      // Another joins while work is in flight.
      const before = await drainCounts(members);
      const moving = serverSide
        ? (await admin.list(configMaps)).items.filter(
            (object) =>
              new ShardRanges(['replica-1', 'replica-2', 'replica-4']).ownerOf(
                object.metadata?.namespace ?? '',
              ) === 'replica-4',
          ).length
        : 0;
      await setValue('v3');
      members['replica-4'] = replica('replica-4');
      await converge('v3');
      await sharedOut(members);
      if (serverSide) {
        // No sharder sees objects here: replicas 1 and 2 counted what left their shares for
        // replica-4, and acknowledged draining it.
        const after = await drainCounts(members);
        expect(moving).toBeGreaterThan(0);
        expect(after.reassigned - before.reassigned).toBe(moving);
        expect(after.acknowledged - before.acknowledged).toBe(moving);
      }
      await setValue('v4');
      await converge('v4');
      busy = false;
      expect(overlaps()).toEqual([]);
      // Every replica did some of the work.
      for (const who of ['replica-1', 'replica-2', 'replica-3', 'replica-4'])
        expect(intervals.some((interval) => interval.who === who)).toBe(true);
    } finally {
      await Promise.all(Object.values(members).map((member) => member.stop()));
    }
  }, 300_000);

  // The server-side mechanism's crash case; the labels' (the 1.35 run's mechanism) is
  // sharding.test.ts's first case, which runs on every release.
  if (serverSide)
    it("takes a crashed replica's namespaces only after its Lease lapsed and was fenced", async () => {
      // A replica that owned every namespace in the active generation crashed: its Lease
      // says it acknowledged that generation and is never renewed again.
      const leaseName = assignmentLeaseName(ring);
      const lease = await admin.get(
        { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' },
        leaseName,
        leaseNamespace,
      );
      const generation = (readAssignment(lease)?.generation ?? 0) + 1;
      await admin.patch(
        {
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          metadata: { name: leaseName, namespace: leaseNamespace },
        },
        {
          metadata: {
            annotations: {
              'sharding.ops.dev/generation': String(generation),
              'sharding.ops.dev/members': 'crashed',
              'sharding.ops.dev/active-generation': String(generation),
              'sharding.ops.dev/active-members': 'crashed',
            },
          },
        },
        'merge',
      );
      const crashedLeaseSeconds = 2;
      await admin.create({
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: {
          name: shardLeaseName(ring, 'crashed'),
          namespace: leaseNamespace,
          labels: { [ringLabel]: ring, [shardNameLabel]: 'crashed' },
          annotations: { [acknowledgedAnnotation]: String(generation) },
        },
        spec: {
          holderIdentity: 'crashed',
          leaseDurationSeconds: crashedLeaseSeconds,
          renewTime: new Date().toISOString().replace('Z', '000Z'),
        },
      });
      intervals.length = 0;
      const startedAt = Date.now();
      const members = { 'replica-a': replica('replica-a'), 'replica-b': replica('replica-b') };
      try {
        await setValue('w1');
        await converge('w1');
        await sharedOut(members);
        busy = false;
        expect(overlaps()).toEqual([]);
        // Nothing was reconciled until the crashed replica's Lease lapsed (two of its lease
        // durations after the sharder first saw it, after the replicas started) and was fenced.
        const first = Math.min(...intervals.map((interval) => interval.start));
        expect(first - startedAt).toBeGreaterThanOrEqual(2 * crashedLeaseSeconds * 1000);
        const fenced = await ignoreNotFound(
          admin.get(
            { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' },
            shardLeaseName(ring, 'crashed'),
            leaseNamespace,
          ),
        );
        // Fenced by the sharder, then deleted once no generation named it.
        expect(
          fenced === undefined ||
            String(
              (fenced as { spec?: { holderIdentity?: string } }).spec?.holderIdentity,
            ).startsWith('sharder/'),
        ).toBe(true);
      } finally {
        await Promise.all(Object.values(members).map((member) => member.stop()));
      }
    }, 300_000);
});
