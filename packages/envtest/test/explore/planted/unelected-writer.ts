/**
 * Bug class: a write made outside leader election, so that a replica that does not lead
 * writes the objects the leader reconciles (two writers at once: what leader election is
 * for). The operator's controller makes the Widget's child; beside it, a runnable mirrors
 * each child's value into its Widget's `status.value` from an event handler on the shared
 * ConfigMap cache. The buggy operator registers that runnable with `needLeaderElection:
 * false` ("it only mirrors, every replica may do it"): a warm standby's caches are synced
 * and its handlers run, so the standby writes the status too, beside the leader. One
 * replica alone (the reference run, every other perturbation) shows nothing; `leader-loss`,
 * which runs a standby from the start, does. The correct twin leaves the runnable elected
 * (the default): it runs on the leader only, and stops when its leadership signal aborts.
 */
import { configMaps, type Manager } from '@ops/core';
import { childOf, forWidget, patchWidgetStatus, widget, widgetScenario } from './widget.js';

const reconcile = forWidget(async (owner, manager, request) => {
  const name = `${request.name}-data`;
  await manager.client.apply(childOf(owner, name, owner.spec.value), {
    fieldManager: 'planted',
    force: true,
  });
  if (owner.status?.child !== name) await patchWidgetStatus(manager, request, { child: name });
  return undefined;
});

type Runnable = Parameters<Manager['add']>[0];

/** The runnable that mirrors each child's value into its Widget's status. */
function statusMirror(manager: Manager, elected: boolean): Runnable {
  return {
    needLeaderElection: elected,
    async start(signal) {
      const informer = await manager.cache.informerFor(configMaps.apiVersion, configMaps.kind);
      const mirror = (object: {
        metadata?: { name?: string; namespace?: string; labels?: Record<string, string> };
        data?: Record<string, string>;
      }) => {
        const owner = object.metadata?.labels?.['explore.ops.dev/widget'];
        if (signal.aborted || owner === undefined) return;
        const namespace = object.metadata?.namespace ?? '';
        const request = { name: owner, namespace };
        // Each attempt reads the child anew: a retry never writes an older value back.
        const attempt = async (): Promise<void> => {
          const child = await manager.client.get(
            configMaps,
            object.metadata?.name ?? '',
            namespace,
          );
          const value = child.data?.value;
          if (value === undefined) return;
          const current = await manager.client.get(
            { apiVersion: 'explore.ops.dev/v1', kind: 'Widget' },
            request.name,
            request.namespace,
          );
          const status = (current as { status?: { value?: string } }).status;
          if (status?.value !== value) await patchWidgetStatus(manager, request, { value });
        };
        // A failed write is retried (not this class's bug), until the runnable stops.
        const retried = (): void => {
          attempt().catch((error: unknown) => {
            manager.log.warn({ err: error }, 'could not mirror the value; retrying');
            if (!signal.aborted) setTimeout(retried, 250);
          });
        };
        retried();
      };
      const registration = informer.addEventHandler({
        onAdd: (object) => mirror(object),
        onUpdate: (_old, object) => mirror(object),
      });
      await new Promise<void>((resolve) => {
        if (signal.aborted) resolve();
        else signal.addEventListener('abort', () => resolve(), { once: true });
      });
      registration.remove();
    },
  };
}

const steps = [{ name: 'create the widget', apply: [widget('app', { value: 'one' })] }];

function scenario(name: string, elected: boolean) {
  const base = widgetScenario(name, reconcile, steps);
  return {
    ...base,
    setup: async (manager: Manager) => {
      await base.setup(manager);
      manager.add(statusMirror(manager, elected));
    },
  };
}

export const unelectedWriterBuggy = scenario('unelected-writer (buggy)', false);
export const unelectedWriterCorrect = scenario('unelected-writer (correct)', true);
