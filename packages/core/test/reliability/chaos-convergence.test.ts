import type { KubernetesObject } from '@ops/api';
import { setControllerReference } from '@ops/api';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ignoreNotFound,
  isConflict,
  isTooManyRequests,
} from '../../src/client/api-error-helpers.js';
import { createOrUpdate } from '../../src/client/create-or-update.js';
import { Manager } from '../../src/manager/manager.js';
import { BucketRateLimiter } from '../../src/queue/bucket-rate-limiter.js';
import { ItemExponentialFailureRateLimiter } from '../../src/queue/item-exponential-failure-rate-limiter.js';
import { MaxOfRateLimiter } from '../../src/queue/max-of-rate-limiter.js';
import {
  eventually,
  type FaultyApiServer,
  sleep,
  startFaultyApiServer,
  untilNoneRemain,
} from './faulty-api-server.js';

/**
 * Chaos convergence: a controller derives a ConfigMap from each of 1,000 Widgets while a
 * driver keeps changing the Widgets (deleting and recreating some, adding and removing
 * short-lived ones) and the API server misbehaves — watches dropped at random, restarts that
 * lose the watch history (410 Gone, relists), a tiny watch history (more 410s), failed
 * watches and throttled lists, 409 Conflicts and 429 Too Many Requests on a fraction of the
 * controller's writes. Once the chaos stops, every derived ConfigMap must hold its Widget's
 * final spec, and the manager's cache must equal the server's state, object for object.
 */

const namespace = 'chaos';
const widgetCount = 1_000;
const rounds = 8;
const roundMs = 1_000;
/** In round r, the widgets i with i % recreateEvery === r are deleted and created again. */
const recreateEvery = 25;
/** Widgets created in a round and deleted in the next. */
const temporaryPerRound = 20;
const temporary = (round: number, j: number) => ({ name: `temporary-${round}-${j}`, namespace });
/** Restarts (history lost) during the run: one in the middle of each of these rounds. */
const restartRounds = new Set([2, 4, 6]);
const Widget = { apiVersion: 'example.com/v1', kind: 'Widget' } as const;

interface WidgetObject extends KubernetesObject {
  spec?: { size?: number };
}
interface ConfigMapObject extends KubernetesObject {
  data?: Record<string, string>;
}

const widgetName = (i: number) => `widget-${String(i).padStart(4, '0')}`;
const derivedName = (widget: string) => `${widget}-derived`;
/** The size a round gives widget `i`; the last round's value is the final spec. */
const sizeIn = (round: number, i: number) => round * 10_000 + i;

let cluster: FaultyApiServer;

beforeAll(async () => {
  cluster = await startFaultyApiServer();
  const { admin } = cluster;
  await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  await admin.create({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: { type: 'object', properties: { size: { type: 'integer' } } },
              },
            },
          },
        },
      ],
    },
  } as KubernetesObject);
  await eventually(
    async () => {
      await admin.list(Widget.apiVersion, Widget.kind, { namespace });
      return true;
    },
    () => 'the Widget CRD is not served',
    10_000,
  );
  await inParallel(widgetCount, 16, (i) =>
    admin.create<WidgetObject>({
      ...Widget,
      metadata: { name: widgetName(i), namespace },
      spec: { size: sizeIn(0, i) },
    }),
  );
}, 60_000);

afterAll(async () => {
  await cluster?.stop();
});

/** Runs `task(0..count-1)` with at most `concurrency` at once. */
async function inParallel(
  count: number,
  concurrency: number,
  task: (i: number) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

function shuffled(count: number): number[] {
  const order = Array.from({ length: count }, (_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  return order;
}

describe('chaos convergence', () => {
  it('reconciles 1,000 objects to their final spec and ends with a cache equal to the server, through dropped watches, restarts, 410s, 409s and 429s', async () => {
    const { admin } = cluster;
    const seen = { reconciles: 0, conflicts: 0, throttled: 0 };
    const manager = new Manager({
      kubeConfig: cluster.server.kubeConfig,
      logger: pino({ level: 'silent' }),
      metricsBindAddress: false,
      healthProbeBindAddress: false,
      namespace,
      // Informers retry failed lists and watches sooner than client-go's 800 ms → 30 s, so
      // they go through many more fail-relist cycles in a run of seconds; the paths are the
      // same.
      informerDefaults: { backoff: { initialMs: 50, maxMs: 1_000 } },
    });
    manager
      .controller('widget')
      .for(Widget)
      .owns({ apiVersion: 'v1', kind: 'ConfigMap' })
      .withOptions({
        maxConcurrentReconciles: 4,
        // The default overall bucket (10 qps) would spread the hundreds of retries the
        // injected faults cause over minutes; per-key backoff is kept, capped at 1 s.
        rateLimiter: new MaxOfRateLimiter(
          new ItemExponentialFailureRateLimiter<string>(5, 1_000),
          new BucketRateLimiter<string>(500, 1_000),
        ),
      })
      .complete(async ({ namespace: ns, name }) => {
        seen.reconciles++;
        const widget = await ignoreNotFound(
          manager.client.get<WidgetObject>(Widget.apiVersion, Widget.kind, name, ns),
        );
        if (widget === undefined) return;
        try {
          await createOrUpdate<ConfigMapObject>(
            manager.client,
            {
              apiVersion: 'v1',
              kind: 'ConfigMap',
              metadata: { name: derivedName(name), namespace: ns },
            },
            (configMap) => {
              setControllerReference(widget, configMap);
              configMap.metadata = {
                ...configMap.metadata,
                labels: { ...configMap.metadata?.labels, 'example.com/derived-from': 'widget' },
              };
              configMap.data = { size: String(widget.spec?.size) };
            },
          );
        } catch (error) {
          if (isConflict(error)) seen.conflicts++;
          if (isTooManyRequests(error)) seen.throttled++;
          throw error;
        }
      });

    // History small enough that any watch gap during the driver's writes ends in 410 Gone.
    await cluster.setHistorySize(50);
    for (const verb of ['create', 'update', 'patch']) {
      await cluster.addFault({ verb, resource: 'configmaps', code: 409, probability: 0.1 });
      await cluster.addFault({ verb, resource: 'configmaps', code: 429, probability: 0.05 });
    }
    // Informers' lists are throttled and some watches fail outright, too.
    await cluster.addFault({ verb: 'list', code: 429, probability: 0.2 });
    await cluster.addFault({ verb: 'watch', code: 500, probability: 0.2 });

    const stop = new AbortController();
    const running = manager.start(stop.signal);
    const chaos = { drops: 0, restarts: 0 };
    let driving = true;
    let recreated = 0;
    const dropper = (async () => {
      while (driving) {
        await sleep(50 + Math.random() * 300);
        if (!driving) break;
        await cluster.dropWatches();
        chaos.drops++;
      }
    })();
    try {
      const started = Date.now();
      for (let round = 1; round <= rounds; round++) {
        // Rounds last at least `roundMs`: writes in bursts, then quiet, so dropped watches
        // sometimes resume in place and sometimes find their resourceVersion gone (410).
        const roundEnds = Date.now() + roundMs;
        // Short-lived widgets: created in one round, deleted for good in the next (after the
        // last round, all of them), so the cache must also notice objects that are gone.
        await inParallel(temporaryPerRound, 4, async (j) => {
          if (round > 1) await admin.delete({ ...Widget, metadata: temporary(round - 1, j) });
          if (round < rounds)
            await admin.create({ ...Widget, metadata: temporary(round, j), spec: { size: 0 } });
        });
        let done = 0;
        const order = shuffled(widgetCount);
        await inParallel(widgetCount, 8, async (k) => {
          const i = order[k] as number;
          const metadata = { name: widgetName(i), namespace };
          if (i % recreateEvery === round) {
            // Deleted and created again: a new object under the same name (its derived
            // ConfigMap, owned by the old one, is garbage-collected and derived anew).
            await admin.delete({ ...Widget, metadata });
            recreated++;
            await admin.create<WidgetObject>({
              ...Widget,
              metadata,
              spec: { size: sizeIn(round, i) },
            });
          } else {
            await admin.patch(
              { ...Widget, metadata },
              { spec: { size: sizeIn(round, i) } },
              'merge',
            );
          }
          if (++done === widgetCount / 2 && restartRounds.has(round)) {
            await cluster.restartLosingHistory();
            chaos.restarts++;
          }
        });
        await sleep(roundEnds - Date.now());
      }
      driving = false;
      await dropper;
      await cluster.clearFaults();
      const chaosMs = Date.now() - started;

      // Every derived ConfigMap holds its Widget's final size (read from the server). Waited
      // for while the number still wrong goes down (a CI run's Node.js 22 pass, on a loaded
      // machine, had 626 left after 90 s and was still converging); 30 s without progress fails.
      let wrong: string[] = [];
      await untilNoneRemain(
        async () => {
          const derived = (
            await admin.list<ConfigMapObject>('v1', 'ConfigMap', {
              namespace,
              labelSelector: 'example.com/derived-from=widget',
            })
          ).items;
          const byName = new Map(derived.map((cm) => [cm.metadata?.name, cm.data?.size]));
          wrong = [];
          for (let i = 0; i < widgetCount; i++) {
            const size = byName.get(derivedName(widgetName(i)));
            if (size !== String(sizeIn(rounds, i)))
              wrong.push(`${widgetName(i)}: ${size ?? 'missing'}`);
          }
          return wrong.length + Math.abs(derived.length - widgetCount);
        },
        () =>
          `${wrong.length} derived ConfigMaps are not at their final spec, e.g. ${wrong.slice(0, 5).join(', ')}`,
        30_000,
      );

      // The cache holds exactly what a fresh LIST returns: same names, same resourceVersions.
      const kinds = [Widget, { apiVersion: 'v1', kind: 'ConfigMap' }];
      let differences: string[] = [];
      await eventually(
        async () => {
          differences = [];
          for (const { apiVersion, kind } of kinds) {
            const live = (await admin.list(apiVersion, kind, { namespace })).items;
            const cached = manager.cache.list(apiVersion, kind, { namespace });
            differences.push(...compare(kind, live, cached));
          }
          return differences.length === 0;
        },
        () =>
          `the cache differs from the server: ${differences.slice(0, 5).join('; ')} (${differences.length} in all)`,
        45_000,
      );

      // The chaos really happened: relists after 410 Gone, and the controller saw the faults.
      const relists: string[] = [];
      for (const { apiVersion, kind } of kinds) {
        const stats = (await manager.cache.informerFor(apiVersion, kind, { namespace })).stats();
        expect(stats.goneRelists, `${kind} relists after 410 Gone`).toBeGreaterThan(0);
        relists.push(`${kind} ${stats.goneRelists} after 410 of ${stats.lists} lists`);
      }
      expect(chaos.restarts).toBe(restartRounds.size);
      expect(chaos.drops).toBeGreaterThan(0);
      expect(seen.conflicts).toBeGreaterThan(0);
      expect(seen.throttled).toBeGreaterThan(0);
      console.info(
        `chaos convergence: ${chaosMs} ms of chaos, ${chaos.drops} watch drops, ${chaos.restarts} restarts, ${recreated} widgets recreated (relists: ${relists.join(', ')}), ${seen.reconciles} reconciles, ${seen.conflicts} conflicts, ${seen.throttled} throttled`,
      );
    } finally {
      driving = false;
      await dropper;
      stop.abort();
      await running;
    }
    // Alone it takes about 10 s; in CI's test phase, every package's suite at once on 2
    // cores, it once took more than 80 s. What it checks is convergence, not speed: the
    // deadlines above are generous for the same reason.
  }, 600_000); // progress-bound waits inside; this only ends a run that hangs
});

/** The differences between a fresh LIST and the cached objects, by name and resourceVersion. */
function compare(kind: string, live: KubernetesObject[], cached: KubernetesObject[]): string[] {
  const versions = (objects: KubernetesObject[]) =>
    new Map(objects.map((o) => [o.metadata?.name ?? '', o.metadata?.resourceVersion ?? '']));
  const server = versions(live);
  const cache = versions(cached);
  const differences: string[] = [];
  for (const [name, version] of server) {
    const inCache = cache.get(name);
    if (inCache === undefined) differences.push(`${kind} ${name} missing from the cache`);
    else if (inCache !== version)
      differences.push(`${kind} ${name} cached at ${inCache}, server at ${version}`);
  }
  for (const name of cache.keys()) {
    if (!server.has(name)) differences.push(`${kind} ${name} cached but gone from the server`);
  }
  return differences;
}
