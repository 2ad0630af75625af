import type { BenchContext } from '../benchmark.js';
import {
  type OperatorAtScale,
  type OperatorAtScaleResult,
  type RuntimeVariant,
  roundThreeRuntime,
  roundTwoRuntime,
  runOperatorAtScale,
} from './operator-at-scale.js';

/** Every run of each runtime, in the order they ran. */
export interface BeforeAfterRuns {
  before: OperatorAtScaleResult[];
  after: OperatorAtScaleResult[];
}

/** Objects of each warm-up run. */
const warmUpObjects = 20;
/** Below this many objects (the test suite's tiny runs) there is no warm-up. */
const warmUpFrom = 200;

/**
 * An operator at scale under the round-two runtime ({@link roundTwoRuntime}) and under core's
 * defaults with what the operator adopted ({@link roundThreeRuntime}), `count` objects each,
 * `options.operatorRepeats` times each, alternating which goes first; every run on a fresh
 * local API server with its simulated cluster (stopped after the run), so neither sees the
 * other's objects. From 200 objects, a warm-up run of 20 objects under each runtime, not
 * measured, goes first, so that the first measured run is charged less of the process's
 * one-time costs (code compiled, modules and pools initialised); it still measured about 4 KB
 * of heap per object more than later runs at 200 objects, whichever runtime went first.
 */
export async function runBeforeAndAfter(
  context: Pick<BenchContext, 'options' | 'startServer' | 'log'>,
  subject: OperatorAtScale,
  count: number,
): Promise<BeforeAfterRuns> {
  const runs: BeforeAfterRuns = { before: [], after: [] };
  for (const variant of count >= warmUpFrom ? [roundTwoRuntime, roundThreeRuntime] : []) {
    const warmUp = await context.startServer({ cluster: true });
    try {
      context.log(`${subject.description}: warming up (${variant.name})`);
      await runOperatorAtScale(warmUp, subject, warmUpObjects, 0, variant);
    } finally {
      await warmUp.stop();
    }
  }
  for (let repeat = 0; repeat < context.options.operatorRepeats; repeat++) {
    const order: RuntimeVariant[] =
      repeat % 2 === 0
        ? [roundTwoRuntime, roundThreeRuntime]
        : [roundThreeRuntime, roundTwoRuntime];
    for (const variant of order) {
      context.log(`${subject.description}, ${variant.name} (run ${repeat + 1})`);
      const server = await context.startServer({ cluster: true });
      try {
        const measured = await runOperatorAtScale(
          server,
          subject,
          count,
          context.options.quietMs,
          variant,
        );
        (variant === roundTwoRuntime ? runs.before : runs.after).push(measured);
      } finally {
        await server.stop();
      }
    }
  }
  return runs;
}
