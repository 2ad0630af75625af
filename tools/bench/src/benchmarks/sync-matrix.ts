import { defaultInformerPageSize } from '@ops/core/cache';
import type {
  BenchContext,
  BenchmarkModule,
  BenchmarkResult,
  Metric,
  TargetCheck,
} from '../benchmark.js';
import type { BenchServer } from '../harness/bench-server.js';
import { formatNumber, formatRatio } from '../harness/format.js';
import { syncInFreshProcess } from '../harness/fresh-process-sync.js';
import { type ObjectShape, shapePlural } from '../harness/object-shapes.js';
import { addSample, median, ratio } from '../harness/stats.js';
import { type SyncContender, syncContenders } from '../harness/sync-protocol.js';
import { warmServerLists } from '../harness/warm-server-lists.js';

const namespace = 'bench';
/** Sorts after `bench`, so its objects follow every cursor of the measured namespace. */
const otherNamespace = 'elsewhere';

const contenderLabels: Record<SyncContender, string> = {
  floor: 'floor: JSON.parse',
  'bare-http': 'bare GET + JSON.parse',
  ops: '@ops/core Informer',
  'ops-one-page': '@ops/core, one page',
  'client-node': 'client-node informer',
  fluent: 'fluent Watch',
};

const shapeLabels: Record<ObjectShape, string> = {
  pods: 'Pods',
  configmaps: 'Helm ConfigMaps',
  'managed-fields': 'ConfigMaps with managedFields',
};

/** The medians of one cell of the matrix: a shape, a size, and the objects elsewhere. */
interface Cell {
  shape: ObjectShape;
  size: number;
  others: number;
  ms: Map<SyncContender, number>;
  heap: Map<SyncContender, number>;
  /** Median CPU time (user + system) of the contender's process over the sync, in ms. */
  cpuMs: Map<SyncContender, number>;
  failed: Map<SyncContender, string>;
}

const cellName = (cell: Pick<Cell, 'shape' | 'size' | 'others'>) =>
  `${shapeLabels[cell.shape]}, ${formatNumber(cell.size, 0)}${cell.others > 0 ? `, ${formatNumber(cell.others, 0)} elsewhere` : ''}`;

/**
 * Measures one cell: every contender `repeats` times, each time in a fresh process, in
 * alternating order, the server's garbage collected before each run and its LIST paths
 * warmed once before the first (see {@link warmServerLists}).
 */
async function measureCell(
  server: BenchServer,
  cell: Cell,
  repeats: number,
  log: (message: string) => void,
): Promise<Record<string, { ms: number[]; heap: number[]; cpuMs: number[] }>> {
  const samples: Record<string, { ms: number[]; heap: number[]; cpuMs: number[] }> = {};
  const ms: Record<string, number[]> = {};
  const heap: Record<string, number[]> = {};
  const cpuMs: Record<string, number[]> = {};
  await warmServerLists(
    server,
    `/api/v1/namespaces/${namespace}/${shapePlural(cell.shape)}`,
    defaultInformerPageSize,
  );
  for (let round = 0; round < repeats; round++) {
    const order = round % 2 === 0 ? syncContenders : [...syncContenders].reverse();
    for (const contender of order) {
      if (cell.failed.has(contender)) continue;
      await server.collectGarbage();
      try {
        const outcome = await syncInFreshProcess({
          contender,
          url: server.url,
          kubeconfigPath: server.kubeconfigPath,
          namespace,
          plural: shapePlural(cell.shape),
          expected: cell.size,
        });
        addSample(ms, contender, outcome.ms);
        addSample(heap, contender, outcome.heapPerObject);
        addSample(cpuMs, contender, outcome.cpuMs);
        const entry = samples[contender] ?? { ms: [], heap: [], cpuMs: [] };
        samples[contender] = entry;
        entry.ms.push(outcome.ms);
        entry.heap.push(outcome.heapPerObject);
        entry.cpuMs.push(outcome.cpuMs);
      } catch (error) {
        cell.failed.set(contender, (error as Error).message.split('\n')[0] ?? 'failed');
        log(`${cellName(cell)}: ${contender} failed: ${(error as Error).message}`);
      }
    }
    log(`${cellName(cell)}: round ${round + 1}/${repeats} done`);
  }
  for (const contender of syncContenders) {
    if (ms[contender] !== undefined) cell.ms.set(contender, median(ms[contender]));
    if (heap[contender] !== undefined) cell.heap.set(contender, median(heap[contender]));
    if (cpuMs[contender] !== undefined) cell.cpuMs.set(contender, median(cpuMs[contender]));
  }
  return samples;
}

/** The figures and goals of one cell. */
function cellReport(cell: Cell): { metrics: Metric[]; targets: TargetCheck[] } {
  const name = cellName(cell);
  const metrics: Metric[] = [];
  const ms = (id: SyncContender) => cell.ms.get(id) ?? Number.NaN;
  const heap = (id: SyncContender) => cell.heap.get(id) ?? Number.NaN;
  for (const contender of syncContenders) {
    const value = cell.ms.get(contender);
    if (value !== undefined)
      metrics.push({ name: `${name}: ${contenderLabels[contender]}`, value, unit: 'ms' });
  }
  const ratios: Array<[string, number]> = [
    ['ops / floor', ratio(ms('ops'), ms('floor'))],
    ['ops / bare GET + JSON.parse', ratio(ms('ops'), ms('bare-http'))],
    ['client-node / ops', ratio(ms('client-node'), ms('ops'))],
    ['fluent / ops', ratio(ms('fluent'), ms('ops'))],
    ['ops default paging / one page', ratio(ms('ops'), ms('ops-one-page'))],
  ];
  for (const [label, value] of ratios)
    metrics.push({ name: `${name}: ${label}`, value, unit: '×' });
  // CPU of the syncing process: what the library itself costs, apart from waiting for the server.
  const cpu = (id: SyncContender) => cell.cpuMs.get(id) ?? Number.NaN;
  // Every contender but the floor, whose process also fetched the list untimed.
  for (const contender of syncContenders.filter((id) => id !== 'floor')) {
    const value = cell.cpuMs.get(contender);
    if (value !== undefined)
      metrics.push({ name: `${name}: CPU, ${contenderLabels[contender]}`, value, unit: 'ms' });
  }
  metrics.push({
    name: `${name}: CPU ops / bare GET + JSON.parse`,
    value: ratio(cpu('ops'), cpu('bare-http')),
    unit: '×',
  });
  for (const contender of ['ops', 'client-node', 'floor'] as const) {
    const value = cell.heap.get(contender);
    if (value !== undefined)
      metrics.push({
        name: `${name}: heap per object, ${contenderLabels[contender]}`,
        value,
        unit: 'B/object',
      });
  }
  const heapToClientNode = ratio(heap('ops'), heap('client-node'));
  const heapToFloor = ratio(heap('ops'), heap('floor'));
  metrics.push({ name: `${name}: heap ops / client-node`, value: heapToClientNode, unit: '×' });
  metrics.push({ name: `${name}: heap ops / floor`, value: heapToFloor, unit: '×' });

  const opsToBare = ratio(ms('ops'), ms('bare-http'));
  const clientNodeToOps = ratio(ms('client-node'), ms('ops'));
  const fluentToOps = ratio(ms('fluent'), ms('ops'));
  const pagingToOnePage = ratio(ms('ops'), ms('ops-one-page'));
  const targets: TargetCheck[] = [
    {
      target: `${name}: cold sync ops ≤ 1.15× bare GET + JSON.parse`,
      measured: formatRatio(opsToBare),
      met: opsToBare <= 1.15,
    },
    {
      target: `${name}: client-node ≥ 1.3× ops`,
      measured: formatRatio(clientNodeToOps),
      met: clientNodeToOps >= 1.3,
    },
    {
      target: `${name}: fluent ≥ 1.1× ops`,
      measured: formatRatio(fluentToOps),
      met: fluentToOps >= 1.1,
    },
    {
      target: `${name}: default paging ≤ 1.02× one page`,
      measured: formatRatio(pagingToOnePage),
      met: pagingToOnePage <= 1.02,
    },
    {
      target: `${name}: heap per object ops ≤ JSON.parse floor`,
      measured: formatRatio(heapToFloor),
      met: heapToFloor <= 1,
    },
  ];
  if (cell.shape === 'managed-fields')
    targets.push({
      target: `${name}: heap per object ops ≤ 0.6× client-node`,
      measured: formatRatio(heapToClientNode),
      met: heapToClientNode <= 0.6,
    });
  for (const [contender, error] of cell.failed)
    targets.push({
      target: `${name}: ${contenderLabels[contender]} measured`,
      measured: error,
      met: false,
    });
  return { metrics, targets };
}

/** Time and heap per object at the largest size over the smallest, for one shape and `others`. */
function scalingReport(cells: Cell[]): { metrics: Metric[]; targets: TargetCheck[] } {
  const first = cells[0];
  const last = cells[cells.length - 1];
  if (first === undefined || last === undefined || first === last)
    return { metrics: [], targets: [] };
  const perObject = (cell: Cell, value: number | undefined) =>
    value === undefined ? Number.NaN : value / cell.size;
  const time = ratio(perObject(last, last.ms.get('ops')), perObject(first, first.ms.get('ops')));
  const heap = ratio(last.heap.get('ops') ?? Number.NaN, first.heap.get('ops') ?? Number.NaN);
  const name = `${shapeLabels[first.shape]}${first.others > 0 ? `, ${formatNumber(first.others, 0)} elsewhere` : ''}`;
  const span = `${formatNumber(last.size, 0)} / ${formatNumber(first.size, 0)}`;
  return {
    metrics: [
      { name: `${name}: ops time per object, ${span}`, value: time, unit: '×' },
      { name: `${name}: ops heap per object, ${span}`, value: heap, unit: '×' },
    ],
    targets: [
      {
        target: `${name}: ops time per object at ${span} ≤ 1.2×`,
        measured: formatRatio(time),
        met: time <= 1.2,
      },
      {
        target: `${name}: ops heap per object at ${span} ≤ 1.2×`,
        measured: formatRatio(heap),
        met: heap <= 1.2,
      },
    ],
  };
}

/**
 * The cold-sync matrix of issue #17: every shape × size × (none or `otherObjects` of the same
 * resource in another namespace), each library in a fresh process per run, against the
 * floor (JSON.parse of the list) and a bare GET + JSON.parse; time and heap per object, the
 * ratios, and one line per goal. Each shape and "elsewhere" count gets a fresh server whose
 * namespace grows through the sizes.
 */
export const syncMatrixBenchmark: BenchmarkModule = {
  id: 'shapes',
  title: 'Cold sync by shape',
  description:
    'Cold sync and heap per object of Pods, Helm ConfigMaps and objects with managedFields at each size, with and without objects elsewhere, each library in a fresh process.',
  async run({ options, startServer, serverName, log }: BenchContext): Promise<BenchmarkResult> {
    const sizes = [...options.shapeSizes].sort((a, b) => a - b);
    const othersCounts = options.otherObjects > 0 ? [0, options.otherObjects] : [0];
    const metrics: Metric[] = [];
    const targets: TargetCheck[] = [];
    const notes: string[] = [
      `Each figure is the median of ${options.shapeRepeats} runs, each library and size in a fresh Node.js process (forked, --expose-gc), in alternating order, against ${serverName}; the server collects its garbage before each run, and before a cell's first run it serves one unpaged LIST and one paged walk (pages of ${defaultInformerPageSize}) untimed, so that no contender pays for the server compiling its request path. Every contender is timed from starting its library until every object is in its cache; CPU is its whole process's (all threads) over that time. Heap per object: heapUsed after two full collections with the cache held, minus the same before the sync started, over the objects.`,
      `"elsewhere": objects of the same resource in namespace "${otherNamespace}", which sorts after the measured one, so they follow every continue token of its paged LIST.`,
    ];
    const samples: Record<string, unknown> = {};
    const charts: BenchmarkResult['charts'] = [];
    for (const shape of options.shapes) {
      let skipped = false;
      for (const others of othersCounts) {
        if (skipped) break;
        const server = await startServer();
        const cells: Cell[] = [];
        try {
          if (others > 0) {
            log(`${shapeLabels[shape]}: seeding ${others} elsewhere`);
            await server.seedShape(shape, otherNamespace, 0, others);
          }
          let seeded = 0;
          for (const size of sizes) {
            log(`${shapeLabels[shape]}: seeding up to ${size}`);
            const result = await server.seedShape(shape, namespace, seeded, size - seeded);
            if (seeded === 0 && shape === 'managed-fields' && !result.managedFieldsKept) {
              skipped = true;
              notes.push(
                `${shapeLabels[shape]}: not measured: ${serverName} did not keep the managedFields (kubectl, helm, a controller) that seeding set with a replace after the create, so this shape cannot be seeded there.`,
              );
              targets.push({
                target: `${shapeLabels[shape]}: measured`,
                measured: 'the server did not keep the seeded managedFields',
                met: false,
              });
              break;
            }
            seeded = size;
            const cell: Cell = {
              shape,
              size,
              others,
              ms: new Map(),
              heap: new Map(),
              cpuMs: new Map(),
              failed: new Map(),
            };
            samples[cellName(cell)] = await measureCell(server, cell, options.shapeRepeats, log);
            const report = cellReport(cell);
            metrics.push(...report.metrics);
            targets.push(...report.targets);
            cells.push(cell);
            charts.push({
              title: `Cold sync, ${cellName(cell)} (median ms; lower is better)`,
              unit: 'ms',
              bars: syncContenders
                .filter((contender) => cell.ms.has(contender))
                .map((contender) => ({
                  label: contenderLabels[contender],
                  value: cell.ms.get(contender) ?? 0,
                })),
            });
          }
          const scaling = scalingReport(cells);
          metrics.push(...scaling.metrics);
          targets.push(...scaling.targets);
        } finally {
          await server.stop();
        }
      }
    }
    return { id: this.id, title: this.title, metrics, targets, charts, notes, samples };
  },
};
