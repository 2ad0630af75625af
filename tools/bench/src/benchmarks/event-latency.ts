import type { BenchContext, BenchmarkModule, BenchmarkResult } from '../benchmark.js';
import { formatNumber } from '../harness/format.js';
import { startManager } from '../harness/manager.js';
import { RawHttp } from '../harness/raw-http.js';
import { percentile } from '../harness/stats.js';
import { sleep, waitUntil } from '../harness/wait.js';

const namespace = 'latency';
const seqAnnotation = 'bench.ops.dev/seq';

interface Write {
  sentAt: number;
  respondedAt?: number;
  reconciledAt?: number;
}

/**
 * Event-to-reconcile latency: a Manager controller over ConfigMaps while a writer updates
 * them through the API at a steady rate. Each write carries its sequence number in an
 * annotation; the reconciler notes when it starts for that number. Latency runs from the
 * write's response (as the writer sees it) to the reconcile start.
 */
export const eventLatencyBenchmark: BenchmarkModule = {
  id: 'latency',
  title: 'Event → reconcile',
  description:
    'Latency from an update’s API response to the start of its reconcile, p50/p99, at a steady write rate.',
  async run({ options, startServer, log }: BenchContext): Promise<BenchmarkResult> {
    const rate = options.latencyRate;
    const total = Math.max(1, Math.round((rate * options.latencyDurationMs) / 1000));
    // One object per write per second: each object changes once a second, so no two writes
    // to one object are coalesced unless reconciles fall a second behind.
    const objects = rate;
    const server = await startServer();
    await server.seedConfigMaps(namespace, 'cm', objects);
    const writes: Write[] = [];
    let reconciles = 0;
    const running = await startManager(server, namespace, (manager) => {
      manager
        .controller('latency')
        .for({ apiVersion: 'v1', kind: 'ConfigMap' })
        .complete(async ({ name }) => {
          const startedAt = performance.now();
          reconciles++;
          const object = await manager.client.get('v1', 'ConfigMap', name, namespace);
          const seq = object.metadata?.annotations?.[seqAnnotation];
          if (seq === undefined) return;
          const write = writes[Number(seq)];
          if (write !== undefined && write.reconciledAt === undefined)
            write.reconciledAt = startedAt;
        });
    });
    const initialReconciles = reconciles;
    const http = new RawHttp(server);
    log(`writing ${total} updates at ${rate}/s`);
    const begin = performance.now();
    const inFlight: Promise<void>[] = [];
    for (let seq = 0; seq < total; seq++) {
      const due = begin + (seq * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait);
      const write: Write = { sentAt: performance.now() };
      writes[seq] = write;
      inFlight.push(
        http
          .send(
            'PATCH',
            `/api/v1/namespaces/${namespace}/configmaps/cm-${seq % objects}`,
            { metadata: { annotations: { [seqAnnotation]: String(seq) } } },
            'application/merge-patch+json',
          )
          .then(() => {
            write.respondedAt = performance.now();
          }),
      );
    }
    await Promise.all(inFlight);
    const writingMs = performance.now() - begin;
    await waitUntil(
      () => writes.every((write) => write.reconciledAt !== undefined),
      'every write to be reconciled',
      5_000,
    ).catch(() => undefined);
    await running.stop();
    http.close();

    const fromResponse: number[] = [];
    const fromRequest: number[] = [];
    let beforeResponse = 0;
    for (const write of writes) {
      if (write.reconciledAt === undefined || write.respondedAt === undefined) continue;
      const latency = write.reconciledAt - write.respondedAt;
      if (latency < 0) beforeResponse++;
      fromResponse.push(Math.max(0, latency));
      fromRequest.push(write.reconciledAt - write.sentAt);
    }
    const missed = total - fromResponse.length;
    const p50 = percentile(fromResponse, 50);
    const p99 = percentile(fromResponse, 99);
    const achievedRate = (total * 1000) / writingMs;
    return {
      id: this.id,
      title: this.title,
      metrics: [
        { name: 'p50 from write response', value: p50, unit: 'ms' },
        { name: 'p99 from write response', value: p99, unit: 'ms' },
        { name: 'p99 from write request', value: percentile(fromRequest, 99), unit: 'ms' },
        { name: 'writes achieved', value: achievedRate, unit: '/s' },
        { name: 'writes never reconciled', value: missed, unit: 'writes' },
      ],
      targets: [
        {
          target: 'p99 < 10 ms (absolute)',
          measured: `${formatNumber(p99)} ms`,
          met: p99 < 10,
        },
      ],
      charts: [
        {
          title: `Event → reconcile latency at ${rate} writes/s (ms; lower is better)`,
          unit: 'ms',
          bars: [
            { label: 'p50 from write response', value: p50 },
            { label: 'p90 from write response', value: percentile(fromResponse, 90) },
            { label: 'p99 from write response', value: p99 },
            { label: 'max from write response', value: percentile(fromResponse, 100) },
          ],
        },
      ],
      notes: [
        `${total} merge-patches over ${formatNumber(writingMs / 1000)} s to ${objects} ConfigMaps, from this process over bare HTTP, with the Manager (one worker) in the same process; ${reconciles - initialReconciles} reconciles after the initial ${initialReconciles}.`,
        `${beforeResponse} of ${fromResponse.length} reconciles started before the writer had read the write's response (counted as 0 ms): the watch event can overtake the response. An absolute bound on a noisy 2-core machine; the request-to-reconcile p99 includes the server's write.`,
      ],
      samples: { fromResponseMs: fromResponse, fromRequestMs: fromRequest, missed, beforeResponse },
    };
  },
};
