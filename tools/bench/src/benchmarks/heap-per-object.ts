import type { BenchContext, BenchmarkModule, BenchmarkResult } from '../benchmark.js';
import {
  type CacheVariant,
  clientNodeInformerVariant,
  opsInformerVariant,
} from '../harness/cache-variants.js';
import { formatNumber, formatRatio } from '../harness/format.js';
import { parsedListVariant } from '../harness/parsed-list-variant.js';
import { retainedHeapSamples } from '../harness/retained-heap.js';
import { median, ratio } from '../harness/stats.js';

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

    const samples = await retainedHeapSamples(
      variants,
      server,
      namespace,
      objects,
      options.repeats,
      log,
    );
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
