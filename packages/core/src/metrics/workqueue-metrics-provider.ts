import { type Logger, pino } from 'pino';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type {
  CounterMetric,
  GaugeMetric,
  HistogramMetric,
  PriorityGaugeMetric,
  UnregisterMetric,
  WorkqueueMetricsProvider,
} from '../queue/workqueue-metrics.js';
import { PolledGauge } from './polled-gauge.js';

/**
 * Buckets of the workqueue's duration histograms, controller-runtime's (client-go's): powers
 * of ten from 10 ns to 1000 s.
 */
export const workqueueDurationBuckets: readonly number[] = [
  1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1, 10, 100, 1000,
];

type QueueLabel = 'name' | 'controller';
const queueLabels: readonly QueueLabel[] = ['name', 'controller'];
type DepthLabel = QueueLabel | 'priority';

/**
 * How many distinct priorities one queue's `workqueue_depth` gets a series of; beyond it,
 * every priority is counted under {@link priorityCardinalityExceeded} (controller-runtime's
 * limit and placeholder), so a reconciler that invents priorities cannot blow up the series.
 */
export const maxDepthPriorities = 25;

/** The `priority` label of depth series once {@link maxDepthPriorities} is exceeded. */
export const priorityCardinalityExceeded = 'exceeded_cardinality_limit';

/**
 * A {@link WorkqueueMetricsProvider} on prom-client, exporting controller-runtime's
 * `workqueue_*` metrics with the labels `name` and `controller`, both set to the queue's name
 * (a controller's queue is named after it):
 *
 * - `workqueue_depth` (gauge) with a third label, `priority`, as controller-runtime's: the
 *   priority as a decimal for a `PriorityQueue` (one series per priority seen, at most
 *   {@link maxDepthPriorities}, then {@link priorityCardinalityExceeded}), and empty for a
 *   FIFO `WorkQueue`; `workqueue_adds_total` and `workqueue_retries_total` (counters),
 *   pushed by the queue;
 * - `workqueue_queue_duration_seconds` and `workqueue_work_duration_seconds` (histograms,
 *   {@link workqueueDurationBuckets});
 * - `workqueue_unfinished_work_seconds` and `workqueue_longest_running_processor_seconds`
 *   (gauges) read from the queue when the registry is collected, through the `read`
 *   functions the queue registers (see {@link PolledGauge}); they disappear when the queue
 *   unregisters them.
 *
 * Every series of a queue is initialised to zero when the queue is built. Two queues with the
 * same name share their pushed series; the polled ones show the latest queue's.
 *
 * A {@link MetricsRegistry} has one ({@link MetricsRegistry.workqueueMetrics}); build one
 * directly only to export workqueue metrics into another prom-client registry (once per
 * registry: the metric names can be registered only once).
 */
export class PrometheusWorkqueueMetricsProvider implements WorkqueueMetricsProvider {
  readonly #depth: Gauge<DepthLabel>;
  readonly #adds: Counter<QueueLabel>;
  readonly #latency: Histogram<QueueLabel>;
  readonly #workDuration: Histogram<QueueLabel>;
  readonly #unfinished: PolledGauge<QueueLabel>;
  readonly #longestRunning: PolledGauge<QueueLabel>;
  readonly #retries: Counter<QueueLabel>;

  constructor(registry: Registry, logger: Logger = pino({ level: 'silent' })) {
    const registers = [registry];
    const labelNames = queueLabels;
    this.#depth = new Gauge({
      name: 'workqueue_depth',
      help: 'Current depth of workqueue by workqueue and priority',
      labelNames: [...queueLabels, 'priority'],
      registers,
    });
    this.#adds = new Counter({
      name: 'workqueue_adds_total',
      help: 'Total number of adds handled by workqueue',
      labelNames,
      registers,
    });
    this.#latency = new Histogram({
      name: 'workqueue_queue_duration_seconds',
      help: 'How long in seconds an item stays in workqueue before being requested',
      labelNames,
      buckets: [...workqueueDurationBuckets],
      registers,
    });
    this.#workDuration = new Histogram({
      name: 'workqueue_work_duration_seconds',
      help: 'How long in seconds processing an item from workqueue takes.',
      labelNames,
      buckets: [...workqueueDurationBuckets],
      registers,
    });
    this.#unfinished = new PolledGauge(registry, {
      name: 'workqueue_unfinished_work_seconds',
      help: "How many seconds of work has been done that is in progress and hasn't been observed by work_duration. Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at which this increases.",
      labelNames,
      logger,
    });
    this.#longestRunning = new PolledGauge(registry, {
      name: 'workqueue_longest_running_processor_seconds',
      help: 'How many seconds has the longest running processor for workqueue been running.',
      labelNames,
      logger,
    });
    this.#retries = new Counter({
      name: 'workqueue_retries_total',
      help: 'Total number of retries handled by workqueue',
      labelNames,
      registers,
    });
  }

  newDepthMetric(name: string): GaugeMetric {
    const labels = { ...labelsOf(name), priority: '' };
    this.#depth.set(labels, 0);
    return {
      inc: () => this.#depth.inc(labels),
      dec: () => this.#depth.dec(labels),
    };
  }

  /**
   * The depth of a priority queue, one series per priority: priority 0's from the start,
   * each other one from the first item of its priority on, staying (at 0 when empty). The
   * first {@link maxDepthPriorities} priorities seen keep their series; later ones share
   * {@link priorityCardinalityExceeded}.
   */
  newDepthMetricWithPriority(name: string): PriorityGaugeMetric {
    const base = labelsOf(name);
    const seen = new Map<number, Record<DepthLabel, string>>();
    const exceeded = { ...base, priority: priorityCardinalityExceeded };
    const labelsFor = (priority: number): Record<DepthLabel, string> => {
      const known = seen.get(priority);
      if (known !== undefined) return known;
      if (seen.size >= maxDepthPriorities) return exceeded;
      const labels = { ...base, priority: String(priority) };
      seen.set(priority, labels);
      return labels;
    };
    this.#depth.set(labelsFor(0), 0);
    return {
      inc: (priority) => this.#depth.inc(labelsFor(priority)),
      dec: (priority) => this.#depth.dec(labelsFor(priority)),
    };
  }

  newAddsMetric(name: string): CounterMetric {
    const labels = labelsOf(name);
    this.#adds.inc(labels, 0);
    return { inc: () => this.#adds.inc(labels) };
  }

  newLatencyMetric(name: string): HistogramMetric {
    const labels = labelsOf(name);
    this.#latency.zero(labels);
    return { observe: (value) => this.#latency.observe(labels, value) };
  }

  newWorkDurationMetric(name: string): HistogramMetric {
    const labels = labelsOf(name);
    this.#workDuration.zero(labels);
    return { observe: (value) => this.#workDuration.observe(labels, value) };
  }

  newUnfinishedWorkSecondsMetric(name: string, read: () => number): UnregisterMetric {
    return this.#unfinished.register(labelsOf(name), read);
  }

  newLongestRunningProcessorSecondsMetric(name: string, read: () => number): UnregisterMetric {
    return this.#longestRunning.register(labelsOf(name), read);
  }

  newRetriesMetric(name: string): CounterMetric {
    const labels = labelsOf(name);
    this.#retries.inc(labels, 0);
    return { inc: () => this.#retries.inc(labels) };
  }
}

function labelsOf(name: string): Record<QueueLabel, string> {
  return { name, controller: name };
}
