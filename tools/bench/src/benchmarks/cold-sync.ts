import type { BenchContext, BenchmarkModule, BenchmarkResult, Metric } from '../benchmark.js';
import {
  type CacheVariant,
  clientNodeInformerVariant,
  fluentWatchVariant,
  opsInformerVariant,
} from '../harness/cache-variants.js';
import { formatNumber, formatRatio } from '../harness/format.js';
import { collectGarbage } from '../harness/gc.js';
import { RawHttp } from '../harness/raw-http.js';
import { addSample, median, ratio } from '../harness/stats.js';

const namespace = 'cold-sync';

/** A measured way to get the Pods into memory: a cache variant, or the JSON.parse floor. */
interface Contender {
  id: string;
  label: string;
  /** One timed run in milliseconds; throws when it does not end with every object. */
  once(): Promise<number>;
}

/**
 * Cold sync: from nothing to every Pod of a namespace cached, for `@ops/core`'s Informer
 * and the peers, against the floor of `JSON.parse` of the very same list bytes in this
 * process. Runs alternate their order between repetitions and the medians are compared.
 */
export const coldSyncBenchmark: BenchmarkModule = {
  id: 'cold-sync',
  title: 'Cold sync',
  description:
    'Time until N Pods (about 3 KB of JSON each) are cached, per library, as a ratio to JSON.parse of the same list bytes and to @ops/core.',
  async run({ options, startServer, serverName, log }: BenchContext): Promise<BenchmarkResult> {
    const objects = options.objects;
    const server = await startServer();
    log(`seeding ${objects} Pods`);
    await server.seedPods(namespace, objects);
    const http = new RawHttp(server);
    const listBytes = await http.get(`/api/v1/namespaces/${namespace}/pods`);
    http.close();
    const notes: string[] = [
      `${objects} Pods, ${formatNumber(listBytes.length / objects / 1024)} KB of JSON each (${formatNumber(listBytes.length / 1e6)} MB per list, managedFields included where the server writes them), from ${serverName} over ${server.url.startsWith('https:') ? 'HTTPS' : 'plain HTTP'}, the server in processes of its own.`,
      'Floor: JSON.parse of the same list bytes (one unpaged LIST body) in the same process, nothing else. "bare HTTP GET + JSON.parse" adds fetching those bytes (one unpaged LIST, no client library): the least any client that talks to the server can do.',
      '"@ops/core Informer" uses its defaults (pages of 1,000, each received on its transport\'s helper thread while the previous one is parsed); "one page" asks for everything in one LIST, as the client-node informer and the fluent watch do.',
      "Before each timed run both processes collect their garbage, so no run pays for the previous one's.",
    ];

    const floor: Contender = {
      id: 'floor',
      label: 'floor: JSON.parse of the list',
      async once() {
        const start = performance.now();
        const parsed = JSON.parse(listBytes.toString('utf8')) as { items?: unknown[] };
        const ms = performance.now() - start;
        if (parsed.items?.length !== objects)
          throw new Error(`the list held ${parsed.items?.length} of ${objects} Pods`);
        return ms;
      },
    };
    const bareHttp: Contender = {
      id: 'bare-http',
      label: 'bare HTTP GET + JSON.parse',
      async once() {
        const client = new RawHttp(server);
        const start = performance.now();
        const bytes = await client.get(`/api/v1/namespaces/${namespace}/pods`);
        const parsed = JSON.parse(bytes.toString('utf8')) as { items?: unknown[] };
        const ms = performance.now() - start;
        client.close();
        if (parsed.items?.length !== objects)
          throw new Error(`the list held ${parsed.items?.length} of ${objects} Pods`);
        return ms;
      },
    };
    const fromVariant = (variant: CacheVariant): Contender => ({
      id: variant.id,
      label: variant.label,
      async once() {
        const cache = await variant.sync(server, namespace, objects);
        await cache.stop();
        return cache.ms;
      },
    });
    const contenders: Contender[] = [
      floor,
      bareHttp,
      fromVariant(opsInformerVariant()),
      fromVariant(clientNodeInformerVariant),
      fromVariant(fluentWatchVariant),
      fromVariant(opsInformerVariant({ pageSize: objects, label: '@ops/core Informer, one page' })),
    ];

    // Warm-up: one untimed run of each, so no contender pays for first-time compilation.
    log('warming up');
    const failed = new Map<string, string>();
    for (const contender of contenders) {
      try {
        await contender.once();
      } catch (error) {
        failed.set(contender.id, (error as Error).message);
        log(`${contender.label} failed: ${(error as Error).message}`);
      }
    }
    const samples: Record<string, number[]> = {};
    for (let round = 0; round < options.repeats; round++) {
      const order = round % 2 === 0 ? contenders : [...contenders].reverse();
      for (const contender of order) {
        if (failed.has(contender.id)) continue;
        await server.collectGarbage();
        collectGarbage();
        const ms = await contender.once();
        addSample(samples, contender.id, ms);
      }
      log(`round ${round + 1}/${options.repeats} done`);
    }
    await server.stop();

    const medians = new Map<string, number>();
    for (const contender of contenders) {
      const values = samples[contender.id];
      if (values !== undefined) medians.set(contender.id, median(values));
    }
    const floorMs = medians.get('floor') ?? Number.NaN;
    const opsMs = medians.get('ops') ?? Number.NaN;
    const metrics: Metric[] = [];
    const bareMs = medians.get('bare-http');
    for (const contender of contenders) {
      const ms = medians.get(contender.id);
      if (ms === undefined) {
        notes.push(`${contender.label}: not measured (${failed.get(contender.id)}).`);
        continue;
      }
      metrics.push({ name: `${contender.label}: median`, value: ms, unit: 'ms' });
      if (contender.id !== 'floor')
        metrics.push({ name: `${contender.label} / floor`, value: ratio(ms, floorMs), unit: '×' });
      if (contender.id !== 'ops' && contender.id !== 'floor' && contender.id !== 'bare-http')
        metrics.push({ name: `${contender.label} / ops`, value: ratio(ms, opsMs), unit: '×' });
    }
    if (bareMs !== undefined)
      metrics.push({
        name: '@ops/core Informer / bare HTTP GET + JSON.parse',
        value: ratio(opsMs, bareMs),
        unit: '×',
      });
    const peers = ['client-node', 'fluent'].filter((id) => medians.has(id));
    const slowerPeers = peers.filter((id) => (medians.get(id) ?? 0) > opsMs);
    const opsToFloor = ratio(opsMs, floorMs);
    return {
      id: this.id,
      title: this.title,
      metrics,
      targets: [
        {
          target: 'ops faster than every peer',
          measured: peers
            .map((id) => `${id} ${formatRatio(ratio(medians.get(id) ?? Number.NaN, opsMs))} of ops`)
            .join(', '),
          met: peers.length > 0 && slowerPeers.length === peers.length,
        },
        {
          target: 'ops within 1.5× of the floor',
          measured: formatRatio(opsToFloor),
          met: opsToFloor <= 1.5,
        },
      ],
      charts: [
        {
          title: `Cold sync of ${objects} Pods (median ms; lower is better)`,
          unit: 'ms',
          bars: contenders
            .filter((contender) => medians.has(contender.id))
            .map((contender) => ({
              label: contender.label,
              value: medians.get(contender.id) ?? 0,
            })),
        },
      ],
      notes,
      samples: { listBytes: listBytes.length, ms: samples, failed: Object.fromEntries(failed) },
    };
  },
};
