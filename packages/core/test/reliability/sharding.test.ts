import type { KubernetesObject } from '@ops/api';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isAlreadyExists, isNotFound } from '../../src/client/api-error-helpers.js';
import { configMaps, namespaces, secrets } from '../../src/client/built-in-kinds.js';
import { abortableSleep } from '../../src/controller/abortable-sleep.js';
import { Manager } from '../../src/manager/manager.js';
import {
  drainLabel,
  ringLabel,
  sharderLeaseName,
  shardLabel,
  shardLeaseName,
} from '../../src/sharding/shard-labels.js';
import {
  eventually,
  type FaultyApiServer,
  sleep,
  startFaultyApiServer,
  untilNoneRemain,
} from './faulty-api-server.js';

/**
 * One controller sharded across replicas (separate Managers, each with its own transport,
 * cache and client) over a few hundred objects, through membership changes and failures. The
 * controller copies each parent ConfigMap's `data.value` into a child Secret it owns.
 *
 * The oracle: a shared tracker records, per object, which replica's reconcile is in flight;
 * a reconcile that starts while another replica's reconcile of the same object is in flight
 * is a violation, and every case fails unless there were none. Waits are on conditions
 * (failing only when progress stalls), never on fixed sleeps.
 */

// Leases short enough for a test, long enough that a loaded machine (a load average of 16 on
// two cores, where 2 s / 1.5 s lost renewals and so whole replicas) still renews in time:
// what the cases judge is how membership changes are handled, not whether a renewal is late.
const timing = { leaseDurationMs: 6_000, renewDeadlineMs: 4_500, retryPeriodMs: 500 };
const parents = 300;
const stallMs = 30_000;

/** The oracle: per object, the replica whose reconcile of it is in flight. */
class ReconcileTracker {
  private readonly inFlight = new Map<string, string>();
  readonly violations: string[] = [];
  /** Object → starts of reconciles by replica: [who, time]. */
  readonly starts = new Map<string, Array<[string, number]>>();

  start(key: string, who: string): void {
    const other = this.inFlight.get(key);
    if (other !== undefined && other !== who)
      this.violations.push(`${who} started reconciling ${key} while ${other} was reconciling it`);
    this.inFlight.set(key, who);
    const list = this.starts.get(key) ?? [];
    list.push([who, Date.now()]);
    this.starts.set(key, list);
  }

  end(key: string, who: string): void {
    if (this.inFlight.get(key) === who) this.inFlight.delete(key);
  }

  inFlightOf(who: string): string[] {
    return [...this.inFlight].filter(([, by]) => by === who).map(([key]) => key);
  }
}

/** How long a replica's reconciles take; changeable while it runs. */
interface Work {
  ms: number;
  /** Whether the work stops when the controller stops (a reconcile ignoring it runs on). */
  honoursAbort: boolean;
}

interface Replica {
  who: string;
  manager: Manager;
  /** Graceful stop; resolves once stopped. */
  stop(): Promise<void>;
  /** Settles when the manager stops; rejects when it failed (lost its shard lease). */
  done: Promise<void>;
  /** When `done` settled. */
  settledAt(): number | undefined;
}

let cluster: FaultyApiServer;
let tracker: ReconcileTracker;
const running: Replica[] = [];
let caseCounter = 0;

beforeAll(async () => {
  cluster = await startFaultyApiServer();
});

afterEach(async () => {
  await cluster.clearFaults();
  await Promise.allSettled(running.splice(0).map((replica) => replica.stop()));
});

afterAll(async () => {
  await cluster?.stop();
});

/** A fresh namespace and ring for one case, with `parents` parent ConfigMaps. */
async function freshCase(): Promise<{ namespace: string; ring: string }> {
  caseCounter++;
  const namespace = `sharding-${caseCounter}`;
  const ring = `ring${caseCounter}`;
  tracker = new ReconcileTracker();
  await cluster.admin.create({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: namespace },
  });
  let next = 0;
  const worker = async () => {
    while (next < parents) {
      const i = next++;
      await cluster.admin.create({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `parent-${i}`, namespace, labels: { role: 'parent' } },
        data: { value: 'v1' },
      });
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return { namespace, ring };
}

function startReplica(
  who: string,
  namespace: string,
  ring: string,
  options: {
    reconcileMs?: number;
    work?: Work;
    /** Leader election for the manager's unsharded controllers (added by `configure`). */
    leaderElection?: boolean;
    configure?: (manager: Manager) => void;
  } = {},
): Replica {
  const manager = new Manager({
    kubeConfig: cluster.server.kubeConfig,
    logger: pino({ level: 'silent' }),
    metricsBindAddress: false,
    healthProbeBindAddress: false,
    namespace,
    leaderElectionNamespace: namespace,
    leaderElectionIdentity: who,
    ...(options.leaderElection ? { leaderElection: true, leaderElectionId: `${ring}-leader` } : {}),
    ...timing,
  });
  options.configure?.(manager);
  const work: Work = options.work ?? { ms: options.reconcileMs ?? 2, honoursAbort: true };
  manager
    .controller('copier')
    .for(configMaps)
    .owns(secrets)
    .withOptions({ maxConcurrentReconciles: 4, sharding: { ring } })
    .complete(async (request, { signal }) => {
      const key = `${request.namespace}/${request.name}`;
      tracker.start(key, who);
      try {
        let parent: KubernetesObject & { data?: Record<string, string> };
        try {
          parent = await manager.client.get(configMaps, request.name, request.namespace);
        } catch (error) {
          if (isNotFound(error)) return {};
          throw error;
        }
        // Stands for slow work; stops when the controller does, unless told to ignore that.
        if (work.honoursAbort) {
          await abortableSleep(work.ms, signal);
          if (signal.aborted) throw new Error('stopped mid-reconcile');
        } else {
          await sleep(work.ms);
        }
        const value = Buffer.from(parent.data?.value ?? '').toString('base64');
        const shard = parent.metadata?.labels?.[shardLabel(ring)] ?? '';
        const child = {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: {
            name: `${request.name}-copy`,
            namespace: request.namespace,
            // Created with its owner's shard label, so it is in this replica's cache at once.
            labels: { [shardLabel(ring)]: shard },
            ownerReferences: [
              {
                apiVersion: 'v1',
                kind: 'ConfigMap',
                name: request.name,
                uid: parent.metadata?.uid ?? '',
                controller: true,
              },
            ],
          },
          data: { value },
        };
        try {
          await manager.client.create(child);
        } catch (error) {
          if (!isAlreadyExists(error)) throw error;
          await manager.client.patch(child, { data: { value } }, 'merge');
        }
        return {};
      } finally {
        tracker.end(key, who);
      }
    });
  const abort = new AbortController();
  let settledAt: number | undefined;
  const done = manager.start(abort.signal).finally(() => {
    settledAt = Date.now();
  });
  done.catch(() => undefined);
  const replica: Replica = {
    who,
    manager,
    done,
    settledAt: () => settledAt,
    stop: async () => {
      abort.abort();
      await done.catch(() => undefined);
    },
  };
  running.push(replica);
  return replica;
}

interface Observed {
  parents: KubernetesObject[];
  children: Map<string, KubernetesObject & { data?: Record<string, string> }>;
}

async function observe(namespace: string): Promise<Observed> {
  const [parentList, childList] = await Promise.all([
    cluster.admin.list(configMaps, { namespace, labelSelector: 'role=parent' }),
    cluster.admin.list(secrets, { namespace }),
  ]);
  return {
    parents: parentList.items,
    children: new Map(childList.items.map((child) => [child.metadata?.name ?? '', child])),
  };
}

/**
 * Parents not yet converged: assigned to one of `owners` (no drain label), with a child of
 * the same shard holding `value`.
 */
function unconverged(observed: Observed, ring: string, owners: string[], value: string): string[] {
  const encoded = Buffer.from(value).toString('base64');
  return observed.parents
    .filter((parent) => {
      const labels = parent.metadata?.labels ?? {};
      const shard = labels[shardLabel(ring)];
      const child = observed.children.get(`${parent.metadata?.name}-copy`);
      return !(
        shard !== undefined &&
        owners.includes(shard) &&
        !(drainLabel(ring) in labels) &&
        child?.data?.value === encoded &&
        child.metadata?.labels?.[shardLabel(ring)] === shard
      );
    })
    .map((parent) => parent.metadata?.name ?? '');
}

async function converge(namespace: string, ring: string, owners: string[], value: string) {
  let left: string[] = [];
  await untilNoneRemain(
    async () => {
      left = unconverged(await observe(namespace), ring, owners, value);
      return left.length;
    },
    () =>
      `${left.length} parents not converged on ${owners.join(', ')} with ${value}, e.g. ${left.slice(0, 5).join(', ')}`,
    stallMs,
  );
}

async function setAllValues(namespace: string, value: string): Promise<void> {
  const names = Array.from({ length: parents }, (_, i) => `parent-${i}`);
  let next = 0;
  const worker = async () => {
    while (next < names.length) {
      const name = names[next++] as string;
      await cluster.admin.patch(
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace } },
        { data: { value } },
        'merge',
      );
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

async function ownersOf(namespace: string, ring: string): Promise<Map<string, string>> {
  const { parents: list } = await observe(namespace);
  return new Map(
    list.map((parent) => [
      `${namespace}/${parent.metadata?.name}`,
      parent.metadata?.labels?.[shardLabel(ring)] ?? '',
    ]),
  );
}

/** Starts replica `who` and waits until it holds the ring's sharder Lease. */
async function startSharder(who: string, namespace: string, ring: string): Promise<Replica> {
  const replica = startReplica(who, namespace, ring);
  let holder = '';
  await eventually(
    async () => {
      const lease = await cluster.admin.get<
        KubernetesObject & { spec?: { holderIdentity?: string } }
      >('coordination.k8s.io/v1', 'Lease', sharderLeaseName(ring), namespace);
      holder = lease.spec?.holderIdentity ?? '';
      return holder === who;
    },
    () => `the sharder lease is held by "${holder}", not ${who}`,
    stallMs,
  );
  return replica;
}

/** First reconcile start of `key` by anyone but `who` at or after `since`. */
function firstTakeover(key: string, who: string, since: number): number | undefined {
  return tracker.starts.get(key)?.find(([by, at]) => by !== who && at >= since)?.[1];
}

describe('a controller sharded across three replicas', () => {
  it('reconciles every object on exactly one replica, each caching only its share', async () => {
    const { namespace, ring } = await freshCase();
    const replicas = ['r1', 'r2', 'r3'].map((who) => startReplica(who, namespace, ring));
    await converge(namespace, ring, ['r1', 'r2', 'r3'], 'v1');

    // Each replica owns a share; together they own every parent once.
    const owners = await ownersOf(namespace, ring);
    const shares = ['r1', 'r2', 'r3'].map(
      (who) => [...owners.values()].filter((owner) => owner === who).length,
    );
    for (const share of shares) expect(share).toBeGreaterThan(parents / 3 / 2);
    // The leases of the ring, as `kubectl get leases -l sharding.ops.dev/ring=<ring>` lists them.
    const leases = await cluster.admin.list(
      { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' },
      { namespace, labelSelector: `${ringLabel}=${ring}` },
    );
    expect(leases.items.map((lease) => lease.metadata?.name).sort()).toEqual(
      ['r1', 'r2', 'r3'].map((who) => shardLeaseName(ring, who)),
    );
    // Each caches only its share (its parents and their children).
    for (const [i, replica] of replicas.entries()) {
      expect(
        await replica.manager.metrics.sum('ops_sharding_shard_objects', {
          ring,
          shard: replica.who,
        }),
      ).toBe(shares[i]);
    }

    const settled = Date.now();
    await setAllValues(namespace, 'v2');
    await converge(namespace, ring, ['r1', 'r2', 'r3'], 'v2');
    // With membership stable, every object was reconciled again, only by its owner.
    for (const [key, owner] of owners) {
      const since = (tracker.starts.get(key) ?? []).filter(([, at]) => at >= settled);
      expect(since.length, key).toBeGreaterThan(0);
      expect(new Set(since.map(([who]) => who)), key).toEqual(new Set([owner]));
    }
    expect(tracker.violations).toEqual([]);
  }, 120_000);

  it('moves the objects of a replica stopped mid-reconcile once its lease lapses', async () => {
    const { namespace, ring } = await freshCase();
    const replicas = ['r1', 'r2', 'r3'].map((who) =>
      startReplica(who, namespace, ring, { reconcileMs: who === 'r2' ? 300 : 2 }),
    );
    const [, r2] = replicas as [Replica, Replica, Replica];
    await converge(namespace, ring, ['r1', 'r2', 'r3'], 'v1');
    const before = await ownersOf(namespace, ring);
    const r2Objects = [...before].filter(([, owner]) => owner === 'r2').map(([key]) => key);
    expect(r2Objects.length).toBeGreaterThan(0);

    await setAllValues(namespace, 'v2');
    await eventually(
      () => tracker.inFlightOf('r2').length > 0,
      () => 'r2 never had a reconcile in flight',
      stallMs,
    );
    // Stopped as a crash would leave it: its lease is not handed back (the release fails),
    // so the others must wait for it to lapse.
    await cluster.addFault({
      verb: 'update',
      resource: 'leases',
      name: shardLeaseName(ring, 'r2'),
      code: 503,
    });
    await r2.stop();
    const stoppedAt = r2.settledAt() as number;
    await cluster.clearFaults();
    expect(tracker.inFlightOf('r2')).toEqual([]);

    await converge(namespace, ring, ['r1', 'r3'], 'v2');
    for (const key of r2Objects) {
      const takeover = firstTakeover(key, 'r2', stoppedAt);
      expect(takeover, `${key} was taken over`).toBeDefined();
      // Not before the lease lapsed: at least a lease duration after r2 stopped.
      expect((takeover as number) - stoppedAt).toBeGreaterThanOrEqual(timing.leaseDurationMs);
    }
    const dead = await Promise.all(
      replicas.map(async (replica) =>
        replica.manager.metrics.sum('ops_sharding_reassignments_total', {
          ring,
          shard: 'r2',
          reason: 'dead',
        }),
      ),
    );
    expect(dead.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(r2Objects.length);
    expect(tracker.violations).toEqual([]);
  }, 120_000);

  it('lets another replica take a partitioned replica’s objects only after it stopped', async () => {
    const { namespace, ring } = await freshCase();
    const r2Work: Work = { ms: 2, honoursAbort: true };
    // r1 is the sharder, so the partitioned replica is only a shard.
    await startSharder('r1', namespace, ring);
    const r2 = startReplica('r2', namespace, ring, { work: r2Work });
    startReplica('r3', namespace, ring);
    await converge(namespace, ring, ['r1', 'r2', 'r3'], 'v1');
    const r2Objects = [...(await ownersOf(namespace, ring))]
      .filter(([, owner]) => owner === 'r2')
      .map(([key]) => key);

    // r2 is busy with slow reconciles that do not stop when told: after it steps down they
    // run on for most of a lease duration. Objects may only move after they ended.
    Object.assign(r2Work, { ms: 0.6 * timing.leaseDurationMs, honoursAbort: false });
    await setAllValues(namespace, 'v2');
    await eventually(
      () => tracker.inFlightOf('r2').length > 0,
      () => 'r2 never had a reconcile in flight',
      stallMs,
    );
    // r2 can no longer read its lease, so it cannot renew it; everything else still works.
    const partitionedAt = Date.now();
    await cluster.addFault({
      verb: 'get',
      resource: 'leases',
      name: shardLeaseName(ring, 'r2'),
      code: 503,
    });
    await expect(r2.done).rejects.toThrow(/could not be renewed in time/);
    const stoppedAt = r2.settledAt() as number;
    expect(stoppedAt - partitionedAt).toBeGreaterThanOrEqual(timing.renewDeadlineMs - 300);
    expect(tracker.inFlightOf('r2')).toEqual([]);

    await setAllValues(namespace, 'v3');
    await converge(namespace, ring, ['r1', 'r3'], 'v3');
    for (const key of r2Objects) {
      const takeover = firstTakeover(key, 'r2', partitionedAt);
      expect(takeover, `${key} was taken over`).toBeDefined();
      expect(takeover as number).toBeGreaterThanOrEqual(stoppedAt);
    }
    expect(tracker.violations).toEqual([]);
  }, 120_000);

  it('survives a rolling restart of every replica, draining objects to the newcomers', async () => {
    const { namespace, ring } = await freshCase();
    const old = ['r1', 'r2', 'r3'].map((who) => startReplica(who, namespace, ring));
    await converge(namespace, ring, ['r1', 'r2', 'r3'], 'v1');
    const alive = ['r1', 'r2', 'r3'];
    for (const [i, replica] of old.entries()) {
      const newcomer = `r${i + 4}`;
      startReplica(newcomer, namespace, ring);
      alive.push(newcomer);
      // The newcomer gets its share by the drain handshake while the old replica still runs.
      await eventually(
        async () => [...(await ownersOf(namespace, ring)).values()].includes(newcomer),
        () => `${newcomer} got no object`,
        stallMs,
      );
      await replica.stop();
      alive.splice(alive.indexOf(replica.who), 1);
      await setAllValues(namespace, `v${i + 2}`);
      await converge(namespace, ring, alive, `v${i + 2}`);
    }
    expect(alive).toEqual(['r4', 'r5', 'r6']);
    // The stopped replicas' Leases are deleted once no object names them.
    let leaseNames: string[] = [];
    await eventually(
      async () => {
        const leases = await cluster.admin.list(
          { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' },
          { namespace, labelSelector: `${ringLabel}=${ring}` },
        );
        leaseNames = leases.items.map((lease) => lease.metadata?.name ?? '').sort();
        return leaseNames.length === 3;
      },
      () => `the ring's Leases are ${leaseNames.join(', ')}`,
      stallMs,
    );
    expect(leaseNames).toEqual(['r4', 'r5', 'r6'].map((who) => shardLeaseName(ring, who)));
    const drains = await Promise.all(
      running.map(async (replica) =>
        replica.manager.metrics.sum('ops_sharding_reassignments_total', {
          ring,
          reason: 'drain',
        }),
      ),
    );
    expect(drains.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(tracker.violations).toEqual([]);
  }, 180_000);
});

describe('sharding beside leader election', () => {
  it('runs the sharded controller on every replica and the singleton on the leader only', async () => {
    const { namespace, ring } = await freshCase();
    await cluster.admin.create({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'singleton', namespace },
    });
    const singletonRuns = new Map<string, number>();
    const replicas = ['r1', 'r2'].map((who) => {
      const replica = startReplica(who, namespace, ring, {
        leaderElection: true,
        configure: (manager) =>
          manager
            .controller('singleton')
            .for({ apiVersion: 'v1', kind: 'ServiceAccount' })
            .complete(() => {
              singletonRuns.set(who, (singletonRuns.get(who) ?? 0) + 1);
              return { requeueAfterMs: 20 };
            }),
      });
      return replica;
    });
    await converge(namespace, ring, ['r1', 'r2'], 'v1');
    const owners = [...(await ownersOf(namespace, ring)).values()];
    expect(owners).toContain('r1');
    expect(owners).toContain('r2');
    await eventually(
      () => [...singletonRuns.values()].some((runs) => runs >= 5),
      () => `the singleton ran ${JSON.stringify([...singletonRuns])}`,
      stallMs,
    );
    // Exactly one replica leads: the other never ran the singleton.
    expect(singletonRuns.size).toBe(1);
    const leader = replicas.find((replica) => replica.manager.isLeader());
    expect(leader?.who).toBe([...singletonRuns.keys()][0]);
    expect(tracker.violations).toEqual([]);
  }, 120_000);
});

describe('a controller sharded by namespace, on a server without sharded watches', () => {
  it('falls back to the shard labels, hashed by namespace: a namespace stays on one replica', async () => {
    tracker = new ReconcileTracker();
    const ring = 'bynamespace';
    const spaces = ['payments', 'search', 'checkout', 'billing', 'identity', 'catalog'];
    for (const name of ['bynamespace-leases', ...spaces]) {
      await cluster.admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
      if (name === 'bynamespace-leases') continue;
      for (let i = 0; i < 10; i++)
        await cluster.admin.create({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: `parent-${i}`, namespace: name, labels: { role: 'parent' } },
          data: { value: 'v1' },
        });
    }
    const replicas = ['r1', 'r2'].map((who) => {
      const manager = new Manager({
        kubeConfig: cluster.server.kubeConfig,
        logger: pino({ level: 'silent' }),
        metricsBindAddress: false,
        healthProbeBindAddress: false,
        leaderElectionNamespace: 'bynamespace-leases',
        leaderElectionIdentity: who,
        ...timing,
      });
      manager
        .controller('copier')
        .for(configMaps)
        .withOptions({ sharding: { ring, by: 'namespace' } })
        .complete(async (request) => {
          if (!spaces.includes(request.namespace)) return {};
          const key = `${request.namespace}/${request.name}`;
          tracker.start(key, who);
          try {
            await manager.client.patch(
              {
                apiVersion: 'v1',
                kind: 'ConfigMap',
                metadata: { name: request.name, namespace: request.namespace },
              },
              { metadata: { annotations: { 'reconciled-by': who } } },
              'merge',
            );
            return {};
          } finally {
            tracker.end(key, who);
          }
        });
      const abort = new AbortController();
      const done = manager.start(abort.signal);
      done.catch(() => undefined);
      const replica: Replica = {
        who,
        manager,
        done,
        settledAt: () => undefined,
        stop: async () => {
          abort.abort();
          await done.catch(() => undefined);
        },
      };
      running.push(replica);
      return replica;
    });
    await eventually(
      async () => {
        const list = (await cluster.admin.list(configMaps, { labelSelector: 'role=parent' })).items;
        return spaces.every((space) => {
          const own = list.filter((parent) => parent.metadata?.namespace === space);
          const shards = new Set(own.map((parent) => parent.metadata?.labels?.[shardLabel(ring)]));
          const [shard] = [...shards];
          return (
            shards.size === 1 &&
            shard !== undefined &&
            own.every((parent) => parent.metadata?.annotations?.['reconciled-by'] === shard)
          );
        });
      },
      () => 'each namespace labelled with, and reconciled by, one replica',
      stallMs,
    );
    const labelled = (await cluster.admin.list(configMaps, { labelSelector: 'role=parent' })).items
      .filter((parent) => spaces.includes(parent.metadata?.namespace ?? ''))
      .map((parent) => parent.metadata?.labels?.[shardLabel(ring)]);
    // Both replicas hold namespaces.
    expect(new Set(labelled)).toEqual(new Set(replicas.map((replica) => replica.who)));
    expect(tracker.violations).toEqual([]);
  }, 120_000);
});

describe('sharding options', () => {
  const quietManager = (options: Partial<ConstructorParameters<typeof Manager>[0]> = {}) =>
    new Manager({
      kubeConfig: cluster.server.kubeConfig,
      logger: pino({ level: 'silent' }),
      metricsBindAddress: false,
      healthProbeBindAddress: false,
      leaderElectionIdentity: 'replica-1',
      ...options,
    });

  it('refuses misuse with messages that say what to do', async () => {
    const manager = quietManager();
    const sharded = (name: string, ring?: string) =>
      manager
        .controller(name)
        .for(configMaps)
        .withOptions({ sharding: ring === undefined ? {} : { ring } })
        .complete(() => undefined);
    expect(() => sharded('a', 'Not_A_Ring')).toThrow(
      /sharding ring name "Not_A_Ring" is not valid/,
    );
    sharded('copier');
    expect(() => sharded('b', 'copier')).toThrow(/ring "copier", which another controller/);
    expect(() =>
      quietManager({ leaderElectionIdentity: 'host_1' })
        .controller('c')
        .for(configMaps)
        .withOptions({ sharding: {} })
        .complete(() => undefined),
    ).toThrow(/shard identity "host_1" is not valid/);
    expect(() =>
      quietManager({ leaderElection: true, leaderElectionId: 'x', enableWarmup: false })
        .controller('d')
        .for(configMaps)
        .withOptions({ sharding: {} })
        .complete(() => undefined),
    ).toThrow(/needs warm caches/);

    expect(() =>
      quietManager()
        .controller('e')
        .for(configMaps)
        .watches(configMaps, () => [])
        .withOptions({ sharding: {} })
        .complete(() => undefined),
    ).toThrow(/is sharded and also watches\(\) its for\(\) kind ConfigMap/);

    expect(() =>
      quietManager()
        .controller('f')
        .for(configMaps)
        // @ts-expect-error: not one of the choices, as an untyped caller might pass
        .withOptions({ sharding: { by: 'uid' } })
        .complete(() => undefined),
    ).toThrow(/sharding.by is 'name' \(the default\) or 'namespace'/);
    const clusterScoped = quietManager();
    clusterScoped
      .controller('g')
      .for(namespaces)
      .withOptions({ sharding: { by: 'namespace' } })
      .complete(() => undefined);
    await expect(clusterScoped.start(new AbortController().signal)).rejects.toThrow(
      /shards by namespace, but Namespace \(v1\) is cluster-scoped/,
    );

    // The same kind watched sharded and unsharded by one manager: refused at start.
    const mixed = quietManager();
    mixed
      .controller('sharded')
      .for(configMaps)
      .withOptions({ sharding: {} })
      .complete(() => undefined);
    mixed
      .controller('plain')
      .for(configMaps)
      .complete(() => undefined);
    await expect(mixed.start(new AbortController().signal)).rejects.toThrow(
      /every watch of it must ask for the same selector/,
    );
  });
});
