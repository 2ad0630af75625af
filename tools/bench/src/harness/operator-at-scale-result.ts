import type { BenchmarkResult, Metric } from '../benchmark.js';
import { formatNumber } from './format.js';
import type { OperatorAtScaleResult } from './operator-at-scale.js';
import type { BeforeAfterRuns } from './operator-before-after.js';
import { median, ratio } from './stats.js';

/** How an at-scale benchmark names its objects and the state it waits for. */
export interface AtScaleWording {
  /** `Applications` */
  plural: string;
  /** `Application` */
  singular: string;
  /** `ready`, `completed` */
  state: string;
}

/** The figures of one runtime, medians over its runs. */
interface Figures {
  seconds: number;
  createSeconds: number;
  reconciles: number;
  conflicts: number;
  writes: number;
  heapBytes: number;
  quietWrites: number;
}

function figuresOf(runs: readonly OperatorAtScaleResult[]): Figures {
  const of = (pick: (run: OperatorAtScaleResult) => number) => median(runs.map(pick));
  return {
    seconds: of((run) => run.seconds),
    createSeconds: of((run) => run.createSeconds),
    reconciles: of((run) => run.reconcilesToDone),
    conflicts: of((run) => run.conflictsToDone),
    writes: of((run) => run.writesToDone),
    heapBytes: of((run) => run.heapBytes),
    quietWrites: Math.max(...runs.map((run) => run.quietWrites)),
  };
}

/**
 * The report of an at-scale benchmark's before/after runs ({@link BeforeAfterRuns}) of `count`
 * objects: for each runtime (`before`: round two, `after`: core's defaults with what the
 * operator adopted), medians of its runs: the time until all reached `wording.state` (and the
 * part spent creating them), reconciles, writes answered 409, writes, retained heap per object
 * and writes at rest (the most of any run); then each after / before ratio (omitted when
 * `before` is 0, e.g. no 409 at all). Target, per runtime: 0 writes while nothing changes.
 * `note` says how the run was set up. The samples keep every run.
 */
export function operatorAtScaleResult(
  module: { id: string; title: string },
  count: number,
  runs: BeforeAfterRuns,
  quietMs: number,
  wording: AtScaleWording,
  note: string,
): BenchmarkResult {
  const { plural, singular, state } = wording;
  const before = figuresOf(runs.before);
  const after = figuresOf(runs.after);
  const metrics: Metric[] = [];
  for (const [name, figures] of [
    ['before', before],
    ['after', after],
  ] as const) {
    metrics.push(
      {
        name: `${name}: time until ${count} ${plural} are ${state}`,
        value: figures.seconds,
        unit: 's',
      },
      { name: `${name}: of which creating them`, value: figures.createSeconds, unit: 's' },
      {
        name: `${name}: ${plural} ${state} per second`,
        value: count / figures.seconds,
        unit: '/s',
      },
      {
        name: `${name}: reconciles until all ${state}`,
        value: figures.reconciles,
        unit: 'reconciles',
      },
      {
        name: `${name}: operator writes answered 409 until all ${state}`,
        value: figures.conflicts,
        unit: 'writes',
      },
      {
        name: `${name}: operator writes until all ${state}, per ${singular}`,
        value: figures.writes / count,
        unit: 'writes',
      },
      {
        name: `${name}: operator heap per ${singular}`,
        value: figures.heapBytes / count,
        unit: 'B/object',
      },
      { name: `${name}: operator writes at rest`, value: figures.quietWrites, unit: 'writes' },
    );
  }
  const ratios: Array<[string, number, number]> = [
    [`time until all ${state}`, after.seconds, before.seconds],
    ['reconciles', after.reconciles, before.reconciles],
    ['writes answered 409', after.conflicts, before.conflicts],
    ['writes', after.writes, before.writes],
    ['heap', after.heapBytes, before.heapBytes],
  ];
  for (const [what, a, b] of ratios) {
    const value = ratio(a, b);
    if (Number.isFinite(value)) metrics.push({ name: `after / before: ${what}`, value, unit: '×' });
  }
  return {
    id: module.id,
    title: module.title,
    metrics,
    targets: [
      {
        target: '0 writes while nothing changes (before)',
        measured: `${before.quietWrites} writes in ${formatNumber(quietMs / 1000)} s`,
        met: before.quietWrites === 0,
      },
      {
        target: '0 writes while nothing changes (after)',
        measured: `${after.quietWrites} writes in ${formatNumber(quietMs / 1000)} s`,
        met: after.quietWrites === 0,
      },
    ],
    charts: [
      {
        title: `${module.title}: time until ${count} ${plural} are ${state}`,
        unit: 's',
        bars: [
          { label: 'before (round two)', value: before.seconds },
          { label: 'after (defaults + adopted)', value: after.seconds },
        ],
      },
    ],
    notes: [
      note,
      `before: the round-two runtime (FIFO queue, readYourWrites off, no reconcile timeout); after: core's defaults (priority queue, read-your-writes) with what the operator adopted. Each on a fresh server, ${runs.after.length} run(s) each, alternating which goes first; medians. 409s are the operator's writes answered Conflict or AlreadyExists; heap is the bench process's heap once all are ${state} minus before the manager started (after full collections); the first measured run is still charged some one-time cost of the process (about 4 KB per object at 200 Applications in development runs, whichever runtime went first), so compare heap over --operator-repeats 2 or more.`,
    ],
    samples: { count, before: runs.before, after: runs.after },
  };
}
