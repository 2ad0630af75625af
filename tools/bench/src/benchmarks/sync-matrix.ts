import { defaultInformerPageSize } from '@ops/core/cache';
import type {
  BenchContext,
  BenchmarkModule,
  BenchmarkResult,
  Metric,
  TargetCheck,
} from '../benchmark.js';
import type { BenchServer } from '../harness/bench-server.js';
import { shapePlural } from '../harness/object-shapes.js';
import { addSample, median } from '../harness/stats.js';
import { syncContenders } from '../harness/sync-protocol.js';
import { syncRounds } from '../harness/sync-rounds.js';
import { warmServerLists } from '../harness/warm-server-lists.js';
import {
  type Cell,
  cellName,
  cellReport,
  contenderLabels,
  scalingReport,
  shapeLabels,
} from './sync-cell-report.js';

const namespace = 'bench';
/** Sorts after `bench`, so its objects follow every cursor of the measured namespace. */
const otherNamespace = 'elsewhere';

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
  await syncRounds({
    server,
    contenders: syncContenders,
    rounds: repeats,
    namespace,
    shape: cell.shape,
    expected: cell.size,
    name: cellName(cell),
    failed: cell.failed,
    log,
    record: (contender, outcome) => {
      addSample(ms, contender, outcome.ms);
      addSample(heap, contender, outcome.heapPerObject);
      addSample(cpuMs, contender, outcome.cpuMs);
      const entry = samples[contender] ?? { ms: [], heap: [], cpuMs: [] };
      samples[contender] = entry;
      entry.ms.push(outcome.ms);
      entry.heap.push(outcome.heapPerObject);
      entry.cpuMs.push(outcome.cpuMs);
    },
  });
  for (const contender of syncContenders) {
    if (ms[contender] !== undefined) cell.ms.set(contender, median(ms[contender]));
    if (heap[contender] !== undefined) cell.heap.set(contender, median(heap[contender]));
    if (cpuMs[contender] !== undefined) cell.cpuMs.set(contender, median(cpuMs[contender]));
  }
  return samples;
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
