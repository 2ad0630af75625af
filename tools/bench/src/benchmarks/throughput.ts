import { setTimeout as sleep } from 'node:timers/promises';
import { Controller } from '@ops/core/controller';
import { WorkQueue } from '@ops/core/queue';
import type { BenchContext, BenchmarkModule, BenchmarkResult, Metric } from '../benchmark.js';
import { formatNumber } from '../harness/format.js';
import { addSample, median, ratio } from '../harness/stats.js';

const workerCounts = [1, 4, 16] as const;

/** Items per second through a bare WorkQueue: add every item, then get + done each. */
async function queueCycle(items: readonly string[]): Promise<number> {
  const queue = new WorkQueue<string>({ name: 'bench' });
  const start = performance.now();
  for (const item of items) queue.add(item);
  for (let i = 0; i < items.length; i++) {
    const next = await queue.get();
    if (next.shutdown) throw new Error('the queue shut down early');
    queue.done(next.item);
  }
  const ms = performance.now() - start;
  if (queue.len() !== 0) throw new Error(`${queue.len()} items left in the queue`);
  queue.shutDown();
  return (items.length * 1000) / ms;
}

/**
 * Reconciles per second of a Controller with `workers` workers over `count` distinct
 * requests, with `reconcile` as the reconciler's body.
 */
async function reconcileRate(
  count: number,
  workers: number,
  reconcile: () => Promise<void>,
): Promise<number> {
  let done = 0;
  const finished = Promise.withResolvers<number>();
  const controller = new Controller({
    name: `bench-${workers}`,
    maxConcurrentReconciles: workers,
    reconciler: async () => {
      await reconcile();
      done++;
      if (done === count) finished.resolve(performance.now());
    },
  });
  controller.start();
  const start = performance.now();
  for (let i = 0; i < count; i++) controller.enqueue({ namespace: 'bench', name: `item-${i}` });
  const end = await finished.promise;
  await controller.stop();
  if (done !== count) throw new Error(`${done} reconciles for ${count} requests`);
  return (count * 1000) / (end - start);
}

/**
 * Throughput of the machinery between events and reconcilers: the bare workqueue, and a
 * Controller with 1, 4 and 16 workers, with a no-op reconciler (one await) and with 1 ms of
 * simulated I/O (where workers should scale almost linearly).
 */
export const throughputBenchmark: BenchmarkModule = {
  id: 'throughput',
  title: 'Throughput',
  description:
    'Workqueue add+get+done per second, and reconciles per second with 1, 4 and 16 workers (no-op and 1 ms I/O).',
  async run({ options, log }: BenchContext): Promise<BenchmarkResult> {
    const items = Array.from({ length: options.queueItems }, (_, i) => `bench/item-${i}`);
    const noop = () => Promise.resolve();
    const io = () => sleep(1).then(() => undefined);
    const samples: Record<string, number[]> = {};
    const push = (key: string, value: number) => addSample(samples, key, value);
    // Warm-up.
    await queueCycle(items.slice(0, Math.min(items.length, 10_000)));
    await reconcileRate(Math.min(options.reconcileItems, 2_000), 4, noop);
    for (let round = 0; round < options.repeats; round++) {
      push('queue', await queueCycle(items));
      const order = round % 2 === 0 ? workerCounts : [...workerCounts].reverse();
      for (const workers of order) {
        push(`noop-${workers}`, await reconcileRate(options.reconcileItems, workers, noop));
        push(`io-${workers}`, await reconcileRate(options.ioReconcileItems, workers, io));
      }
      log(`round ${round + 1}/${options.repeats} done`);
    }
    const med = (key: string) => median(samples[key] ?? []);
    const metrics: Metric[] = [
      { name: 'workqueue add+get+done', value: med('queue'), unit: 'ops/s' },
    ];
    for (const kind of ['noop', 'io'] as const) {
      const label = kind === 'noop' ? 'no-op reconcile' : '1 ms I/O reconcile';
      for (const workers of workerCounts)
        metrics.push({
          name: `${label}, ${workers} worker${workers > 1 ? 's' : ''}`,
          value: med(`${kind}-${workers}`),
          unit: 'ops/s',
        });
      for (const workers of workerCounts.slice(1))
        metrics.push({
          name: `${label}, ${workers} / 1 workers`,
          value: ratio(med(`${kind}-${workers}`), med(`${kind}-1`)),
          unit: '×',
        });
    }
    return {
      id: this.id,
      title: this.title,
      metrics,
      targets: [],
      charts: [
        {
          title: 'Reconciles per second, no-op reconciler (higher is better)',
          unit: 'ops/s',
          bars: workerCounts.map((workers) => ({
            label: `${workers} worker(s)`,
            value: med(`noop-${workers}`),
          })),
        },
        {
          title: 'Reconciles per second, 1 ms simulated I/O (higher is better)',
          unit: 'ops/s',
          bars: workerCounts.map((workers) => ({
            label: `${workers} worker(s)`,
            value: med(`io-${workers}`),
          })),
        },
      ],
      notes: [
        `Workqueue: ${formatNumber(options.queueItems, 0)} distinct keys added, then taken and marked done one by one. Reconciles: ${formatNumber(options.reconcileItems, 0)} (no-op, one awaited promise) and ${formatNumber(options.ioReconcileItems, 0)} (a 1 ms timer, which Node rounds up to 1 ms or more) distinct requests through a Controller with its default rate limiter and no metrics.`,
      ],
      samples,
    };
  },
};
