import {
  createOrUpdate,
  ignoreNotFound,
  type KubernetesObject,
  setControllerReference,
} from '@ops/core';
import { labelSelectorPredicate } from '@ops/core/controller';
import type { BenchContext, BenchmarkModule, BenchmarkResult } from '../benchmark.js';
import { formatNumber } from '../harness/format.js';
import { startManager } from '../harness/manager.js';
import { sleep, waitUntil } from '../harness/wait.js';

const namespace = 'steady';
const writeVerbs = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

/**
 * Zero writes at rest: a Manager controller keeps a copy of each of N source ConfigMaps with
 * `createOrUpdate` (owner reference, labels, data), and asks to be requeued every few
 * hundred milliseconds, so it keeps reconciling every object while nothing changes. Once
 * settled, API writes are counted over a quiet period, by the client and by the server.
 */
export const steadyWritesBenchmark: BenchmarkModule = {
  id: 'steady-writes',
  title: 'Zero writes at rest',
  description:
    'API writes while nothing changes: a createOrUpdate controller over N objects, resyncing, over a quiet period (must be 0).',
  async run({ options, startServer, serverKind, log }: BenchContext): Promise<BenchmarkResult> {
    const objects = options.steadyObjects;
    const resyncMs = Math.max(200, Math.floor(options.quietMs / 4));
    const server = await startServer();
    await server.seedConfigMaps(namespace, 'source', objects, { role: 'source' });
    let clientWrites = 0;
    let reconciles = 0;
    let failures = 0;
    const running = await startManager(
      server,
      namespace,
      (manager) => {
        manager
          .controller('copier')
          .for(
            { apiVersion: 'v1', kind: 'ConfigMap' },
            { predicates: [labelSelectorPredicate('role=source')] },
          )
          .owns({ apiVersion: 'v1', kind: 'ConfigMap' })
          .withOptions({ maxConcurrentReconciles: 4 })
          .complete(async ({ name }) => {
            reconciles++;
            try {
              const source = await ignoreNotFound(
                manager.client.get<KubernetesObject>('v1', 'ConfigMap', name, namespace),
              );
              if (source?.metadata?.labels?.role !== 'source') return;
              const copy: KubernetesObject = {
                apiVersion: 'v1',
                kind: 'ConfigMap',
                metadata: { name: `${name}-copy`, namespace },
              };
              await createOrUpdate(manager.client, copy, (configMap) => {
                configMap.metadata = {
                  ...configMap.metadata,
                  labels: { ...configMap.metadata?.labels, role: 'copy' },
                };
                configMap.data = { ...(source.data as Record<string, string>) };
                setControllerReference(source, configMap);
              });
            } catch (error) {
              failures++;
              throw error;
            }
            return { requeueAfterMs: resyncMs };
          });
      },
      {
        onRequest: (verb) => {
          if (writeVerbs.has(verb)) clientWrites++;
        },
      },
    );
    log(`waiting for ${objects} copies`);
    await waitUntil(
      () => running.manager.cache.objectCounts().some((entry) => entry.count >= 2 * objects),
      `${objects} copies to be created`,
      120_000,
      50,
    );
    // Settled: no write for a full resync period.
    let last = clientWrites;
    for (;;) {
      await sleep(resyncMs + 100);
      if (clientWrites === last) break;
      last = clientWrites;
    }
    const settleWrites = clientWrites;
    const serverBefore = await server.writes(namespace, 'configmaps');
    const revisionBefore = await server.revision(namespace, 'configmaps');
    const reconcilesBefore = reconciles;
    log(`settled after ${settleWrites} writes; quiet for ${options.quietMs} ms`);
    await sleep(options.quietMs);
    const quietClientWrites = clientWrites - settleWrites;
    const quietServerWrites = (await server.writes(namespace, 'configmaps')) - serverBefore;
    const revisionAfter = await server.revision(namespace, 'configmaps');
    const revisionMoved = revisionAfter !== revisionBefore;
    const quietReconciles = reconciles - reconcilesBefore;
    await running.stop();
    const writes = Math.max(quietClientWrites, quietServerWrites);
    return {
      id: this.id,
      title: this.title,
      metrics: [
        {
          name: 'API writes in the quiet period (server count)',
          value: quietServerWrites,
          unit: 'writes',
        },
        {
          name: 'API writes in the quiet period (client count)',
          value: quietClientWrites,
          unit: 'writes',
        },
        { name: 'reconciles in the quiet period', value: quietReconciles, unit: 'reconciles' },
        { name: 'writes to settle', value: settleWrites, unit: 'writes' },
      ],
      targets: [
        {
          target: '0 writes while nothing changes',
          measured: `${writes} writes in ${formatNumber(options.quietMs / 1000)} s (${quietReconciles} reconciles)`,
          met: writes === 0 && !revisionMoved,
        },
      ],
      charts: [],
      notes: [
        `${objects} source ConfigMaps, each copied with createOrUpdate (labels, data, controller reference), requeued every ${resyncMs} ms; the quiet period starts after a resync period without writes. The server counts every ConfigMap write request it handles (no-op updates too; ${serverKind === 'real' ? "kube-apiserver's apiserver_request_total" : 'counted in the server process'}); the ConfigMaps' resourceVersions ${revisionMoved ? `moved (${revisionBefore} -> ${revisionAfter})` : 'did not move'}. Reconcile failures: ${failures}.`,
      ],
      samples: {
        settleWrites,
        quietClientWrites,
        quietServerWrites,
        revisionMoved,
        quietReconciles,
        failures,
      },
    };
  },
};
