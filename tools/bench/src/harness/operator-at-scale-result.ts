import type { BenchmarkResult } from '../benchmark.js';
import { formatNumber } from './format.js';
import type { OperatorAtScaleResult } from './operator-at-scale.js';

/** How an at-scale benchmark names its objects and the state it waits for. */
export interface AtScaleWording {
  /** `Applications` */
  plural: string;
  /** `Application` */
  singular: string;
  /** `ready`, `completed` */
  state: string;
}

/**
 * The report of a {@link runOperatorAtScale} run of `count` objects: the time until all reached
 * `wording.state`, the part spent creating them, the rate, the operator's writes per object to
 * get there and its writes at rest, with the target "0 writes while nothing changes"; `note`
 * says how the run was set up. The samples keep `writesTo<State>` (`writesToReady`).
 */
export function operatorAtScaleResult(
  module: { id: string; title: string },
  count: number,
  measured: OperatorAtScaleResult,
  quietMs: number,
  wording: AtScaleWording,
  note: string,
): BenchmarkResult {
  const { seconds, createSeconds, writesToDone, settled, quietWrites } = measured;
  const { plural, singular, state } = wording;
  const writesKey = `writesTo${state.charAt(0).toUpperCase()}${state.slice(1)}`;
  return {
    id: module.id,
    title: module.title,
    metrics: [
      { name: `time until ${count} ${plural} are ${state}`, value: seconds, unit: 's' },
      { name: 'of which creating them', value: createSeconds, unit: 's' },
      { name: `${plural} ${state} per second`, value: count / seconds, unit: '/s' },
      {
        name: `operator writes until all ${state}, per ${singular}`,
        value: writesToDone / count,
        unit: 'writes',
      },
      { name: 'operator writes at rest', value: quietWrites, unit: 'writes' },
    ],
    targets: [
      {
        target: '0 writes while nothing changes',
        measured: `${quietWrites} writes in ${formatNumber(quietMs / 1000)} s`,
        met: quietWrites === 0,
      },
    ],
    charts: [],
    notes: [note],
    samples: { count, seconds, [writesKey]: writesToDone, settled, quietWrites },
  };
}
