/**
 * Bug class: a non-idempotent update that flips back when retried after a timeout that
 * came after the write was applied (Acto's "non-idempotent reconcile"). The buggy operator
 * toggles its child's flag whenever the Widget's `spec.enabled` differs from what its status
 * says it applied: a write that was applied but answered with a timeout (or a crash before
 * the status write) is retried, and the retry toggles the flag back. The correct twin sets
 * the flag from the spec, so a retry writes the same value.
 */
import { type ConfigMap, isNotFound } from '@ops/core';
import { childOf, forWidget, patchWidgetStatus, widget, widgetScenario } from './widget.js';

const reconcile = (buggy: boolean) =>
  forWidget(async (owner, manager, request) => {
    const enabled = owner.spec.enabled === true;
    const name = `${request.name}-flag`;
    let child: ConfigMap | undefined;
    try {
      child = await manager.client.get<ConfigMap>('v1', 'ConfigMap', name, request.namespace);
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    if (!child) {
      await manager.client.create(childOf(owner, name, enabled ? 'on' : 'off'));
    } else if (owner.status?.enabled !== enabled) {
      const flipped = child.data?.value === 'on' ? 'off' : 'on';
      const value = buggy ? flipped : enabled ? 'on' : 'off';
      await manager.client.update({ ...child, data: { ...child.data, value } });
    }
    if (owner.status?.enabled !== enabled) await patchWidgetStatus(manager, request, { enabled });
    return undefined;
  });

const steps = [
  { name: 'create the widget, disabled', apply: [widget('app', { value: 'x', enabled: false })] },
  { name: 'enable it', apply: [widget('app', { value: 'x', enabled: true })] },
];

export const flipOnRetryBuggy = widgetScenario('flip-on-retry (buggy)', reconcile(true), steps);
export const flipOnRetryCorrect = widgetScenario(
  'flip-on-retry (correct)',
  reconcile(false),
  steps,
);
