/**
 * What the workqueue reports, as an interface so that this package does not depend on a
 * metrics library: a provider maps each metric to, say, a prom-client metric labelled with
 * the queue's name. The metrics and their meaning are controller-runtime's `workqueue_*`.
 */

/** A value that goes up and down. */
export interface GaugeMetric {
  inc(): void;
  dec(): void;
}

/**
 * A gauge with one series per priority (controller-runtime's `workqueue_depth{priority}`):
 * `priority` is the integer priority of the item counted.
 */
export interface PriorityGaugeMetric {
  inc(priority: number): void;
  dec(priority: number): void;
}

/** A value that only goes up. */
export interface CounterMetric {
  inc(): void;
}

/** A distribution of observations. */
export interface HistogramMetric {
  observe(value: number): void;
}

/**
 * Called by the queue when it no longer serves a gauge it registered (see
 * {@link WorkqueueMetricsProvider.newUnfinishedWorkSecondsMetric}).
 */
export type UnregisterMetric = () => void;

/**
 * Creates the metrics of one queue; each method is called once, when the queue is built, with
 * the queue's name.
 *
 * Guarantees (what the queue reports):
 * - `depth`: +1 when an item becomes pending (an `add` of an item not already pending,
 *   including an item being processed, which waits for its `done`), -1 when `get` hands it
 *   out. Delayed items waiting for their time are not counted.
 * - `adds`: +1 for each such `add` (duplicates of a pending item are not counted).
 * - `latency`: seconds from the first `add` of a pending item to the `get` that hands it out.
 * - `workDuration`: seconds from `get` to `done`.
 * - `unfinishedWorkSeconds` / `longestRunningProcessorSeconds`: computed on demand by the
 *   `read` function the queue passes (call it when scraping): the sum of the ages of the items
 *   in flight, and the age of the oldest one, in seconds. The queue calls the returned
 *   {@link UnregisterMetric} once it is shut down and has nothing in flight; `read` keeps
 *   answering from the queue's state if called afterwards.
 * - `retries`: +1 for each `addAfter` and `addRateLimited` accepted (not after shutdown), as
 *   client-go's `AddAfter`, through which rate-limited re-queues go.
 *
 * Assumes: methods do not throw and do not call back into the queue.
 */
export interface WorkqueueMetricsProvider {
  newDepthMetric(name: string): GaugeMetric;
  newAddsMetric(name: string): CounterMetric;
  newLatencyMetric(name: string): HistogramMetric;
  newWorkDurationMetric(name: string): HistogramMetric;
  newUnfinishedWorkSecondsMetric(name: string, read: () => number): UnregisterMetric;
  newLongestRunningProcessorSecondsMetric(name: string, read: () => number): UnregisterMetric;
  newRetriesMetric(name: string): CounterMetric;
  /**
   * Optional: the depth of a {@link PriorityQueue} per priority. A priority queue uses it
   * instead of `newDepthMetric` when the provider has it (as controller-runtime's priority
   * queue does), and `newDepthMetric` otherwise; the FIFO {@link WorkQueue} never calls it.
   * Counted as `depth` above, for ready items only, each under its current priority (an item
   * whose priority is raised moves from one series to the other).
   */
  newDepthMetricWithPriority?(name: string): PriorityGaugeMetric;
}

const noop = (): void => {};
const noopMetric: GaugeMetric & CounterMetric & HistogramMetric = {
  inc: noop,
  dec: noop,
  observe: noop,
};

/**
 * The provider that records nothing, the queue's default. A queue given this exact object
 * skips metric bookkeeping altogether.
 */
export const noopWorkqueueMetricsProvider: WorkqueueMetricsProvider = Object.freeze({
  newDepthMetric: () => noopMetric,
  newAddsMetric: () => noopMetric,
  newLatencyMetric: () => noopMetric,
  newWorkDurationMetric: () => noopMetric,
  newUnfinishedWorkSecondsMetric: () => noop,
  newLongestRunningProcessorSecondsMetric: () => noop,
  newRetriesMetric: () => noopMetric,
  newDepthMetricWithPriority: () => noopMetric,
});
