import {
  type ConfigMap,
  configMaps,
  createOrUpdate,
  ignoreNotFound,
  Manager,
  namespaces,
} from '@ops/core';
import { labelSelectorPredicate } from '@ops/core/controller';
import { setupSignalHandler } from '@ops/core/manager';
import { parseLabelSelector } from '@ops/core/meta';

// Copies the ConfigMap default/shared-settings into every namespace labelled
// copy-settings=true, and keeps the copies in step with the original.
const selector = parseLabelSelector('copy-settings=true');
const manager = new Manager(); // finds its kubeconfig as kubectl does; :8080 metrics, :8081 probes

manager
  .controller('settings-copier')
  // Reconcile requests are namespaces: one per labelled namespace.
  .for(namespaces, { predicates: [labelSelectorPredicate('copy-settings=true')] })
  // A change to the original re-syncs every labelled namespace (read from the shared cache).
  .watches(configMaps, (configMap) =>
    configMap.metadata.namespace === 'default' && configMap.metadata.name === 'shared-settings'
      ? manager.cache
          .list('v1', 'Namespace', { labelSelector: selector })
          .map((ns) => ({ namespace: '', name: ns.metadata?.name ?? '' }))
      : [],
  )
  .complete(async ({ name }, { log }) => {
    // Level-based: look at the world as it is now, whatever event woke us up.
    const namespace = await ignoreNotFound(manager.client.get(namespaces, name));
    if (
      !namespace ||
      namespace.metadata.deletionTimestamp ||
      !selector.matches(namespace.metadata.labels)
    )
      return;
    const source = await ignoreNotFound(
      manager.client.get(configMaps, 'shared-settings', 'default'),
    );
    if (!source) return;
    const copy: ConfigMap = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'shared-settings', namespace: name },
    };
    const { result } = await createOrUpdate(manager.client, copy, (configMap) => {
      configMap.data = { ...source.data };
    });
    if (result !== 'unchanged') log.info({ result }, 'copied shared-settings');
  });

// Runs until SIGTERM or Ctrl-C, then stops gracefully.
await manager.start(setupSignalHandler());
