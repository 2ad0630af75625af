import type { OperatorManagerLike } from '../operator-manager.js';
import {
  type ExplorationReport,
  exploreQuick,
  type QuickExploreOptions,
  summarize,
} from './explorer.js';
import type { Scenario } from './run.js';

/**
 * Quick mode ({@link exploreQuick}) as one assertion, for an operator's test suite: resolves
 * with the report when at least one schedule ran and none failed; rejects otherwise, with an
 * Error whose message is the report's summary followed by every failure's description (the
 * seed, the perturbation, the step, what went wrong, the last reconciles' logs and the command
 * that replays it), so the test runner prints all of it.
 *
 * @throws {Error} as {@link exploreQuick} does (the reference run fails, a replayed id is not a
 *   schedule id).
 */
export async function assertQuickExploration<M extends OperatorManagerLike>(
  scenario: Scenario<M>,
  options: QuickExploreOptions = {},
): Promise<ExplorationReport> {
  const report = await exploreQuick(scenario, options);
  if (report.failures.length > 0)
    throw new Error(
      [
        `quick exploration failed ${report.failures.length} of ${report.schedules.length} schedule(s)`,
        summarize(report),
        ...report.failures.map((failure) => failure.message),
      ].join('\n\n'),
    );
  if (report.schedules.length === 0)
    throw new Error(
      `quick exploration ran no schedule (every one was of a kind the ${report.plane} plane cannot perform, or the limit is 0): nothing was tested\n${summarize(report)}`,
    );
  return report;
}
