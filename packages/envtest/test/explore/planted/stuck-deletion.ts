/**
 * Bug class: a delete that never completes after a crash before the finalizer's removal
 * (Sieve's intermediate states; Acto's "stuck deletion"). The operator keeps an external
 * record (a ConfigMap it does not own, standing for something outside the cluster) and
 * removes it when its Widget is deleted. The buggy cleanup treats the record already being
 * gone as a failure: crashed after deleting it and before removing the finalizer, the next
 * incarnation fails the cleanup forever and the Widget is never deleted. The correct twin
 * counts NotFound as done, so its cleanup is idempotent.
 */
import { type ConfigMap, isNotFound, withFinalizer } from '@ops/core';
import { forWidget, widget, widgetScenario } from './widget.js';

const finalizer = 'explore.ops.dev/record';

const reconcile = (buggy: boolean) =>
  forWidget(async (owner, manager, request) => {
    const record: ConfigMap = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `${request.name}-record`, namespace: request.namespace },
      data: { value: owner.spec.value },
    };
    return withFinalizer(manager.client, owner, finalizer, {
      apply: async () => {
        await manager.client.create(record).catch((error: unknown) => {
          if ((error as { reason?: string }).reason !== 'AlreadyExists') throw error;
        });
      },
      cleanup: async () => {
        await manager.client.delete(record).catch((error: unknown) => {
          if (buggy || !isNotFound(error)) throw error;
        });
      },
    });
  });

const steps = [
  { name: 'create the widget', apply: [widget('app', { value: 'one' })] },
  {
    name: 'delete the widget',
    delete: [{ apiVersion: 'explore.ops.dev/v1', kind: 'Widget', name: 'app' }],
  },
];

export const stuckDeletionBuggy = widgetScenario('stuck-deletion (buggy)', reconcile(true), steps);
export const stuckDeletionCorrect = widgetScenario(
  'stuck-deletion (correct)',
  reconcile(false),
  steps,
);
