import type { BenchContext, BenchmarkModule, BenchmarkResult } from '../benchmark.js';
import { formatNumber } from '../harness/format.js';
import { collectGarbage } from '../harness/gc.js';
import { RawHttp } from '../harness/raw-http.js';
import { median, percentile, ratio } from '../harness/stats.js';

const namespace = 'apiserver';
const fanoutNamespace = 'fanout';
const seqAnnotation = 'bench.ops.dev/seq';

/**
 * The API server itself, to show whether it is what limits the other benchmarks: an
 * unpaged LIST of N Pods over bare HTTP (against JSON.parse of its body, side by side), and
 * one change fanned out to many watchers.
 */
export const apiServerBenchmark: BenchmarkModule = {
  id: 'apiserver',
  title: 'API server',
  description:
    'LIST of N Pods (ms, MB/s, vs JSON.parse of the body) and the time until one change reaches every one of 50 watchers.',
  async run({ options, startServer, serverName, log }: BenchContext): Promise<BenchmarkResult> {
    const objects = options.objects;
    const server = await startServer();
    log(`seeding ${objects} Pods`);
    await server.seedPods(namespace, objects);
    await server.seedConfigMaps(fanoutNamespace, 'fan', 1);
    const http = new RawHttp(server);
    const path = `/api/v1/namespaces/${namespace}/pods`;

    // LIST, and parsing what it returned, alternating.
    let bytes = (await http.get(path)).length;
    const listMs: number[] = [];
    const parseMs: number[] = [];
    for (let round = 0; round < options.repeats + 1; round++) {
      collectGarbage();
      const start = performance.now();
      const body = await http.get(path);
      const fetched = performance.now() - start;
      bytes = body.length;
      collectGarbage();
      const parseStart = performance.now();
      const parsed = JSON.parse(body.toString('utf8')) as { items?: unknown[] };
      const parsedIn = performance.now() - parseStart;
      if (parsed.items?.length !== objects)
        throw new Error(`the LIST returned ${parsed.items?.length} of ${objects} Pods`);
      // The first round warms up both.
      if (round > 0) {
        listMs.push(fetched);
        parseMs.push(parsedIn);
      }
    }
    const list = median(listMs);
    const parse = median(parseMs);

    // Fan-out: every watcher reports each sequence number it sees.
    log(`fanning ${options.fanoutChanges} changes out to ${options.watchers} watchers`);
    const current = JSON.parse(
      (await http.get(`/api/v1/namespaces/${fanoutNamespace}/configmaps`)).toString('utf8'),
    ) as { metadata: { resourceVersion: string } };
    let waiting:
      | { seq: string; remaining: Set<number>; done: PromiseWithResolvers<number> }
      | undefined;
    const watches = await Promise.all(
      Array.from({ length: options.watchers }, (_, watcher) =>
        http.watch(
          `/api/v1/namespaces/${fanoutNamespace}/configmaps?watch=true&resourceVersion=${current.metadata.resourceVersion}`,
          (line) => {
            const now = performance.now();
            const event = JSON.parse(line) as {
              object?: { metadata?: { annotations?: Record<string, string> } };
            };
            const seq = event.object?.metadata?.annotations?.[seqAnnotation];
            if (waiting === undefined || seq !== waiting.seq) return;
            waiting.remaining.delete(watcher);
            if (waiting.remaining.size === 0) waiting.done.resolve(now);
          },
        ),
      ),
    );
    const fanoutMs: number[] = [];
    for (let change = 0; change <= options.fanoutChanges; change++) {
      const done = Promise.withResolvers<number>();
      waiting = {
        seq: String(change),
        remaining: new Set(Array.from({ length: options.watchers }, (_, i) => i)),
        done,
      };
      const timer = setTimeout(
        () => done.reject(new Error(`change ${change} did not reach every watcher within 10 s`)),
        10_000,
      );
      const start = performance.now();
      await http.send(
        'PATCH',
        `/api/v1/namespaces/${fanoutNamespace}/configmaps/fan-0`,
        { metadata: { annotations: { [seqAnnotation]: String(change) } } },
        'application/merge-patch+json',
      );
      const end = await done.promise;
      clearTimeout(timer);
      // Change 0 warms up.
      if (change > 0) fanoutMs.push(end - start);
    }
    for (const watch of watches) watch.close();
    http.close();
    await server.stop();

    const mbPerSecond = bytes / 1e6 / (list / 1000);
    return {
      id: this.id,
      title: this.title,
      metrics: [
        { name: `LIST of ${objects} Pods (unpaged, bare HTTP)`, value: list, unit: 'ms' },
        { name: 'LIST throughput', value: mbPerSecond, unit: 'MB/s' },
        { name: 'LIST / JSON.parse of its body', value: ratio(list, parse), unit: '×' },
        {
          name: `one change to all ${options.watchers} watchers, median`,
          value: median(fanoutMs),
          unit: 'ms',
        },
        {
          name: `one change to all ${options.watchers} watchers, max`,
          value: percentile(fanoutMs, 100),
          unit: 'ms',
        },
      ],
      targets: [],
      charts: [
        {
          title: `LIST of ${objects} Pods vs parsing it (median ms)`,
          unit: 'ms',
          bars: [
            { label: 'server LIST, received in full', value: list },
            { label: 'client JSON.parse of that body', value: parse },
          ],
        },
      ],
      notes: [
        `${serverName}. LIST: ${formatNumber(bytes / 1e6)} MB per list; the time from sending the GET to holding the whole body (server in its own process). Fan-out: time from sending a merge-patch until the last of ${options.watchers} watch streams delivered the event, over ${options.fanoutChanges} changes made one at a time.`,
      ],
      samples: { bytes, listMs, parseMs, fanoutMs },
    };
  },
};
