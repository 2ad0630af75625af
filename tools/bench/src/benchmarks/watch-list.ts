import type {
  BenchContext,
  BenchmarkModule,
  BenchmarkResult,
  Metric,
  TargetCheck,
} from '../benchmark.js';
import type { BenchServer } from '../harness/bench-server.js';
import { formatNumber, formatRatio } from '../harness/format.js';
import type { ObjectShape } from '../harness/object-shapes.js';
import { processCpuMs } from '../harness/process-cpu.js';
import { MemorySampler, type MemorySpan } from '../harness/process-memory.js';
import { median, ratio } from '../harness/stats.js';
import type { SyncContender } from '../harness/sync-protocol.js';
import { syncRounds } from '../harness/sync-rounds.js';
import { cellName, contenderLabels } from './sync-cell-report.js';

const namespace = 'watch-list';

/** The contenders, in the order reports list them. */
const contenders: readonly SyncContender[] = [
  'bare-watch-list',
  'bare-http',
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
  /** The API server's CPU time over the run (every thread), in ms. */
  serverCpuMs: number[];
}

const emptyRuns = (): Runs => ({
  ms: [],
  cpuMs: [],
  heap: [],
  bytesRead: [],
  serverGrowth: [],
  serverPeak: [],
  serverCpuMs: [],
});

/** The shapes this benchmark measures: issue #33's Pods and Helm-shaped ConfigMaps. */
const measuredShapes: readonly ObjectShape[] = ['pods', 'configmaps'];

/** One shape at one size, and its contenders' runs. */
interface Cell {
  shape: ObjectShape;
  size: number;
  samples: Map<SyncContender, Runs>;
  failed: Map<SyncContender, string>;
}

/**
 * Runs every contender `runs` times over the `cell.size` objects `server` holds in
 * {@link namespace}, each in a fresh process, orders alternating, the server's garbage
 * collected and its memory sampled around each run.
 */
async function measureCell(
  server: BenchServer,
  cell: Cell,
  runs: number,
  log: (line: string) => void,
): Promise<void> {
  // The server's memory over the sync just recorded (undefined where it is not a process of its own).
  let memory: MemorySpan | undefined;
  let serverCpu: number | undefined;
  await syncRounds({
    server,
    contenders,
    rounds: runs,
    namespace,
    shape: cell.shape,
    expected: cell.size,
    name: cellName({ ...cell, others: 0 }),
    failed: cell.failed,
    log,
    around: async (sync) => {
      const sampler = MemorySampler.start(server.apiServerPid);
      const cpuBefore = processCpuMs(server.apiServerPid);
      try {
        return await sync();
      } finally {
        memory = sampler?.stop();
        const cpuAfter = processCpuMs(server.apiServerPid);
        serverCpu =
          cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
      }
    },
    record: (contender, outcome) => {
      const runsOf = cell.samples.get(contender) ?? emptyRuns();
      cell.samples.set(contender, runsOf);
      runsOf.ms.push(outcome.ms);
      runsOf.cpuMs.push(outcome.cpuMs);
      runsOf.heap.push(outcome.heapPerObject);
      if (outcome.bytesRead !== undefined) runsOf.bytesRead.push(outcome.bytesRead);
      if (serverCpu !== undefined) runsOf.serverCpuMs.push(serverCpu);
      if (memory !== undefined) {
        runsOf.serverGrowth.push(memory.peakBytes - memory.baselineBytes);
        runsOf.serverPeak.push(memory.peakBytes);
      }
    },
  });
}

/** The figures, goals and chart of one cell; each name starts with the cell's. */
function cellReport(cell: Cell): Pick<BenchmarkResult, 'metrics' | 'targets' | 'charts' | 'notes'> {
  const name = cellName({ ...cell, others: 0 });
  const med = (id: SyncContender, field: keyof Runs): number => {
    const values = cell.samples.get(id)?.[field] ?? [];
    return values.length === 0 ? Number.NaN : median(values);
  };
  const metrics: Metric[] = [];
  const notes: string[] = [];
  for (const id of contenders) {
    const label = `${name}: ${contenderLabels[id]}`;
    if (cell.failed.has(id)) {
      notes.push(`${label}: not measured (${cell.failed.get(id)}).`);
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
      metrics.push({ name: `${label}: API server memory growth`, value: growth / 1e6, unit: 'MB' });
      metrics.push({
        name: `${label}: API server memory peak`,
        value: med(id, 'serverPeak') / 1e6,
        unit: 'MB',
      });
    }
    const serverCpuMs = med(id, 'serverCpuMs');
    if (Number.isFinite(serverCpuMs))
      metrics.push({ name: `${label}: API server CPU`, value: serverCpuMs, unit: 'ms' });
  }
  // The goals compare ops as a user gets it here: its defaults on a loopback server,
  // WatchList without gzip (the bench's servers are on loopback).
  const ops: SyncContender = 'ops-watch-list';
  const versus = (id: SyncContender, field: keyof Runs, of: SyncContender) =>
    ratio(med(id, field), med(of, field));
  for (const [label, value] of [
    ['gzip / plain, WatchList (time)', versus('ops-watch-list-gzip', 'ms', 'ops-watch-list')],
    ['gzip / plain, paged LIST (time)', versus('ops-list-gzip', 'ms', 'ops-list')],
    ['gzip / plain, WatchList (CPU)', versus('ops-watch-list-gzip', 'cpuMs', 'ops-watch-list')],
    ['gzip / plain, paged LIST (CPU)', versus('ops-list-gzip', 'cpuMs', 'ops-list')],
    ['gzip / plain, paged LIST (bytes read)', versus('ops-list-gzip', 'bytesRead', 'ops-list')],
    ['WatchList / paged LIST (time)', versus('ops-watch-list', 'ms', 'ops-list')],
    ['floor: bare WatchList / bare GET (time)', versus('bare-watch-list', 'ms', 'bare-http')],
    [
      'API server CPU, bare WatchList / bare GET',
      versus('bare-watch-list', 'serverCpuMs', 'bare-http'),
    ],
    ['API server CPU, ops WatchList / ops paged LIST', versus(ops, 'serverCpuMs', 'ops-list')],
    ['ops WatchList / bare WatchList (time)', versus(ops, 'ms', 'bare-watch-list')],
  ] as const)
    if (Number.isFinite(value)) metrics.push({ name: `${name}: ${label}`, value, unit: '×' });

  const faster = (peer: SyncContender) => ratio(med(peer, 'ms'), med(ops, 'ms'));
  const memoryRatio = versus(ops, 'serverGrowth', 'ops-list');
  const cpuRatio = versus(ops, 'cpuMs', 'client-node');
  const heapRatio = versus(ops, 'heap', 'client-node');
  const targets: TargetCheck[] = [
    {
      target: `${name}: ops (WatchList) cold sync at least 1.3× faster than client-node`,
      measured: `${formatRatio(faster('client-node'))} faster`,
      met: faster('client-node') >= 1.3,
    },
    {
      target: `${name}: ops (WatchList) cold sync at least 1.1× faster than fluent`,
      measured: `${formatRatio(faster('fluent'))} faster`,
      met: faster('fluent') >= 1.1,
    },
    {
      target: `${name}: ops CPU at most 0.8× client-node's`,
      measured: formatRatio(cpuRatio),
      met: cpuRatio <= 0.8,
    },
    {
      target: `${name}: ops heap per cached object at most 0.6× client-node's`,
      measured: formatRatio(heapRatio),
      met: heapRatio <= 0.6,
    },
    {
      target: `${name}: API server memory growth during ops' WatchList at most 0.5× its growth during a paged LIST`,
      measured: Number.isFinite(memoryRatio)
        ? `${formatRatio(memoryRatio)} (${formatNumber(med(ops, 'serverGrowth') / 1e6)} vs ${formatNumber(med('ops-list', 'serverGrowth') / 1e6)} MB)`
        : 'not measured (no API server process of its own)',
      met: memoryRatio <= 0.5,
    },
  ];
  const charts = [
    {
      title: `Cold sync, ${name}, fresh processes (median ms; lower is better)`,
      unit: 'ms',
      bars: contenders
        .filter((id) => !cell.failed.has(id))
        .map((id) => ({ label: contenderLabels[id], value: med(id, 'ms') })),
    },
  ];
  return { metrics, targets, charts, notes };
}

/**
 * Cold sync by WatchList against paged LIST and the peers, for Pods and Helm-shaped
 * ConfigMaps (of `--shapes`) at each size of `--sizes`: each contender in a fresh process
 * per run (orders alternate between runs), the API server collected before each. Per run:
 * wall time, the process's CPU, heap per cached object, bytes it read, and the API server's
 * resident memory sampled during the sync (kube-apiserver on `--server real`; the local
 * server is not measured apart). Each shape gets a fresh server whose namespace grows
 * through the sizes.
 */
export const watchListBenchmark: BenchmarkModule = {
  id: 'watch-list',
  title: 'WatchList cold sync',
  description:
    'Cold sync of Pods and Helm ConfigMaps at each size, fresh process each: @ops/core by WatchList and by paged LIST (each with and without gzip), client-node, fluent; wall time, CPU, heap per object, bytes read, API server memory peak.',
  async run({ options, startServer, serverName, log }: BenchContext): Promise<BenchmarkResult> {
    const runs = Math.max(1, options.shapeRepeats);
    const sizes = [...options.shapeSizes].sort((a, b) => a - b);
    const shapes = measuredShapes.filter((shape) => options.shapes.includes(shape));
    const result: BenchmarkResult = {
      id: this.id,
      title: this.title,
      metrics: [],
      targets: [],
      charts: [],
      notes: [
        `Each cell: its objects from ${serverName}; each contender in a fresh Node.js process per run, ${runs} run(s) each, medians; the API server's garbage collected before each run.`,
        'Bytes read: rchar of the child process over the sync (every thread, sockets included): what came over the wire, gzipped or not.',
        'API server memory: its resident set sampled every 20 ms and through the kernel high-water mark (reset before each run); growth is the peak minus what it held when the run started.',
        "Goals compare @ops/core with its defaults on a loopback server (WatchList, no gzip: its transport's compression 'auto') to the peers (which ask for gzip; kube-apiserver gzips their list pages, not their watches), and its WatchList to its paged LIST, both without gzip.",
        "The floors: 'bare WatchList + JSON.parse' reads the WatchList stream over node:http and parses each line into a Map, no library and no gzip; 'bare GET + JSON.parse' is one unpaged LIST. Their ratio, and the API server's CPU under each (its process's user + system time over the run, every thread, at 10 ms resolution), say what the server's way of serving costs before any client does anything.",
      ],
      samples: {},
    };
    const samples = result.samples;
    for (const shape of shapes) {
      const server = await startServer();
      try {
        let seeded = 0;
        for (const size of sizes) {
          const cell: Cell = { shape, size, samples: new Map(), failed: new Map() };
          const name = cellName({ ...cell, others: 0 });
          log(`${name}: seeding`);
          await server.seedShape(shape, namespace, seeded, size - seeded);
          seeded = size;
          await measureCell(server, cell, runs, log);
          const report = cellReport(cell);
          result.metrics.push(...report.metrics);
          result.targets.push(...report.targets);
          result.charts.push(...report.charts);
          result.notes.push(...report.notes);
          samples[name] = {
            runs: Object.fromEntries(cell.samples),
            failed: Object.fromEntries(cell.failed),
          };
        }
      } finally {
        await server.stop();
      }
    }
    return result;
  },
};
