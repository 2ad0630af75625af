/**
 * Bug classes of error handling (Acto's most frequent): an API error on a write
 * - swallowed: the buggy operator logs a warning and reports success when creating its
 *   child fails, so nothing retries and the child is missing for good;
 * - taken as final: the buggy operator turns any failed write into a `TerminalError`, so a
 *   transient 429 or 500 stops the retries (and logs an error without a retry).
 * The correct twin lets the error fail the reconcile, which retries with backoff.
 */
import { isAlreadyExists, TerminalError } from '@ops/core';
import { childOf, forWidget, patchWidgetStatus, widget, widgetScenario } from './widget.js';

type Handling = 'swallow' | 'terminal' | 'retry';

const reconcile = (handling: Handling) =>
  forWidget(async (owner, manager, request, { log }) => {
    const name = `${request.name}-data`;
    try {
      await manager.client.create(childOf(owner, name, owner.spec.value));
    } catch (error) {
      if (!isAlreadyExists(error)) {
        if (handling === 'swallow') {
          log.warn({ err: error }, 'could not create the child; moving on');
        } else if (handling === 'terminal') {
          throw new TerminalError(`could not create the child: ${(error as Error).message}`);
        } else throw error;
      }
    }
    if (owner.status?.child !== name) await patchWidgetStatus(manager, request, { child: name });
    return undefined;
  });

const steps = [{ name: 'create the widget', apply: [widget('app', { value: 'one' })] }];

export const errorSwallowedBuggy = widgetScenario(
  'error-swallowed (buggy)',
  reconcile('swallow'),
  steps,
);
export const transientAsTerminalBuggy = widgetScenario(
  'transient-as-terminal (buggy)',
  reconcile('terminal'),
  steps,
);
export const errorHandledCorrect = widgetScenario(
  'error-handling (correct)',
  reconcile('retry'),
  steps,
);
