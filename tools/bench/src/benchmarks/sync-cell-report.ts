import type { Metric, TargetCheck } from '../benchmark.js';
import { formatNumber, formatRatio } from '../harness/format.js';
import type { ObjectShape } from '../harness/object-shapes.js';
import { ratio } from '../harness/stats.js';
import { type SyncContender, syncContenders } from '../harness/sync-protocol.js';

export const contenderLabels: Record<SyncContender, string> = {
  floor: 'floor: JSON.parse',
  'bare-http': 'bare GET + JSON.parse',
  ops: '@ops/core Informer',
  'ops-one-page': '@ops/core, one page',
  'client-node': 'client-node informer',
  fluent: 'fluent Watch',
  'bare-watch-list': 'floor: bare WatchList + JSON.parse',
  'ops-watch-list': '@ops/core, WatchList (its defaults on loopback)',
  'ops-list': '@ops/core, paged LIST',
  'ops-watch-list-gzip': '@ops/core, WatchList, gzip (its defaults over a network)',
  'ops-list-gzip': '@ops/core, paged LIST, gzip',
};

export const shapeLabels: Record<ObjectShape, string> = {
  pods: 'Pods',
  configmaps: 'Helm ConfigMaps',
  'managed-fields': 'ConfigMaps with managedFields',
};

/** The medians of one cell of the matrix: a shape, a size, and the objects elsewhere. */
export interface Cell {
  shape: ObjectShape;
  size: number;
  others: number;
  ms: Map<SyncContender, number>;
  heap: Map<SyncContender, number>;
  /** Median CPU time (user + system) of the contender's process over the sync, in ms. */
  cpuMs: Map<SyncContender, number>;
  /** The contenders that could not sync the cell, with the first line of their error. */
  failed: Map<SyncContender, string>;
}

export const cellName = (cell: Pick<Cell, 'shape' | 'size' | 'others'>) =>
  `${shapeLabels[cell.shape]}, ${formatNumber(cell.size, 0)}${cell.others > 0 ? `, ${formatNumber(cell.others, 0)} elsewhere` : ''}`;

/**
 * The figures and goals of one cell. A ratio is reported only where both of its figures
 * exist. A goal that compares ops with another contender is judged as follows when one of
 * them could not sync: ops failing misses the goal; a peer (client-node, fluent, ops with
 * one page) failing while ops synced meets it, since ops got there and the peer did not,
 * and the goal line says what the peer failed with; the floor or the bare GET failing
 * leaves the goal unjudged, so it is missed and says why. Every failure also gets a line
 * of its own.
 */
export function cellReport(cell: Cell): { metrics: Metric[]; targets: TargetCheck[] } {
  const name = cellName(cell);
  const metrics: Metric[] = [];
  const ms = (id: SyncContender) => cell.ms.get(id) ?? Number.NaN;
  const heap = (id: SyncContender) => cell.heap.get(id) ?? Number.NaN;
  const cpu = (id: SyncContender) => cell.cpuMs.get(id) ?? Number.NaN;
  const pushRatio = (label: string, value: number) => {
    if (Number.isFinite(value)) metrics.push({ name: `${name}: ${label}`, value, unit: '×' });
  };
  for (const contender of syncContenders) {
    const value = cell.ms.get(contender);
    if (value !== undefined)
      metrics.push({ name: `${name}: ${contenderLabels[contender]}`, value, unit: 'ms' });
  }
  pushRatio('ops / floor', ratio(ms('ops'), ms('floor')));
  pushRatio('ops / bare GET + JSON.parse', ratio(ms('ops'), ms('bare-http')));
  pushRatio('client-node / ops', ratio(ms('client-node'), ms('ops')));
  pushRatio('fluent / ops', ratio(ms('fluent'), ms('ops')));
  pushRatio('ops default paging / one page', ratio(ms('ops'), ms('ops-one-page')));
  // CPU of the syncing process: what the library itself costs, apart from waiting for the
  // server. Every contender but the floor, whose process also fetched the list untimed.
  for (const contender of syncContenders.filter((id) => id !== 'floor')) {
    const value = cell.cpuMs.get(contender);
    if (value !== undefined)
      metrics.push({ name: `${name}: CPU, ${contenderLabels[contender]}`, value, unit: 'ms' });
  }
  pushRatio('CPU ops / bare GET + JSON.parse', ratio(cpu('ops'), cpu('bare-http')));
  for (const contender of ['ops', 'client-node', 'floor'] as const) {
    const value = cell.heap.get(contender);
    if (value !== undefined)
      metrics.push({
        name: `${name}: heap per object, ${contenderLabels[contender]}`,
        value,
        unit: 'B/object',
      });
  }
  pushRatio('heap ops / client-node', ratio(heap('ops'), heap('client-node')));
  pushRatio('heap ops / floor', ratio(heap('ops'), heap('floor')));

  /** A goal on `value` (a ratio of ops to `other`, or of `other` to ops). */
  const goal = (
    target: string,
    other: SyncContender,
    value: number,
    met: (value: number) => boolean,
  ): TargetCheck => {
    const opsError = cell.failed.get('ops');
    if (opsError !== undefined)
      return { target, measured: `${contenderLabels.ops} failed: ${opsError}`, met: false };
    const otherError = cell.failed.get(other);
    if (otherError !== undefined) {
      const peer = other === 'client-node' || other === 'fluent' || other === 'ops-one-page';
      return {
        target,
        measured: peer
          ? `${contenderLabels[other]} could not sync (${otherError}); ops did`
          : `not judged: ${contenderLabels[other]} failed: ${otherError}`,
        met: peer,
      };
    }
    return { target, measured: formatRatio(value), met: Number.isFinite(value) && met(value) };
  };
  const targets: TargetCheck[] = [
    goal(
      `${name}: cold sync ops ≤ 1.15× bare GET + JSON.parse`,
      'bare-http',
      ratio(ms('ops'), ms('bare-http')),
      (value) => value <= 1.15,
    ),
    goal(
      `${name}: client-node ≥ 1.3× ops`,
      'client-node',
      ratio(ms('client-node'), ms('ops')),
      (value) => value >= 1.3,
    ),
    goal(
      `${name}: fluent ≥ 1.1× ops`,
      'fluent',
      ratio(ms('fluent'), ms('ops')),
      (value) => value >= 1.1,
    ),
    goal(
      `${name}: default paging ≤ 1.02× one page`,
      'ops-one-page',
      ratio(ms('ops'), ms('ops-one-page')),
      (value) => value <= 1.02,
    ),
    goal(
      `${name}: heap per object ops ≤ JSON.parse floor`,
      'floor',
      ratio(heap('ops'), heap('floor')),
      (value) => value <= 1,
    ),
  ];
  if (cell.shape === 'managed-fields')
    targets.push(
      goal(
        `${name}: heap per object ops ≤ 0.6× client-node`,
        'client-node',
        ratio(heap('ops'), heap('client-node')),
        (value) => value <= 0.6,
      ),
    );
  for (const [contender, error] of cell.failed)
    targets.push({
      target: `${name}: ${contenderLabels[contender]} synced`,
      measured: error,
      met: false,
    });
  return { metrics, targets };
}

/** Time and heap per object at the largest size over the smallest, for one shape and `others`. */
export function scalingReport(cells: Cell[]): { metrics: Metric[]; targets: TargetCheck[] } {
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
    ].filter((metric) => Number.isFinite(metric.value)),
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
