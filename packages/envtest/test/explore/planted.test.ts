/**
 * The planted-bug catalogue: for each bug class Sieve and Acto report, a small operator with
 * the bug, which quick mode must find, and its correct twin, which quick mode must pass.
 */
import type { Manager } from '@ops/core';
import { describe, expect, it } from 'vitest';
import { type ExplorationReport, exploreQuick, summarize } from '../../src/explore/explorer.js';
import type { Scenario } from '../../src/explore/run.js';
import type { PerturbationKind } from '../../src/explore/schedule.js';
import { conflictSwallowedBuggy, conflictSwallowedCorrect } from './planted/conflict-swallowed.js';
import { duplicateChildBuggy, duplicateChildCorrect } from './planted/duplicate-child.js';
import {
  errorHandledCorrect,
  errorSwallowedBuggy,
  transientAsTerminalBuggy,
} from './planted/error-swallowed.js';
import { flipOnRetryBuggy, flipOnRetryCorrect } from './planted/flip-on-retry.js';
import { ignoredWebhookBuggy, ignoredWebhookCorrect } from './planted/ignored-webhook.js';
import { staleDeletionBuggy, staleDeletionCorrect } from './planted/stale-deletion.js';
import { stuckDeletionBuggy, stuckDeletionCorrect } from './planted/stuck-deletion.js';
import { unelectedWriterBuggy, unelectedWriterCorrect } from './planted/unelected-writer.js';

/**
 * Quick mode on the scenario exported as `name` from planted/`file`, two schedules at once
 * (about half the time of one at a time, for the same report), each failure naming the
 * command that replays it on that scenario alone; at most `limit` schedules (quick mode's 30
 * for a planted bug; a correct twin's run proves it passes the same kinds, each tried once
 * in the first dozen, at a third of the suite's time).
 */
async function explore(
  scenarios: Record<string, Scenario<Manager>>,
  file: string,
  limit = 30,
  kinds?: readonly PerturbationKind[],
): Promise<ExplorationReport> {
  const [[name, scenario]] = Object.entries(scenarios) as [[string, Scenario<Manager>]];
  return exploreQuick(scenario, {
    limit,
    concurrency: 2,
    ...(kinds === undefined ? {} : { kinds }),
    replayCommand: (id) =>
      `pnpm explore packages/envtest/test/explore/planted/${file}#${name} --replay '${id}'`,
  });
}

/** Asserts quick mode found exactly one failing schedule, of `kind`, saying `says`. */
function expectFound(report: ExplorationReport, kind: RegExp, says: string): void {
  expect(report.failures, summarize(report)).toHaveLength(1);
  const [failure] = report.failures;
  expect(failure?.id, failure?.message).toMatch(kind);
  expect(failure?.message).toContain(says);
  expect(failure?.message).toContain('replay: pnpm explore packages/envtest/test/explore/planted/');
  expect(failure?.message).toContain(`--replay '${failure?.id}'`);
  expect(failure?.message).toContain('the last reconciles');
}

/** Schedules of a correct twin's run. */
const twinLimit = 12;

/** Asserts quick mode passed every schedule it ran, and ran more than a handful. */
function expectPassed(report: ExplorationReport): void {
  expect(report.failures.map((failure) => failure.message)).toEqual([]);
  expect(report.schedules.length).toBeGreaterThanOrEqual(10);
}

/**
 * Asserts quick mode restricted to `kinds` (the new class's perturbations, which come last
 * in quick mode's order, past a twin's first dozen) ran and passed each of them, each acting.
 */
function expectPassedKinds(report: ExplorationReport, kinds: readonly PerturbationKind[]): void {
  expect(report.failures.map((failure) => failure.message)).toEqual([]);
  for (const kind of kinds) expect(report.coverage[kind], summarize(report)).toBeGreaterThan(0);
}

describe('the explorer finds each planted bug, and passes its correct twin', {
  timeout: 300_000,
}, () => {
  it('a child created twice after a restart between its create and the status write', async () => {
    expectFound(
      await explore({ duplicateChildBuggy }, 'duplicate-child.ts'),
      /:crash@1$/,
      '2 object(s) where the reference run left 1 (duplicated or leaked)',
    );
    expectPassed(await explore({ duplicateChildCorrect }, 'duplicate-child.ts', twinLimit));
  });

  it('a delete that never completes after a crash before the finalizer removal', async () => {
    const found = await explore({ stuckDeletionBuggy }, 'stuck-deletion.ts');
    expectFound(
      found,
      // Any restart between the cleanup and the finalizer removal: a crash after a write or
      // a request, or a restart against a stale cache.
      /:(crash(-at-request)?@\d+|stale-restart@\d+\+\d+~configmaps)$/,
      'explore.ops.dev/v1/Widget: 1 object(s) where the reference run left 0',
    );
    expect(found.failures[0]?.message).toMatch(/#\d+ delete configmaps explore\/app-record -> 200/);
    expectPassed(await explore({ stuckDeletionCorrect }, 'stuck-deletion.ts', twinLimit));
  });

  it('a non-idempotent update that flips back when retried after a timeout after apply', async () => {
    expectFound(
      await explore({ flipOnRetryBuggy }, 'flip-on-retry.ts'),
      /:(crash|timeout-after-apply)@\d+$/,
      '"value":"off"',
    );
    expectPassed(await explore({ flipOnRetryCorrect }, 'flip-on-retry.ts', twinLimit));
  });

  it('a 409 Conflict swallowed, leaving a stale status', async () => {
    const found = await explore({ conflictSwallowedBuggy }, 'conflict-swallowed.ts');
    expectFound(found, /:write-error@\d+=409$/, 'missing');
    expect(found.failures[0]?.message).toMatch(/update widgets\/status explore\/app/);
    expectPassed(await explore({ conflictSwallowedCorrect }, 'conflict-swallowed.ts', twinLimit));
  });

  it('an API error on a write swallowed, or taken as final, leaving the child missing', async () => {
    expectFound(
      await explore({ errorSwallowedBuggy }, 'error-swallowed.ts'),
      /:write-error@1=(500|429)$/,
      'v1/ConfigMap: 0 object(s) where the reference run left 1 (missing)',
    );
    const terminal = await explore({ transientAsTerminalBuggy }, 'error-swallowed.ts');
    expectFound(
      terminal,
      /:(write-error@1=(500|429)|timeout-after-apply@1)$/,
      'error logged without a retry',
    );
    expect(terminal.failures[0]?.message).toContain(
      'reconcile failed with a terminal error; not retrying',
    );
    expectPassed(await explore({ errorHandledCorrect }, 'error-swallowed.ts', twinLimit));
  });

  it('a decision on a stale read after a restart that deletes a live child', async () => {
    const found = await explore({ staleDeletionBuggy }, 'stale-deletion.ts');
    expectFound(
      found,
      /:stale-restart@\d+\+\d+~widgets$/,
      'deleted configmaps app-data, which the reference run never deleted (a live child)',
    );
    expectPassed(await explore({ staleDeletionCorrect }, 'stale-deletion.ts', twinLimit));
  });

  it('a write outside leader election: a standby writes beside the leader', async () => {
    expectFound(
      await explore({ unelectedWriterBuggy }, 'unelected-writer.ts'),
      /:leader-loss@\d+$/,
      'replica-2, a standby that never led, wrote',
    );
    const leaderLoss = ['leader-loss'] as const;
    expectPassedKinds(
      await explore({ unelectedWriterCorrect }, 'unelected-writer.ts', 2, leaderLoss),
      leaderLoss,
    );
  });

  it('a mutating webhook relied on with failurePolicy Ignore, skipped while unreachable', async () => {
    const found = await explore({ ignoredWebhookBuggy }, 'ignored-webhook.ts');
    expectFound(found, /:webhook-(down|slow)@1\+\d+$/, '"value":"one/off"');
    const webhookKinds = ['webhook-down', 'webhook-slow'] as const;
    expectPassedKinds(
      await explore({ ignoredWebhookCorrect }, 'ignored-webhook.ts', 4, webhookKinds),
      webhookKinds,
    );
  });
});
