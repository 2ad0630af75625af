/**
 * Bug class: a 409 Conflict swallowed, leaving a stale status (Acto's "error handling"
 * bugs). The operator writes the Widget's status with an update guarded by its
 * resourceVersion; the buggy one returns quietly when that update conflicts, so nothing
 * retries it and the status never says what was applied. The correct twin lets the conflict
 * fail the reconcile, which retries it with the object read afresh.
 */
import { isConflict } from '@ops/core';
import { childOf, forWidget, widget, widgetScenario } from './widget.js';

const reconcile = (buggy: boolean) =>
  forWidget(async (owner, manager, request) => {
    await manager.client.apply(childOf(owner, `${request.name}-data`, owner.spec.value), {
      fieldManager: 'planted',
      force: true,
    });
    if (owner.status?.value === owner.spec.value) return undefined;
    try {
      await manager.client.updateStatus({ ...owner, status: { value: owner.spec.value } });
    } catch (error) {
      if (buggy && isConflict(error)) return undefined;
      throw error;
    }
    return undefined;
  });

const steps = [
  { name: 'create the widget', apply: [widget('app', { value: 'one' })] },
  { name: 'change its value', apply: [widget('app', { value: 'two' })] },
];

export const conflictSwallowedBuggy = widgetScenario(
  'conflict-swallowed (buggy)',
  reconcile(true),
  steps,
);
export const conflictSwallowedCorrect = widgetScenario(
  'conflict-swallowed (correct)',
  reconcile(false),
  steps,
);
