import type { KubernetesObject } from '@ops/api';
import {
  assignmentLeaseName,
  drainLabel,
  HashRing,
  readAssignment,
  shardingKey,
  shardLabel,
} from '@ops/core/sharding';
import pLimit from 'p-limit';
import type {
  BenchContext,
  BenchmarkModule,
  BenchmarkResult,
  Metric,
  ShardBy,
  TargetCheck,
} from '../benchmark.js';
import type { BenchServer, ServerKind } from '../harness/bench-server.js';
import { formatNumber, formatRatio } from '../harness/format.js';
import { busyShare, machineCpuTimes } from '../harness/machine-cpu.js';
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
/** The namespace of the ring's Leases. */
const leaseNamespace = 'shard-leases';
/** The measured ConfigMaps are `object-<i>`. */
const objectPrefix = 'object-';
/** Namespaces the objects are spread over, at most (ten objects each at least). */
const maxNamespaces = 100;

/** Issue #35's goals. */
const goals = {
  efficiency: 0.8,
  queueWaitP99Ms: 1_000,
  reconcileP99Ms: 5_000,
  memoryShareAt3: 0.4,
};

/**
 * How the replicas found their share: shard labels the sharder writes on every object, or
 * kube-apiserver's server-side shard selectors (`by: 'namespace'` on 1.36+ with the gate).
 */
export type ShardMechanism = 'labels' | 'server-side';

/** One replica count over one number of objects, sharded one way. */
export interface ShardRun {
  objects: number;
  replicas: number;
  /** What the ring hashed. */
  by: ShardBy;
  /** How it was carried out: seen from the ring's assignment Lease (server-side only). */
  mechanism: ShardMechanism;
  /** Namespaces the objects were spread over. */
  namespaces: number;
  /** From forking the replicas to every seeded object's first reconcile (ring formed, objects labelled). */
  initialMs: number;
  /** Objects reconciled per second after every object was changed at once (a backlog). */
  throughput: number;
  /**
   * From sending the backlog's first write to the last one's answer: the rate at which the
   * backlog reached the server bounds the throughput (each write's reconcile starts once the
   * watch delivers it).
   */
  backlogWriteMs: number;
  /**
   * The share of the machine's CPU (all cores, whatever ran: API server, etcd, replicas, the
   * bench, anything else) busy during the backlog and during the steady load; near 1 the run
   * was bound by the CPU, not by the reconciles.
   */
  backlogCpuBusy: number;
  loadCpuBusy: number;
  /**
   * Objects reconciled per second when every object's change was already queued: written while
   * the replicas held their reconciles, then released at once; from the release to the end of
   * the last reconcile. What the replicas can drain, whatever rate the writes arrive at.
   */
  drainThroughput: number;
  /** The share of the machine's CPU busy during that drain. */
  drainCpuBusy: number;
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
 * The namespaces `objects` are spread over: one per ten objects, at most
 * {@link maxNamespaces}, named so that they differ in their first characters (kube-apiserver
 * hashes namespaces with FNV-1a, which puts names differing only at their end close together:
 * core's README, "Sharding by namespace").
 */
export function shardNamespaces(objects: number): string[] {
  const count = Math.max(1, Math.min(maxNamespaces, Math.ceil(objects / 10)));
  return Array.from({ length: count }, (_, i) => `${i}-tenant`);
}

/**
 * The feature gates a run sharded `by` asks of the server: kube-apiserver 1.36+ shards lists
 * and watches behind `ShardedListAndWatch`, which a run by namespace turns on (older releases
 * refuse a gate they do not know, and the local server has none: both shard by labels).
 */
export function shardingGates(
  by: ShardBy,
  serverKind: ServerKind,
  serverName: string,
): Record<string, boolean> | undefined {
  if (by !== 'namespace' || serverKind !== 'real') return undefined;
  const minor = Number(/\bv1\.(\d+)\./.exec(serverName)?.[1]);
  return minor >= 36 ? { ShardedListAndWatch: true } : undefined;
}

/**
 * Issue #35's scale-out benchmark: a bench controller whose reconcile waits
 * {@link shardReconcileMs} (an external call), sharded over 1, 3 and 5 replicas (by default;
 * `--shard-replicas`), each a
 * process of its own, over N ConfigMaps (`--shard-sizes`) spread over
 * {@link shardNamespaces}, once per key of `--shard-by` (by name: shard labels; by
 * namespace: server-side shard selectors where kube-apiserver has them). Each run has a fresh
 * server. Per run: the time for the ring to form and reconcile every object once; throughput
 * when every object changes at once, as written and draining a backlog already queued (on
 * which scaling is judged); p99 queue wait and reconcile time under a steady load at 80 % of
 * the replicas' ideal capacity; each replica's heap; the machine's busy CPU in each phase.
 */
export const shardedScaleOutBenchmark: BenchmarkModule = {
  id: 'sharded-scale-out',
  title: 'One controller sharded across replicas',
  description:
    'A controller whose reconcile takes 50 ms, sharded by name and by namespace over 1, 3 and 5 replica processes (by default): throughput, p99 queue wait and reconcile, heap per replica.',
  async run({
    options,
    startServer,
    serverKind,
    serverName,
    log,
  }: BenchContext): Promise<BenchmarkResult> {
    const runs: ShardRun[] = [];
    for (const objects of options.shardSizes) {
      for (const by of options.shardBy) {
        const featureGates = shardingGates(by, serverKind, serverName);
        for (const replicas of options.shardReplicas) {
          log(`sharded scale-out: ${objects} objects by ${by} over ${replicas} replica(s)`);
          const server = await startServer(featureGates ? { featureGates } : {});
          try {
            runs.push(
              await runOnce(server, { objects, replicas, by }, options.latencyDurationMs, log),
            );
          } finally {
            await server.stop();
          }
        }
      }
    }
    return report(runs, options.latencyDurationMs);
  },
};

async function runOnce(
  server: BenchServer,
  { objects, replicas, by }: Pick<ShardRun, 'objects' | 'replicas' | 'by'>,
  loadMs: number,
  log: (message: string) => void,
): Promise<ShardRun> {
  const namespaces = shardNamespaces(objects);
  const keys: string[] = [];
  for (const [index, namespace] of namespaces.entries()) {
    // Object i goes to namespace i mod N: the first (objects mod N) namespaces get one more.
    const count =
      Math.floor(objects / namespaces.length) + (index < objects % namespaces.length ? 1 : 0);
    await server.seedConfigMaps(namespace, 'object', count);
    for (let i = 0; i < count; i++) keys.push(`${namespace}/${objectPrefix}${i}`);
  }
  const started = Date.now();
  const fleet: ShardReplica[] = [];
  const http = new RawHttp(server);
  try {
    await http.send('POST', '/api/v1/namespaces', { metadata: { name: leaseNamespace } });
    for (let i = 0; i < replicas; i++) {
      fleet.push(
        await ShardReplica.start({
          url: server.url,
          kubeconfigPath: server.kubeconfigPath,
          leaseNamespace,
          objectPrefix,
          by,
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
    /** Waits until the replicas reconciled `count` objects of `round` (first reconciles). */
    const allReconciled = (round: string, count: number, what: string) =>
      waitUntil(
        async () => (await reconciled(round)) >= count,
        `${what} over ${replicas} replica(s)`,
        deadline(count),
        100,
      );
    // Settled: every object reconciled once and the ring at rest on the full membership: no
    // reassignment is left to happen meanwhile.
    const identities = fleet.map((replica) => replica.identity);
    let mechanism: ShardMechanism | undefined;
    await waitUntil(
      async () => {
        if ((await reconciled(seedRound)) < objects) return false;
        mechanism = await settledBy(http, by, identities, objects);
        return mechanism !== undefined;
      },
      `the ring of ${replicas} replica(s) to assign and reconcile every object`,
      deadline(objects),
      1_000,
    );
    const initialMs = Date.now() - started;

    // The backlog: every object changes at once.
    log(`  ring formed in ${initialMs} ms (${mechanism}); changing all ${objects} objects`);
    const write = (key: string, round: string) => {
      const [namespace, name] = key.split('/') as [string, string];
      return http.send(
        'PATCH',
        `/api/v1/namespaces/${namespace}/configmaps/${name}`,
        {
          metadata: {
            annotations: { [roundAnnotation]: round, [writtenAtAnnotation]: String(Date.now()) },
          },
        },
        'application/merge-patch+json',
      );
    };
    const limit = pLimit(writeConcurrency);
    const backlogCpu = machineCpuTimes();
    const backlogStart = Date.now();
    await Promise.all(keys.map((key) => limit(() => write(key, 'backlog'))));
    const backlogWriteMs = Date.now() - backlogStart;
    await allReconciled('backlog', objects, "every changed object's reconcile");
    const backlogCpuBusy = busyShare(backlogCpu, machineCpuTimes());
    const backlog = await Promise.all(fleet.map((replica) => replica.samples('backlog')));
    const all = backlog.flat();
    const firstWrite = Math.min(...all.map(([, writtenAt]) => writtenAt));
    const lastEnd = Math.max(...all.map(([, , , endedAt]) => endedAt));
    const throughput = (objects * 1000) / (lastEnd - firstWrite);
    const memory = await Promise.all(fleet.map((replica) => replica.memory()));

    // The drain: every object changes again while the replicas hold their reconciles; once
    // every change waits in a queue, all are released at once.
    await Promise.all(fleet.map((replica) => replica.pause()));
    await Promise.all(keys.map((key) => limit(() => write(key, 'drain'))));
    await waitUntil(
      async () =>
        (await Promise.all(fleet.map((replica) => replica.pending()))).reduce((a, b) => a + b, 0) >=
        objects,
      `every change of the drain queued over ${replicas} replica(s)`,
      deadline(objects),
      100,
    );
    const drainCpu = machineCpuTimes();
    const releasedAt = Date.now();
    await Promise.all(fleet.map((replica) => replica.resume()));
    await allReconciled('drain', objects, "every queued change's reconcile");
    const drainCpuBusy = busyShare(drainCpu, machineCpuTimes());
    const drained = (await Promise.all(fleet.map((replica) => replica.samples('drain')))).flat();
    const drainThroughput =
      (objects * 1000) / (Math.max(...drained.map(([, , , endedAt]) => endedAt)) - releasedAt);

    // The steady load, at a share of the replicas' ideal capacity, each write a distinct
    // object (taken across the namespaces, so every replica gets its share).
    const loadRate = (loadShare * replicas * workers * 1000) / shardReconcileMs;
    const loadWrites = Math.max(1, Math.min(objects, Math.round((loadRate * loadMs) / 1000)));
    const loadKeys = acrossNamespaces(keys).slice(0, loadWrites);
    log(`  steady load: ${loadWrites} writes at ${formatNumber(loadRate, 0)}/s`);
    const loadCpu = machineCpuTimes();
    const loadStart = performance.now();
    const sent: Array<Promise<unknown>> = [];
    for (const [i, key] of loadKeys.entries()) {
      const due = loadStart + (i * 1000) / loadRate;
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait);
      sent.push(write(key, 'load'));
    }
    await Promise.all(sent);
    await allReconciled('load', loadWrites, "every steady-load write's reconcile");
    const loadCpuBusy = busyShare(loadCpu, machineCpuTimes());
    const load = (await Promise.all(fleet.map((replica) => replica.samples('load')))).flat();
    return {
      objects,
      replicas,
      by,
      mechanism: mechanism ?? 'labels',
      namespaces: namespaces.length,
      initialMs,
      throughput,
      backlogWriteMs,
      backlogCpuBusy,
      loadCpuBusy,
      drainThroughput,
      drainCpuBusy,
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

/** `namespace/name` keys reordered round-robin over their namespaces. */
function acrossNamespaces(keys: readonly string[]): string[] {
  const byNamespace = new Map<string, string[]>();
  for (const key of keys) {
    const namespace = key.slice(0, key.indexOf('/'));
    const list = byNamespace.get(namespace) ?? [];
    list.push(key);
    byNamespace.set(namespace, list);
  }
  const lists = [...byNamespace.values()];
  const longest = Math.max(0, ...lists.map((list) => list.length));
  const ordered: string[] = [];
  for (let i = 0; i < longest; i++)
    for (const list of lists) if (i < list.length) ordered.push(list[i] as string);
  return ordered;
}

/**
 * How the ring of `identities` shards once it is at rest on them all, or undefined while it is
 * not. Server-side: the ring's assignment Lease names every replica in its active generation
 * and no newer one is pending. Labels: all `objects` measured ConfigMaps carry the shard label
 * the full ring hashes their key to (`namespace/name`, or the namespace by namespace), and none
 * drains.
 */
async function settledBy(
  http: RawHttp,
  by: ShardBy,
  identities: readonly string[],
  objects: number,
): Promise<ShardMechanism | undefined> {
  const leases = JSON.parse(
    (await http.get(`/apis/coordination.k8s.io/v1/namespaces/${leaseNamespace}/leases`)).toString(),
  ) as { items: KubernetesObject[] };
  const lease = leases.items.find((item) => item.metadata?.name === assignmentLeaseName(ring));
  if (lease !== undefined) {
    const assignment = readAssignment(lease);
    const everyone = [...identities].sort().join(',');
    return assignment !== undefined &&
      assignment.active === assignment.generation &&
      [...assignment.activeMembers].sort().join(',') === everyone
      ? 'server-side'
      : undefined;
  }
  const full = new HashRing(identities);
  const list = JSON.parse((await http.get('/api/v1/configmaps')).toString()) as {
    items: KubernetesObject[];
  };
  const items = list.items.filter((item) => item.metadata?.name?.startsWith(objectPrefix));
  const keyOf = (item: KubernetesObject) =>
    by === 'namespace' ? (item.metadata?.namespace ?? '') : shardingKey(item);
  const settled =
    items.length === objects &&
    items.every((item) => {
      const labels = item.metadata?.labels ?? {};
      return (
        labels[drainLabel(ring)] === undefined &&
        labels[shardLabel(ring)] === full.lookup(keyOf(item))
      );
    });
  return settled ? 'labels' : undefined;
}

const mb = (bytes: number) => bytes / 1024 / 1024;
const maxOf = (values: readonly number[]) => Math.max(...values);

/** A run's way of sharding as the tables name it, e.g. `by namespace (server-side)`. */
function wayOf(run: Pick<ShardRun, 'by' | 'mechanism'>): string {
  return `by ${run.by} (${run.mechanism === 'server-side' ? 'server-side shard selectors' : 'shard labels'})`;
}

/** Which throughput of a run: as the backlog was written, or draining a queued backlog. */
type ThroughputOf = 'throughput' | 'drainThroughput';

/** The runs with the fewest and the most replicas among `runs`. */
function extremes(runs: readonly ShardRun[]): { fewest?: ShardRun; most?: ShardRun } {
  const sorted = [...runs].sort((a, b) => a.replicas - b.replicas);
  return { fewest: sorted[0], most: sorted.at(-1) };
}

/**
 * Throughput with the most replicas over the fewest's times the ratio of replicas (1: each
 * replica added adds a whole replica's throughput), among `runs` of one way of sharding.
 */
function scalingEfficiency(runs: readonly ShardRun[], of: ThroughputOf): number {
  const { fewest, most } = extremes(runs);
  return fewest && most
    ? ratio(most[of], (most.replicas / fewest.replicas) * fewest[of])
    : Number.NaN;
}

/**
 * Issue #35's four goals over the runs of one way of sharding at one size. Scaling is judged
 * on the drain of a queued backlog, what the replicas can do; the backlog as written is bound
 * by the rate its writes reach the server, which one machine running the server, the writer
 * and the replicas sets (printed beside it).
 */
function goalsOf(way: string, size: string, runs: readonly ShardRun[]): TargetCheck[] {
  const { fewest, most } = extremes(runs);
  const three = runs.find((run) => run.replicas === 3);
  const efficiency = scalingEfficiency(runs, 'drainThroughput');
  const worstQueueWait = maxOf(runs.map((run) => run.queueWaitP99Ms));
  const worstReconcile = maxOf(runs.map((run) => run.reconcileP99Ms));
  const memoryShare =
    fewest && three ? ratio(maxOf(three.heapUsed), maxOf(fewest.heapUsed)) : Number.NaN;
  return [
    {
      target: `${way}: scaling efficiency from ${fewest?.replicas} to ${most?.replicas} replicas ≥ ${goals.efficiency}, draining a queued backlog (${size} objects)`,
      measured: `${formatNumber(efficiency, 2)} (${formatNumber(fewest?.drainThroughput ?? Number.NaN, 0)} → ${formatNumber(most?.drainThroughput ?? Number.NaN, 0)} objects/s; as written ${formatNumber(scalingEfficiency(runs, 'throughput'), 2)})`,
      met: efficiency >= goals.efficiency,
    },
    {
      target: `${way}: p99 queue wait ≤ 1 s at ${size} objects (every replica count)`,
      measured: `${formatNumber(worstQueueWait, 0)} ms (worst)`,
      met: worstQueueWait <= goals.queueWaitP99Ms,
    },
    {
      target: `${way}: p99 reconcile ≤ 5 s at ${size} objects (every replica count)`,
      measured: `${formatNumber(worstReconcile, 0)} ms (worst)`,
      met: worstReconcile <= goals.reconcileP99Ms,
    },
    {
      target: `${way}: heap per replica with 3 replicas ≤ ${goals.memoryShareAt3}× the single replica's (${size} objects)`,
      measured: `${formatRatio(memoryShare)} (${formatNumber(mb(maxOf(three?.heapUsed ?? [Number.NaN])), 1)} MB against ${formatNumber(mb(maxOf(fewest?.heapUsed ?? [Number.NaN])), 1)} MB)`,
      met: memoryShare <= goals.memoryShareAt3,
    },
  ];
}

function report(runs: ShardRun[], loadMs: number): BenchmarkResult {
  const largest = Math.max(...runs.map((run) => run.objects));
  const atLargest = runs.filter((run) => run.objects === largest);
  const ways = [...new Set(atLargest.map(wayOf))];
  const size = formatNumber(largest, 0);
  const metrics: Metric[] = runs.flatMap((run) => {
    const label = `${formatNumber(run.objects, 0)} objects ${wayOf(run)}, ${run.replicas} replica(s)`;
    return [
      {
        name: `${label}: throughput, backlog as written`,
        value: run.throughput,
        unit: 'objects/s',
      },
      {
        name: `${label}: backlog writes sent and answered`,
        value: (run.objects * 1000) / run.backlogWriteMs,
        unit: 'writes/s',
      },
      { name: `${label}: machine CPU busy, backlog`, value: run.backlogCpuBusy * 100, unit: '%' },
      {
        name: `${label}: throughput, draining a queued backlog`,
        value: run.drainThroughput,
        unit: 'objects/s',
      },
      { name: `${label}: machine CPU busy, drain`, value: run.drainCpuBusy * 100, unit: '%' },
      { name: `${label}: machine CPU busy, steady load`, value: run.loadCpuBusy * 100, unit: '%' },
      { name: `${label}: p99 queue wait`, value: run.queueWaitP99Ms, unit: 'ms' },
      { name: `${label}: p99 reconcile`, value: run.reconcileP99Ms, unit: 'ms' },
      { name: `${label}: heap per replica (max)`, value: mb(maxOf(run.heapUsed)), unit: 'MB' },
      { name: `${label}: RSS per replica (max)`, value: mb(maxOf(run.rss)), unit: 'MB' },
      { name: `${label}: ring formed, all reconciled once`, value: run.initialMs, unit: 'ms' },
    ];
  });
  for (const way of ways) {
    const of = atLargest.filter((run) => wayOf(run) === way);
    const { fewest, most } = extremes(of);
    const span = `${fewest?.replicas} → ${most?.replicas} replicas`;
    metrics.push(
      {
        name: `${way}: scaling efficiency ${span}, draining a queued backlog`,
        value: scalingEfficiency(of, 'drainThroughput'),
        unit: '×',
      },
      {
        name: `${way}: scaling efficiency ${span}, backlog as written`,
        value: scalingEfficiency(of, 'throughput'),
        unit: '×',
      },
    );
  }
  // By namespace against by name, replica count by replica count, in this run.
  const byName = atLargest.filter((run) => run.by === 'name');
  for (const run of atLargest.filter((entry) => entry.by === 'namespace')) {
    const twin = byName.find((entry) => entry.replicas === run.replicas);
    if (twin === undefined) continue;
    metrics.push({
      name: `${wayOf(run)} / ${wayOf(twin)}, ${run.replicas} replica(s): drain throughput`,
      value: ratio(run.drainThroughput, twin.drainThroughput),
      unit: '×',
    });
  }
  return {
    id: shardedScaleOutBenchmark.id,
    title: shardedScaleOutBenchmark.title,
    metrics,
    targets: ways.flatMap((way) =>
      goalsOf(
        way,
        size,
        atLargest.filter((run) => wayOf(run) === way),
      ),
    ),
    charts: [
      {
        title: `Objects reconciled per second draining a queued backlog, ${size} objects (higher is better)`,
        unit: 'objects/s',
        bars: atLargest.map((run) => ({
          label: `${wayOf(run)}, ${run.replicas} replica(s)`,
          value: run.drainThroughput,
        })),
      },
      {
        title: `Heap per replica after a full collection, ${size} objects (MB; lower is better)`,
        unit: 'MB',
        bars: atLargest.map((run) => ({
          label: `${wayOf(run)}, ${run.replicas} replica(s)`,
          value: mb(maxOf(run.heapUsed)),
        })),
      },
    ],
    notes: [
      `Each replica is a process of its own running a Manager whose one controller (${workers} workers, sharded in one ring, Lease duration ${timing.leaseDurationMs} ms) reconciles ConfigMaps in every namespace: a cache read, then ${shardReconcileMs} ms of waiting, standing for an external call, so one replica's ideal capacity is ${(workers * 1000) / shardReconcileMs} objects/s.`,
      `The objects are spread evenly over ${shardNamespaces(largest).length} namespaces at ${size} objects (one per ten objects, at most ${maxNamespaces}), and each run has a fresh server. By name, the sharder labels every object with its replica; by namespace, kube-apiserver 1.36+ with ShardedListAndWatch (turned on for these runs) filters each replica's list and watch to its hash ranges and no object is written, while the local server and older releases fall back to labels keyed by namespace. Namespaces, not objects, are then the unit of balance.`,
      `Throughput, backlog as written: every object is changed at once (merge patches, ${writeConcurrency} in flight) once the ring has formed and reconciled each object; from the first write to the end of the last reconcile. Draining a queued backlog: every object is changed again while the replicas hold their reconciles at the start; once every change waits in a queue (the controllers' workqueue_depth plus the held ones), all are released at once; from the release to the end of the last reconcile. The scaling goal is judged on the drain. Queue wait and reconcile p99: a steady load of distinct objects, round-robin over the namespaces, at ${loadShare * 100} % of the replicas' ideal capacity for ${loadMs} ms; the queue wait runs from the write to the reconcile's start, so it includes the watch's delivery. Heap: each replica's after a full collection, after the backlog (the highest of the replicas).`,
      'Replicas of one run share the machine, and so its cores, with the API server and the bench: with fewer cores than replicas the throughput of many replicas is bound by the CPU rather than by the reconciles. "Machine CPU busy" is the share of all cores busy during the phase (/proc/stat, whatever ran), and "backlog writes" the rate at which the backlog reached the server, which bounds the throughput.',
    ],
    samples: { runs },
  };
}
