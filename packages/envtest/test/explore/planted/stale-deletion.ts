/**
 * Bug class: a decision taken on a stale read deletes a live child (Sieve's stale states).
 * The buggy operator cleans up after its Widgets itself: when a Widget is not in its cache,
 * it deletes the Widget's children. Restarted against a lagging API server replica, its
 * cache syncs from a state that predates the Widget while its ConfigMaps are current: the
 * child's event asks for the Widget, the cache says it is gone, and the live child is
 * deleted (then recreated once the cache catches up, which the outcome alone would not
 * show: the oracle on deletions the reference never made does). The correct twin leaves
 * the children of a deleted Widget to the garbage collector (their owner references).
 */
import { configMaps, isNotFound } from '@ops/core';
import {
  childOf,
  type PlantedReconciler,
  patchWidgetStatus,
  readWidget,
  widget,
  widgetScenario,
} from './widget.js';

const reconcile =
  (buggy: boolean): PlantedReconciler =>
  async (manager, request) => {
    const owner = await readWidget(manager, request);
    if (!owner) {
      if (!buggy) return undefined;
      const children = await manager.client.list(configMaps, {
        namespace: request.namespace,
        labelSelector: `explore.ops.dev/widget=${request.name}`,
      });
      for (const child of children.items)
        await manager.client.delete(child).catch((error: unknown) => {
          if (!isNotFound(error)) throw error;
        });
      return undefined;
    }
    const name = `${request.name}-data`;
    await manager.client.apply(childOf(owner, name, owner.spec.value), {
      fieldManager: 'planted',
      force: true,
    });
    if (owner.status?.child !== name) await patchWidgetStatus(manager, request, { child: name });
    return undefined;
  };

const steps = [{ name: 'create the widget', apply: [widget('app', { value: 'one' })] }];

export const staleDeletionBuggy = widgetScenario('stale-deletion (buggy)', reconcile(true), steps);
export const staleDeletionCorrect = widgetScenario(
  'stale-deletion (correct)',
  reconcile(false),
  steps,
);
