/**
 * A step's `settledWhen`: the reference run of a step whose world moves on while the operator
 * is quiet (here, an operator that waits before it writes, longer than the reference run's
 * quiet period, as a Pod runs before it finishes) settles only once it holds.
 */
import { describe, expect, it } from 'vitest';
import type { Outcome } from '../../src/explore/outcome.js';
import { runScenario, type ScenarioStep } from '../../src/explore/run.js';
import { forWidget, patchWidgetStatus, widget, widgetScenario } from './planted/widget.js';

/** A Widget operator that records `spec.value` in the status `delayMs` after it first sees it. */
function delayedScenario(step: ScenarioStep, delayMs: number) {
  const firstSeen = new Map<string, number>();
  const reconcile = forWidget(async (owner, manager, request) => {
    if (owner.status?.value === owner.spec.value) return undefined;
    const seen = firstSeen.get(request.name) ?? Date.now();
    firstSeen.set(request.name, seen);
    const waitMs = seen + delayMs - Date.now();
    if (waitMs > 0) return { requeueAfterMs: waitMs };
    await patchWidgetStatus(manager, request, { value: owner.spec.value });
    return undefined;
  });
  return widgetScenario('settled-when', reconcile, [step]);
}

const recorded = (outcome: Outcome | undefined) =>
  (outcome?.objects['explore.ops.dev/v1/Widget'] ?? []).map(
    (item) => (item as { status?: { value?: string } }).status?.value,
  );

describe("a scenario step's settledWhen", { timeout: 60_000 }, () => {
  const apply = [widget('app', { value: 'one' })];

  it('keeps the reference run in the step until it holds', async () => {
    const record = await runScenario(
      delayedScenario(
        {
          name: 'create',
          apply,
          settledWhen: (outcome) => recorded(outcome).includes('one'),
        },
        1_500,
      ),
      undefined,
      undefined,
      { quietMs: 1_000 },
    );
    expect(record.violations).toEqual([]);
    expect(recorded(record.outcomes[0])).toEqual(['one']);
  });

  it('is needed: without it the quiet operator settles the step before its write', async () => {
    const record = await runScenario(
      // Long enough that the step has settled, however loaded the machine, before it writes.
      delayedScenario({ name: 'create', apply }, 30_000),
      undefined,
      undefined,
      { quietMs: 1_000 },
    );
    expect(recorded(record.outcomes[0])).toEqual([undefined]);
  });
});
