import type { BenchContext, BenchmarkModule, BenchmarkResult } from '../benchmark.js';
import {
  type CacheVariant,
  clientNodeInformerVariant,
  opsInformerVariant,
} from '../harness/cache-variants.js';
import { formatNumber, formatRatio } from '../harness/format.js';
import { settledHeapUsed } from '../harness/gc.js';
import { parsedListVariant } from '../harness/parsed-list-variant.js';
import { addSample, median, ratio } from '../harness/stats.js';
import { sleep } from '../harness/wait.js';

const namespace = 'heap';

/**
 * Retained heap per cached object: V8's used heap after a full collection with a synced
 * cache, minus the same just before the cache was created, divided by the objects cached.
 * `@ops/core`'s Informer against the client-node informer, alternating, medians compared.
 */
export const heapPerObjectBenchmark: BenchmarkModule = {
  id: 'heap',
  title: 'Retained heap',
  description:
    'Heap retained per cached Pod after sync and a full GC: @ops/core Informer vs the client-node informer and vs the parsed list itself.',
  async run({ options, startServer, serverName, log }: BenchContext): Promise<BenchmarkResult> {
    const objects = options.objects;
    const server = await startServer();
    log(`seeding ${objects} Pods`);
    await server.seedPods(namespace, objects);
    // The floor: the list's items as JSON.parse makes them, kept in an array.
    const parsedList = parsedListVariant();
    const variants: CacheVariant[] = [opsInformerVariant(), clientNodeInformerVariant, parsedList];

    const measure = async (variant: CacheVariant): Promise<number> => {
      // Let closed sockets and timers of the previous run be released first.
      await sleep(100);
      const before = settledHeapUsed();
      const cache = await variant.sync(server, namespace, objects);
      // Steady state: the retained heap once any post-sync work of the cache has finished.
      await cache.settle?.();
      const after = settledHeapUsed();
      const held = cache.objects();
      await cache.stop();
      if (held !== objects) throw new Error(`${variant.label} held ${held} of ${objects} Pods`);
      return (after - before) / objects;
    };

    // Warm-up: code compiled and module-level caches filled before anything is measured.
    for (const variant of variants) await measure(variant);
    const samples: Record<string, number[]> = {};
    for (let round = 0; round < options.repeats; round++) {
      const order = round % 2 === 0 ? variants : [...variants].reverse();
      for (const variant of order) addSample(samples, variant.id, await measure(variant));
      log(`round ${round + 1}/${options.repeats} done`);
    }
    await server.stop();

    const opsBytes = median(samples.ops ?? []);
    const clientNodeBytes = median(samples['client-node'] ?? []);
    const opsToClientNode = ratio(opsBytes, clientNodeBytes);
    const parsedBytes = median(samples.parsed ?? []);
    return {
      id: this.id,
      title: this.title,
      metrics: [
        { name: '@ops/core Informer', value: opsBytes, unit: 'B/object' },
        { name: '@kubernetes/client-node informer', value: clientNodeBytes, unit: 'B/object' },
        { name: 'floor: JSON.parse of the list, items kept', value: parsedBytes, unit: 'B/object' },
        { name: 'ops / client-node', value: opsToClientNode, unit: '×' },
        { name: 'ops / floor', value: ratio(opsBytes, parsedBytes), unit: '×' },
      ],
      targets: [
        {
          target: 'ops ≤ 0.7× client-node per object',
          measured: formatRatio(opsToClientNode),
          met: opsToClientNode <= 0.7,
        },
      ],
      charts: [
        {
          title: `Retained heap per cached Pod (median bytes; lower is better)`,
          unit: 'B',
          bars: [
            { label: '@ops/core Informer', value: opsBytes },
            { label: '@kubernetes/client-node informer', value: clientNodeBytes },
            { label: 'floor: parsed list items', value: parsedBytes },
          ],
        },
      ],
      notes: [
        `${objects} Pods from ${serverName}; heapUsed after two forced full GCs, with the cache synced and referenced, minus the same before it was created; ${formatNumber(opsBytes / 1024)} KB vs ${formatNumber(clientNodeBytes / 1024)} KB per object. The client-node figure is its typed model objects (V1Pod classes, Date fields) as its informer keeps them; the floor is the plain objects JSON.parse makes of the list, kept in one array.`,
      ],
      samples: { bytesPerObject: samples },
    };
  },
};
