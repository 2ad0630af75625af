import type { BenchContext, BenchmarkModule, BenchmarkResult } from '../benchmark.js';
import type { BenchServer } from '../harness/bench-server.js';
import { formatNumber, formatRatio } from '../harness/format.js';
import { startManager } from '../harness/manager.js';
import { RawHttp } from '../harness/raw-http.js';
import { median, percentile, ratio } from '../harness/stats.js';
import { sleep, waitUntil } from '../harness/wait.js';

const namespace = 'restart';
/** New objects created after each restart, one every {@link newObjectSpacingMs}. */
const newObjectsPerRun = 5;
const newObjectSpacingMs = 100;
/** Workers of the operator's controller, and the I/O each of its reconciles waits for. */
const workers = 4;
const reconcileIoMs = 1;
/** The goal of issue #31: p99 of a new object's time to its first reconcile. */
const goalMs = 1_000;

/** The two queues compared. */
type Variant = 'priority' | 'fifo';
const variantNames: Record<Variant, string> = {
  priority: 'priority queue (default)',
  fifo: 'FIFO queue (usePriorityQueue: false)',
};

/** What one restart measured. */
interface RestartRun {
  variant: Variant;
  /** From `manager.start` until the controller's workers ran (caches synced). */
  startMs: number;
  /** Each new object's time from its create request to the start of its first reconcile. */
  firstReconcileMs: number[];
  /** Reconciles of the initial list's objects started before the first new object's first one. */
  backlogReconcilesBefore: number;
}

/**
 * Issue #31's restart benchmark: an operator restarts over N existing ConfigMaps (a new
 * Manager, so a cold cache whose initial list queues a reconcile of every object), and right
 * after its workers start, new ConfigMaps are created one at a time. Measured: each new
 * object's time from its create request to the start of its first reconcile, with the
 * priority queue (the initial list waits at LowPriority) and with the FIFO queue (behind the
 * whole backlog), alternating in one run.
 */
export const restartPriorityBenchmark: BenchmarkModule = {
  id: 'restart-priority',
  title: 'New object after a restart',
  description:
    'A restart over N ConfigMaps, then new ones created: time to each new one’s first reconcile, priority queue vs FIFO (p99 ≤ 1 s).',
  async run({ options, startServer, log }: BenchContext): Promise<BenchmarkResult> {
    const objects = options.restartObjects;
    const server = await startServer();
    await server.seedConfigMaps(namespace, 'existing', objects);
    const runs: RestartRun[] = [];
    for (let repeat = 0; repeat < options.repeats; repeat++) {
      const order: Variant[] = repeat % 2 === 0 ? ['priority', 'fifo'] : ['fifo', 'priority'];
      for (const variant of order) {
        log(`restart ${repeat + 1}/${options.repeats} over ${objects} ConfigMaps: ${variant}`);
        runs.push(await restartOnce(server, variant, `r${repeat}-${variant}`));
      }
    }
    const all = (variant: Variant) =>
      runs.filter((run) => run.variant === variant).flatMap((run) => run.firstReconcileMs);
    const priorityP99 = percentile(all('priority'), 99);
    const fifoP99 = percentile(all('fifo'), 99);
    const startMedian = median(runs.map((run) => run.startMs));
    const backlogBefore = (variant: Variant) =>
      median(
        runs.filter((run) => run.variant === variant).map((run) => run.backlogReconcilesBefore),
      );
    return {
      id: this.id,
      title: this.title,
      metrics: [
        {
          name: `${variantNames.priority}: p50`,
          value: percentile(all('priority'), 50),
          unit: 'ms',
        },
        { name: `${variantNames.priority}: p99`, value: priorityP99, unit: 'ms' },
        { name: `${variantNames.fifo}: p50`, value: percentile(all('fifo'), 50), unit: 'ms' },
        { name: `${variantNames.fifo}: p99`, value: fifoP99, unit: 'ms' },
        { name: 'FIFO / priority, p99', value: ratio(fifoP99, priorityP99), unit: '×' },
        {
          name: 'listed objects reconciled before the first new one, priority (median)',
          value: backlogBefore('priority'),
          unit: 'reconciles',
        },
        {
          name: 'listed objects reconciled before the first new one, FIFO (median)',
          value: backlogBefore('fifo'),
          unit: 'reconciles',
        },
        { name: 'restart until the workers run (median)', value: startMedian, unit: 'ms' },
      ],
      targets: [
        {
          target: `p99 of a new object's time to first reconcile after a restart over ${formatNumber(objects, 0)} objects ≤ 1 s (priority queue)`,
          measured: `${formatNumber(priorityP99)} ms (FIFO: ${formatNumber(fifoP99)} ms, ${formatRatio(ratio(fifoP99, priorityP99))})`,
          met: priorityP99 <= goalMs,
        },
      ],
      charts: [
        {
          title: `Create → first reconcile after a restart over ${formatNumber(objects, 0)} objects (ms; lower is better)`,
          unit: 'ms',
          bars: [
            { label: 'priority p50', value: percentile(all('priority'), 50) },
            { label: 'priority p99', value: priorityP99 },
            { label: 'FIFO p50', value: percentile(all('fifo'), 50) },
            { label: 'FIFO p99', value: fifoP99 },
          ],
        },
      ],
      notes: [
        `${options.repeats} restarts per queue, alternating which goes first; each is a new Manager (cold cache) over ${formatNumber(objects, 0)} ConfigMaps with one controller of ${workers} workers whose reconcile reads the object from the cache and waits ${reconcileIoMs} ms (simulated I/O). Once its workers run, ${newObjectsPerRun} ConfigMaps are created ${newObjectSpacingMs} ms apart over bare HTTP; each sample runs from a create's request to the start of that object's first reconcile (${newObjectsPerRun * options.repeats} samples per queue; p99 by nearest rank).`,
      ],
      samples: { runs },
    };
  },
};

/** Starts a fresh operator over the seeded objects, creates the new ones, and times them. */
async function restartOnce(
  server: BenchServer,
  variant: Variant,
  tag: string,
): Promise<RestartRun> {
  const newNames = Array.from({ length: newObjectsPerRun }, (_, i) => `new-${tag}-${i}`);
  const firstReconcileAt = new Map<string, number>();
  let listedReconciles = 0;
  let listedWhenFirstNewStarted = -1;
  const startedAt = performance.now();
  const running = await startManager(server, namespace, (manager) => {
    manager
      .controller('restart')
      .for({ apiVersion: 'v1', kind: 'ConfigMap' })
      .withOptions({ maxConcurrentReconciles: workers, usePriorityQueue: variant === 'priority' })
      .complete(async ({ name }) => {
        const at = performance.now();
        if (newNames.includes(name)) {
          if (!firstReconcileAt.has(name)) {
            if (firstReconcileAt.size === 0) listedWhenFirstNewStarted = listedReconciles;
            firstReconcileAt.set(name, at);
          }
        } else if (name.startsWith('existing-')) {
          listedReconciles++;
        }
        await manager.client.get('v1', 'ConfigMap', name, namespace);
        await sleep(reconcileIoMs);
      });
  });
  const startMs = performance.now() - startedAt;
  const sentAt = new Map<string, number>();
  // A connection of its own per restart: a keep-alive socket left idle through a long FIFO
  // run may be closed by the server just as it is reused ("socket hang up").
  const http = new RawHttp(server);
  try {
    for (const name of newNames) {
      sentAt.set(name, performance.now());
      await http.send('POST', `/api/v1/namespaces/${namespace}/configmaps`, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name, namespace },
        data: { created: 'after the restart' },
      });
      await sleep(newObjectSpacingMs);
    }
    await waitUntil(
      () => firstReconcileAt.size === newNames.length,
      `the ${variant} operator's first reconcile of every new object`,
      600_000,
      5,
    );
  } finally {
    http.close();
    await running.stop();
  }
  return {
    variant,
    startMs,
    firstReconcileMs: newNames.map(
      (name) => (firstReconcileAt.get(name) as number) - (sentAt.get(name) as number),
    ),
    backlogReconcilesBefore: listedWhenFirstNewStarted,
  };
}
