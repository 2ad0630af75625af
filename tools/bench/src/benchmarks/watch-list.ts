import type {
  BenchContext,
  BenchmarkModule,
  BenchmarkResult,
  Metric,
  TargetCheck,
} from '../benchmark.js';
import { formatNumber, formatRatio } from '../harness/format.js';
import { syncInFreshProcess } from '../harness/fresh-process-sync.js';
import { MemorySampler } from '../harness/process-memory.js';
import { median, ratio } from '../harness/stats.js';
import type { SyncContender } from '../harness/sync-protocol.js';
import { contenderLabels } from './sync-cell-report.js';

const namespace = 'watch-list';

/** The contenders, in the order reports list them. */
const contenders: readonly SyncContender[] = [
  'ops-watch-list',
  'ops-list',
  'ops-watch-list-gzip',
  'ops-list-gzip',
  'client-node',
  'fluent',
];

/** The figures of one contender's runs. */
interface Runs {
  ms: number[];
  cpuMs: number[];
  heap: number[];
  bytesRead: number[];
  /** The API server's resident memory: peak during the run minus what it held before. */
  serverGrowth: number[];
  serverPeak: number[];
}

const emptyRuns = (): Runs => ({
  ms: [],
  cpuMs: [],
  heap: [],
  bytesRead: [],
  serverGrowth: [],
  serverPeak: [],
});

/**
 * Cold sync by WatchList against paged LIST and the peers: N Pods, each contender in a
 * fresh process per run (orders alternate between runs), the API server collected before
 * each. Per run: wall time, the process's CPU, heap per cached object, bytes it read, and
 * the API server's resident memory sampled during the sync (kube-apiserver on `--server
 * real`; the local server is not measured apart).
 */
export const watchListBenchmark: BenchmarkModule = {
  id: 'watch-list',
  title: 'WatchList cold sync',
  description:
    'Cold sync of N Pods, fresh process each: @ops/core by WatchList and by paged LIST (each with and without gzip), client-node, fluent; wall time, CPU, heap per object, bytes read, API server memory peak.',
  async run({ options, startServer, serverName, log }: BenchContext): Promise<BenchmarkResult> {
    const objects = options.objects;
    const runs = Math.max(1, options.shapeRepeats);
    const server = await startServer();
    log(`seeding ${objects} Pods`);
    await server.seedPods(namespace, objects);
    const samples = new Map<SyncContender, Runs>(contenders.map((id) => [id, emptyRuns()]));
    const failed = new Map<SyncContender, string>();
    for (let round = 0; round < runs; round++) {
      const order = round % 2 === 0 ? contenders : [...contenders].reverse();
      for (const contender of order) {
        if (failed.has(contender)) continue;
        await server.collectGarbage();
        const sampler = MemorySampler.start(server.apiServerPid);
        try {
          const outcome = await syncInFreshProcess({
            contender,
            url: server.url,
            kubeconfigPath: server.kubeconfigPath,
            namespace,
            plural: 'pods',
            expected: objects,
          });
          const memory = sampler?.stop();
          const runsOf = samples.get(contender) ?? emptyRuns();
          runsOf.ms.push(outcome.ms);
          runsOf.cpuMs.push(outcome.cpuMs);
          runsOf.heap.push(outcome.heapPerObject);
          if (outcome.bytesRead !== undefined) runsOf.bytesRead.push(outcome.bytesRead);
          if (memory !== undefined) {
            runsOf.serverGrowth.push(memory.peakBytes - memory.baselineBytes);
            runsOf.serverPeak.push(memory.peakBytes);
          }
        } catch (error) {
          sampler?.stop();
          failed.set(contender, (error as Error).message);
          log(`${contender} failed: ${(error as Error).message}`);
        }
      }
      log(`round ${round + 1}/${runs} done`);
    }
    await server.stop();

    const med = (id: SyncContender, field: keyof Runs): number => {
      const values = samples.get(id)?.[field] ?? [];
      return values.length === 0 ? Number.NaN : median(values);
    };
    const metrics: Metric[] = [];
    const notes: string[] = [
      `${objects} Pods from ${serverName}; each contender in a fresh Node.js process per run, ${runs} run(s) each, medians; the API server's garbage collected before each run.`,
      'Bytes read: rchar of the child process over the sync (every thread, sockets included): what came over the wire, gzipped or not.',
      'API server memory: its resident set sampled every 20 ms and through the kernel high-water mark (reset before each run); growth is the peak minus what it held when the run started.',
      'Goals compare @ops/core with its defaults (WatchList, gzip) to the peers (which ask for gzip too), and its WatchList to its paged LIST, both with gzip.',
    ];
    for (const id of contenders) {
      const label = contenderLabels[id];
      if (failed.has(id)) {
        notes.push(`${label}: not measured (${failed.get(id)}).`);
        continue;
      }
      metrics.push({ name: `${label}: median`, value: med(id, 'ms'), unit: 'ms' });
      metrics.push({ name: `${label}: CPU`, value: med(id, 'cpuMs'), unit: 'ms' });
      metrics.push({ name: `${label}: heap per object`, value: med(id, 'heap'), unit: 'B/object' });
      const read = med(id, 'bytesRead');
      if (Number.isFinite(read))
        metrics.push({ name: `${label}: bytes read`, value: read / 1e6, unit: 'MB' });
      const growth = med(id, 'serverGrowth');
      if (Number.isFinite(growth)) {
        metrics.push({
          name: `${label}: API server memory growth`,
          value: growth / 1e6,
          unit: 'MB',
        });
        metrics.push({
          name: `${label}: API server memory peak`,
          value: med(id, 'serverPeak') / 1e6,
          unit: 'MB',
        });
      }
    }
    // The goals compare ops as a user gets it: its defaults, WatchList with gzip.
    const ops: SyncContender = 'ops-watch-list-gzip';
    const watchList = med(ops, 'ms');
    const versus = (id: SyncContender, field: keyof Runs, of: SyncContender) =>
      ratio(med(id, field), med(of, field));
    for (const [name, value] of [
      ['gzip / plain, WatchList (time)', versus('ops-watch-list-gzip', 'ms', 'ops-watch-list')],
      ['gzip / plain, paged LIST (time)', versus('ops-list-gzip', 'ms', 'ops-list')],
      ['gzip / plain, WatchList (CPU)', versus('ops-watch-list-gzip', 'cpuMs', 'ops-watch-list')],
      ['gzip / plain, paged LIST (CPU)', versus('ops-list-gzip', 'cpuMs', 'ops-list')],
      ['gzip / plain, paged LIST (bytes read)', versus('ops-list-gzip', 'bytesRead', 'ops-list')],
      ['WatchList / paged LIST (time)', versus('ops-watch-list', 'ms', 'ops-list')],
    ] as const)
      if (Number.isFinite(value)) metrics.push({ name, value, unit: '×' });

    const faster = (peer: SyncContender) => ratio(med(peer, 'ms'), watchList);
    const memoryRatio = versus(ops, 'serverGrowth', 'ops-list-gzip');
    const cpuRatio = versus(ops, 'cpuMs', 'client-node');
    const heapRatio = versus(ops, 'heap', 'client-node');
    const targets: TargetCheck[] = [
      {
        target: 'ops (WatchList) cold sync at least 1.3× faster than client-node',
        measured: `${formatRatio(faster('client-node'))} faster`,
        met: faster('client-node') >= 1.3,
      },
      {
        target: 'ops (WatchList) cold sync at least 1.1× faster than fluent',
        measured: `${formatRatio(faster('fluent'))} faster`,
        met: faster('fluent') >= 1.1,
      },
      {
        target: "ops CPU at most 0.8× client-node's",
        measured: formatRatio(cpuRatio),
        met: cpuRatio <= 0.8,
      },
      {
        target: "ops heap per cached object at most 0.6× client-node's",
        measured: formatRatio(heapRatio),
        met: heapRatio <= 0.6,
      },
      {
        target:
          "API server memory growth during ops' WatchList at most 0.5× its growth during a paged LIST",
        measured: Number.isFinite(memoryRatio)
          ? `${formatRatio(memoryRatio)} (${formatNumber(med(ops, 'serverGrowth') / 1e6)} vs ${formatNumber(med('ops-list-gzip', 'serverGrowth') / 1e6)} MB)`
          : 'not measured (no API server process of its own)',
        met: memoryRatio <= 0.5,
      },
    ];
    return {
      id: this.id,
      title: this.title,
      metrics,
      targets,
      charts: [
        {
          title: `Cold sync of ${objects} Pods, fresh processes (median ms; lower is better)`,
          unit: 'ms',
          bars: contenders
            .filter((id) => !failed.has(id))
            .map((id) => ({ label: contenderLabels[id], value: med(id, 'ms') })),
        },
      ],
      notes,
      samples: {
        runs: Object.fromEntries(samples),
        failed: Object.fromEntries(failed),
      },
    };
  },
};
