import type { KubernetesObject } from '@ops/api';
import { drainLabel, HashRing, shardingKey, shardLabel } from '@ops/core/sharding';
import pLimit from 'p-limit';
import type { BenchContext, BenchmarkModule, BenchmarkResult, Metric } from '../benchmark.js';
import type { BenchServer } from '../harness/bench-server.js';
import { formatNumber, formatRatio } from '../harness/format.js';
import { RawHttp } from '../harness/raw-http.js';
import {
  type ReconcileSample,
  roundAnnotation,
  seedRound,
  writtenAtAnnotation,
} from '../harness/shard-protocol.js';
import { ShardReplica } from '../harness/shard-replicas.js';
import { percentile, ratio } from '../harness/stats.js';
import { sleep, waitUntil } from '../harness/wait.js';

/** The replica counts compared, as issue #35 asks. */
export const shardReplicaCounts = [1, 3, 5] as const;
/** How long each reconcile waits, standing for a call to an external system. */
export const shardReconcileMs = 50;
/** Reconciles at once per replica. */
const workers = 10;
/** The steady load's rate, as a share of the replicas' ideal capacity. */
const loadShare = 0.8;
/**
 * Lease timing of the ring: controller-runtime's defaults. (A 4 s Lease lapsed on a loaded
 * machine: a replica that cannot renew within its renew deadline exits, by design.)
 */
const timing = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };
/** Writes the parent keeps in flight while it changes every object. */
const writeConcurrency = 64;
const ring = 'bench';

/** Issue #35's goals. */
const goals = {
  efficiency: 0.8,
  queueWaitP99Ms: 1_000,
  reconcileP99Ms: 5_000,
  memoryShareAt3: 0.4,
};

/** One replica count over one number of objects. */
export interface ShardRun {
  objects: number;
  replicas: number;
  /** From forking the replicas to every seeded object's first reconcile (ring formed, objects labelled). */
  initialMs: number;
  /** Objects reconciled per second after every object was changed at once (a backlog). */
  throughput: number;
  /** The steady load: writes per second and how many. */
  loadRate: number;
  loadWrites: number;
  /** Write → reconcile start under the steady load (the queue wait, with the watch's delivery), p99. */
  queueWaitP99Ms: number;
  /** Reconcile durations under the steady load, p99. */
  reconcileP99Ms: number;
  /** Each replica's heap after a full collection, and its resident set, after the backlog. */
  heapUsed: number[];
  rss: number[];
  /** Objects each replica reconciled in the backlog. */
  shares: number[];
}

/**
 * Issue #35's scale-out benchmark: a bench controller whose reconcile waits
 * {@link shardReconcileMs} (an external call), sharded over 1, 3 and 5 replicas, each a
 * process of its own, over N ConfigMaps (`--shard-sizes`). Per run: the time for the ring to
 * form and reconcile every object once; throughput when every object changes at once;
 * p99 queue wait and reconcile time under a steady load at 80 % of the replicas' ideal
 * capacity; each replica's heap.
 */
export const shardedScaleOutBenchmark: BenchmarkModule = {
  id: 'sharded-scale-out',
  title: 'One controller sharded across replicas',
  description:
    'A controller whose reconcile takes 50 ms, sharded over 1, 3 and 5 replica processes: throughput, p99 queue wait and reconcile, heap per replica.',
  async run({ options, startServer, log }: BenchContext): Promise<BenchmarkResult> {
    const runs: ShardRun[] = [];
    for (const objects of options.shardSizes) {
      const server = await startServer();
      try {
        for (const replicas of shardReplicaCounts) {
          log(`sharded scale-out: ${objects} objects over ${replicas} replica(s)`);
          runs.push(await runOnce(server, objects, replicas, options.latencyDurationMs, log));
        }
      } finally {
        await server.stop();
      }
    }
    return report(runs, options.latencyDurationMs);
  },
};

async function runOnce(
  server: BenchServer,
  objects: number,
  replicas: number,
  loadMs: number,
  log: (message: string) => void,
): Promise<ShardRun> {
  const namespace = `shard-${objects}-${replicas}`;
  await server.seedConfigMaps(namespace, 'object', objects);
  const names = Array.from({ length: objects }, (_, i) => `object-${i}`);
  const started = Date.now();
  const fleet: ShardReplica[] = [];
  const http = new RawHttp(server);
  try {
    for (let i = 0; i < replicas; i++) {
      fleet.push(
        await ShardReplica.start({
          url: server.url,
          kubeconfigPath: server.kubeconfigPath,
          namespace,
          identity: `replica-${i}`,
          ring,
          workers,
          reconcileMs: shardReconcileMs,
          ...timing,
        }),
      );
    }
    const reconciled = async (round: string) =>
      (await Promise.all(fleet.map((replica) => replica.count(round)))).reduce((a, b) => a + b, 0);
    const deadline = (count: number) => 120_000 + (count * shardReconcileMs * 4) / workers;
    // Settled: every object labelled for the replica the full ring hashes it to, none
    // draining, and each reconciled once; no reassignment is left to happen meanwhile.
    const full = new HashRing(fleet.map((replica) => replica.identity));
    await waitUntil(
      async () =>
        (await reconciled(seedRound)) >= objects && (await settled(http, namespace, full, objects)),
      `the ring of ${replicas} replica(s) to assign and reconcile every object`,
      deadline(objects),
      1_000,
    );
    const initialMs = Date.now() - started;

    // The backlog: every object changes at once.
    log(`  ring formed in ${initialMs} ms; changing all ${objects} objects`);
    const write = (name: string, round: string) =>
      http.send(
        'PATCH',
        `/api/v1/namespaces/${namespace}/configmaps/${name}`,
        {
          metadata: {
            annotations: { [roundAnnotation]: round, [writtenAtAnnotation]: String(Date.now()) },
          },
        },
        'application/merge-patch+json',
      );
    const limit = pLimit(writeConcurrency);
    await Promise.all(names.map((name) => limit(() => write(name, 'backlog'))));
    await waitUntil(
      async () => (await reconciled('backlog')) >= objects,
      `every changed object's reconcile over ${replicas} replica(s)`,
      deadline(objects),
      100,
    );
    const backlog = await Promise.all(fleet.map((replica) => replica.samples('backlog')));
    const all = backlog.flat();
    const firstWrite = Math.min(...all.map(([, writtenAt]) => writtenAt));
    const lastEnd = Math.max(...all.map(([, , , endedAt]) => endedAt));
    const throughput = (objects * 1000) / (lastEnd - firstWrite);
    const memory = await Promise.all(fleet.map((replica) => replica.memory()));

    // The steady load, at a share of the replicas' ideal capacity, each write a distinct object.
    const loadRate = (loadShare * replicas * workers * 1000) / shardReconcileMs;
    const loadWrites = Math.max(1, Math.min(objects, Math.round((loadRate * loadMs) / 1000)));
    log(`  steady load: ${loadWrites} writes at ${formatNumber(loadRate, 0)}/s`);
    const loadStart = performance.now();
    const sent: Array<Promise<unknown>> = [];
    for (let i = 0; i < loadWrites; i++) {
      const due = loadStart + (i * 1000) / loadRate;
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait);
      sent.push(write(names[i] as string, 'load'));
    }
    await Promise.all(sent);
    await waitUntil(
      async () => (await reconciled('load')) >= loadWrites,
      `every steady-load write's reconcile over ${replicas} replica(s)`,
      deadline(loadWrites),
      100,
    );
    const load = (await Promise.all(fleet.map((replica) => replica.samples('load')))).flat();
    return {
      objects,
      replicas,
      initialMs,
      throughput,
      loadRate,
      loadWrites,
      queueWaitP99Ms: percentile(
        load.map(([, writtenAt, startedAt]) => startedAt - writtenAt),
        99,
      ),
      reconcileP99Ms: percentile(
        load.map(([, , startedAt, endedAt]) => endedAt - startedAt),
        99,
      ),
      heapUsed: memory.map((entry) => entry.heapUsed),
      rss: memory.map((entry) => entry.rss),
      shares: backlog.map((samples: ReconcileSample[]) => samples.length),
    };
  } finally {
    http.close();
    // Each releases its Lease; one that hangs is killed after 20 s.
    await Promise.all(
      fleet.map((replica) =>
        Promise.race([replica.stop(), sleep(20_000).then(() => replica.kill())]),
      ),
    );
    for (const replica of fleet) replica.kill();
  }
}

/** Whether all `objects` ConfigMaps carry the shard label `ring` hashes them to, and none drains. */
async function settled(
  http: RawHttp,
  namespace: string,
  full: HashRing,
  objects: number,
): Promise<boolean> {
  const list = JSON.parse(
    (await http.get(`/api/v1/namespaces/${namespace}/configmaps`)).toString(),
  ) as { items: KubernetesObject[] };
  const items = list.items.filter((item) => item.metadata?.name?.startsWith('object-'));
  return (
    items.length === objects &&
    items.every((item) => {
      const labels = item.metadata?.labels ?? {};
      return (
        labels[drainLabel(ring)] === undefined &&
        labels[shardLabel(ring)] === full.lookup(shardingKey(item))
      );
    })
  );
}

const mb = (bytes: number) => bytes / 1024 / 1024;
const maxOf = (values: readonly number[]) => Math.max(...values);

function report(runs: ShardRun[], loadMs: number): BenchmarkResult {
  const largest = Math.max(...runs.map((run) => run.objects));
  const atLargest = runs.filter((run) => run.objects === largest);
  const fewest = atLargest.find((run) => run.replicas === shardReplicaCounts[0]);
  const most = atLargest.find((run) => run.replicas === shardReplicaCounts.at(-1));
  const three = atLargest.find((run) => run.replicas === 3);
  const efficiency =
    fewest && most
      ? ratio(most.throughput, (most.replicas / fewest.replicas) * fewest.throughput)
      : Number.NaN;
  const worstQueueWait = maxOf(atLargest.map((run) => run.queueWaitP99Ms));
  const worstReconcile = maxOf(atLargest.map((run) => run.reconcileP99Ms));
  const memoryShare =
    fewest && three ? ratio(maxOf(three.heapUsed), maxOf(fewest.heapUsed)) : Number.NaN;
  const metrics: Metric[] = runs.flatMap((run) => {
    const label = `${formatNumber(run.objects, 0)} objects, ${run.replicas} replica(s)`;
    return [
      { name: `${label}: throughput`, value: run.throughput, unit: 'objects/s' },
      { name: `${label}: p99 queue wait`, value: run.queueWaitP99Ms, unit: 'ms' },
      { name: `${label}: p99 reconcile`, value: run.reconcileP99Ms, unit: 'ms' },
      { name: `${label}: heap per replica (max)`, value: mb(maxOf(run.heapUsed)), unit: 'MB' },
      { name: `${label}: RSS per replica (max)`, value: mb(maxOf(run.rss)), unit: 'MB' },
      { name: `${label}: ring formed, all reconciled once`, value: run.initialMs, unit: 'ms' },
    ];
  });
  metrics.push({
    name: `scaling efficiency ${shardReplicaCounts[0]} → ${shardReplicaCounts.at(-1)} replicas`,
    value: efficiency,
    unit: '×',
  });
  const size = formatNumber(largest, 0);
  return {
    id: shardedScaleOutBenchmark.id,
    title: shardedScaleOutBenchmark.title,
    metrics,
    targets: [
      {
        target: `scaling efficiency from 1 to 5 replicas ≥ ${goals.efficiency} (${size} objects)`,
        measured: `${formatNumber(efficiency, 2)} (${formatNumber(fewest?.throughput ?? Number.NaN, 0)} → ${formatNumber(most?.throughput ?? Number.NaN, 0)} objects/s)`,
        met: efficiency >= goals.efficiency,
      },
      {
        target: `p99 queue wait ≤ 1 s at ${size} objects (every replica count)`,
        measured: `${formatNumber(worstQueueWait, 0)} ms (worst)`,
        met: worstQueueWait <= goals.queueWaitP99Ms,
      },
      {
        target: `p99 reconcile ≤ 5 s at ${size} objects (every replica count)`,
        measured: `${formatNumber(worstReconcile, 0)} ms (worst)`,
        met: worstReconcile <= goals.reconcileP99Ms,
      },
      {
        target: `heap per replica with 3 replicas ≤ ${goals.memoryShareAt3}× the single replica's (${size} objects)`,
        measured: `${formatRatio(memoryShare)} (${formatNumber(mb(maxOf(three?.heapUsed ?? [Number.NaN])), 1)} MB against ${formatNumber(mb(maxOf(fewest?.heapUsed ?? [Number.NaN])), 1)} MB)`,
        met: memoryShare <= goals.memoryShareAt3,
      },
    ],
    charts: [
      {
        title: `Objects reconciled per second, ${size} objects (higher is better)`,
        unit: 'objects/s',
        bars: atLargest.map((run) => ({
          label: `${run.replicas} replica(s)`,
          value: run.throughput,
        })),
      },
      {
        title: `Heap per replica after a full collection, ${size} objects (MB; lower is better)`,
        unit: 'MB',
        bars: atLargest.map((run) => ({
          label: `${run.replicas} replica(s)`,
          value: mb(maxOf(run.heapUsed)),
        })),
      },
    ],
    notes: [
      `Each replica is a process of its own running a Manager whose one controller (${workers} workers, sharded in one ring, Lease duration ${timing.leaseDurationMs} ms) reconciles the namespace's ConfigMaps: a cache read, then ${shardReconcileMs} ms of waiting, standing for an external call, so one replica's ideal capacity is ${(workers * 1000) / shardReconcileMs} objects/s.`,
      `Throughput: every object is changed at once (merge patches, ${writeConcurrency} in flight) once the ring has formed and reconciled each object; from the first write to the end of the last reconcile. Queue wait and reconcile p99: a steady load of distinct objects at ${loadShare * 100} % of the replicas' ideal capacity for ${loadMs} ms; the queue wait runs from the write to the reconcile's start, so it includes the watch's delivery. Heap: each replica's after a full collection, after the backlog (the highest of the replicas).`,
      'Replicas of one run share the machine, and so its cores, with the API server and the bench: with fewer cores than replicas the throughput of many replicas is bound by the CPU rather than by the reconciles.',
    ],
    samples: { runs },
  };
}
