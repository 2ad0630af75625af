import { type Clock, realClock } from '../clock/clock.js';
import {
  type AddOptions,
  type ControllerQueue,
  checkPriority,
  type PriorityGetResult,
  shutdownPriorityResult,
} from './controller-queue.js';
import { defaultControllerRateLimiter } from './default-controller-rate-limiter.js';
import { DueTimer } from './due-timer.js';
import { InFlight } from './in-flight.js';
import { type HeapSlot, IndexedHeap } from './indexed-heap.js';
import type { RateLimiter } from './rate-limiter.js';
import { RingBuffer } from './ring-buffer.js';
import type { WorkQueueOptions } from './work-queue.js';
import {
  type CounterMetric,
  type HistogramMetric,
  noopWorkqueueMetricsProvider,
  type PriorityGaugeMetric,
} from './workqueue-metrics.js';

/**
 * Where a pending item is: `ready` in the ready heap; `parked`, ready but being processed
 * (it joins the ready heap at its `done`); `waiting` for its ready time in the waiting heap.
 */
type Place = 'ready' | 'parked' | 'waiting';

interface Entry<T> extends HeapSlot {
  readonly item: T;
  priority: number;
  /** When it became ready (or was raised), for FIFO within a priority. */
  seq: number;
  /** When it is due; meaningful while waiting. */
  readyAt: number;
  place: Place;
  /** When it was first counted in `depth` (metrics on only). */
  addedAt: number;
}

type Getter<T> = (result: PriorityGetResult<T>) => void;

interface QueueMetrics {
  readonly depth: PriorityGaugeMetric;
  readonly adds: CounterMetric;
  readonly latency: HistogramMetric;
  readonly workDuration: HistogramMetric;
  readonly retries: CounterMetric;
}

/** Ready order: higher priority first, then the one that became ready first. */
const readyFirst = <T>(a: Entry<T>, b: Entry<T>): boolean =>
  a.priority > b.priority || (a.priority === b.priority && a.seq < b.seq);

/** Waiting order: due first, then as ready order. */
const dueFirst = <T>(a: Entry<T>, b: Entry<T>): boolean =>
  a.readyAt < b.readyAt || (a.readyAt === b.readyAt && readyFirst(a, b));

/**
 * A controller's work queue with priorities: controller-runtime's `priorityqueue`, the
 * default queue of a `Controller`. Items carry a priority (a whole number, higher first,
 * default 0; events that say nothing new go in at {@link LowPriority}); within a priority
 * they are handed out first in, first out.
 *
 * Guarantees:
 * - Order: `get` hands out the ready item of the highest priority; among equal priorities,
 *   the one that became ready first (added without a delay, or its delay ran out). An item
 *   added while it is being processed keeps its place and is handed out after its `done`.
 *   Waiting `get` calls are served in the order they were made.
 * - Deduplication: an item is pending at most once. Adding a pending item again keeps the
 *   higher of the two priorities (never lowers it; a raised item goes last among items of
 *   its new priority) and the earlier of the two ready times (an item ready now stays ready;
 *   a waiting item added without delay becomes ready).
 * - No item is handed to two workers: an item handed out is not handed out again before its
 *   `done`.
 * - Delays and rate limiting as {@link WorkQueue}'s: `addAfter`, `addRateLimited`
 *   (`rateLimiter.when`), `forget`, `numRequeues`; `addWithOptions` takes priority, delay
 *   and rate limiting together, as controller-runtime's `AddWithOpts` (the shorter delay of
 *   `afterMs` and the limiter's).
 * - Shutdown as {@link WorkQueue}'s: later adds are no-ops, waiting items are dropped, the
 *   timer is cleared, waiting `get`s resolve with `shutdown: true`, ready items are still
 *   handed out until none is left.
 * - Metrics, with controller-runtime's names (see {@link WorkqueueMetricsProvider}): `depth`
 *   counts ready items (parked ones too), per priority when the provider has
 *   `newDepthMetricWithPriority`; `adds` +1 each time an item becomes ready; `latency` from
 *   then to its `get`; `retries` +1 for each add with a delay above 0 (controller-runtime's
 *   priority queue; the FIFO queue counts every `addAfter`).
 *
 * Assumes: as {@link WorkQueue} (every item handed out is passed to `done` once; items are
 * `Map` keys; clock callbacks run outside queue methods).
 *
 * @throws {RangeError} from `addWithOptions` for a priority that is not a whole number.
 *
 * Design note (performance): adds, gets and dones are O(log n) in the number of pending
 * items (two binary heaps with positions kept in the entries, so raising a priority or
 * moving an item from waiting to ready never scans); one timer for the earliest due time.
 */
export class PriorityQueue<T = string> implements ControllerQueue<T> {
  readonly name: string;

  private readonly clock: Clock;
  private readonly rateLimiter: RateLimiter<T>;
  /** Every pending item: ready, parked or waiting. */
  private readonly entries = new Map<T, Entry<T>>();
  private readonly ready = new IndexedHeap<Entry<T>>(readyFirst);
  private readonly waiting = new IndexedHeap<Entry<T>>(dueFirst);
  /** Items handed out and not yet done, with when they were handed out. */
  private readonly processing: InFlight<T>;
  private readonly getters = new RingBuffer<Getter<T>>();
  private readonly metrics: QueueMetrics | undefined;
  private readonly timer: DueTimer;
  private seq = 0;
  private closed = false;

  constructor(options: WorkQueueOptions<T>) {
    this.name = options.name;
    this.clock = options.clock ?? realClock;
    this.rateLimiter = options.rateLimiter ?? defaultControllerRateLimiter<T>(this.clock);
    this.timer = new DueTimer(this.clock, this.onTimer);
    this.processing = new InFlight<T>(this.clock);
    const provider = options.metrics;
    if (provider !== undefined && provider !== noopWorkqueueMetricsProvider) {
      const name = options.name;
      let depth: PriorityGaugeMetric;
      if (provider.newDepthMetricWithPriority !== undefined) {
        depth = provider.newDepthMetricWithPriority(name);
      } else {
        const plain = provider.newDepthMetric(name);
        depth = { inc: () => plain.inc(), dec: () => plain.dec() };
      }
      this.metrics = {
        depth,
        adds: provider.newAddsMetric(name),
        latency: provider.newLatencyMetric(name),
        workDuration: provider.newWorkDurationMetric(name),
        retries: provider.newRetriesMetric(name),
      };
      const inFlight = this.processing;
      inFlight.unregisterOnSettle([
        provider.newUnfinishedWorkSecondsMetric(name, () => inFlight.unfinishedWorkSeconds()),
        provider.newLongestRunningProcessorSecondsMetric(name, () =>
          inFlight.longestRunningProcessorSeconds(),
        ),
      ]);
    }
  }

  /** Adds `item` now at priority 0 (see the class's deduplication rules). */
  add(item: T): void {
    this.addWithOptions(item, {});
  }

  /** Adds `item` after `ms` milliseconds at priority 0. */
  addAfter(item: T, ms: number): void {
    this.addWithOptions(item, { afterMs: ms });
  }

  /** Adds `item` after its rate limiter's delay at priority 0, recording one failure. */
  addRateLimited(item: T): void {
    this.addWithOptions(item, { rateLimited: true });
  }

  /**
   * Adds `item` with a priority, a delay and/or rate limiting (see {@link AddOptions} and the
   * class's rules). A no-op after shutdown (the limiter is not consulted).
   *
   * @throws {RangeError} when `options.priority` is not a whole number.
   */
  addWithOptions(item: T, options: AddOptions): void {
    if (this.closed) return;
    const priority =
      options.priority === undefined ? 0 : checkPriority(options.priority, 'PriorityQueue.add');
    let delay = options.afterMs !== undefined && options.afterMs > 0 ? options.afterMs : 0;
    if (options.rateLimited) {
      const limited = this.rateLimiter.when(item);
      if (delay === 0 || limited < delay) delay = limited;
    }
    const now = this.clock.now();
    if (delay > 0) this.metrics?.retries.inc();
    const existing = this.entries.get(item);
    if (existing === undefined) {
      const entry: Entry<T> = {
        item,
        priority,
        seq: this.seq++,
        readyAt: now + delay,
        place: 'waiting',
        addedAt: 0,
        heapIndex: -1,
      };
      this.entries.set(item, entry);
      if (delay > 0) {
        this.waiting.push(entry);
        this.timer.armFor(entry.readyAt);
      } else {
        this.makeReady(entry, now);
      }
      return;
    }
    const raised = priority > existing.priority;
    if (existing.place === 'waiting') {
      if (raised) existing.priority = priority;
      if (delay === 0) {
        this.waiting.remove(existing);
        existing.seq = this.seq++;
        this.makeReady(existing, now);
      } else if (now + delay < existing.readyAt || raised) {
        existing.readyAt = Math.min(existing.readyAt, now + delay);
        this.waiting.update(existing);
        this.timer.armFor(existing.readyAt);
      }
      return;
    }
    if (!raised) return;
    // Ready or parked: move it to the new priority's series and to the end of its line.
    this.metrics?.depth.dec(existing.priority);
    this.metrics?.depth.inc(priority);
    existing.priority = priority;
    existing.seq = this.seq++;
    if (existing.place === 'ready') this.ready.update(existing);
  }

  /** Resets `item`'s backoff in the rate limiter. Does not replace `done`. */
  forget(item: T): void {
    this.rateLimiter.forget(item);
  }

  /** How many failures of `item` the rate limiter has recorded since it was last forgotten. */
  numRequeues(item: T): number {
    return this.rateLimiter.numRequeues(item);
  }

  /**
   * Waits for the next item (see the class's order), marks it as being processed and hands
   * it out with its priority; the caller must call `done(item)`. Resolves with
   * `shutdown: true` once the queue is shut down and has no ready item; never rejects.
   */
  getWithPriority(): Promise<PriorityGetResult<T>> {
    if (this.ready.size > 0) return Promise.resolve(this.take());
    if (this.closed) return Promise.resolve(shutdownPriorityResult);
    return new Promise((resolve) => this.getters.push(resolve));
  }

  /** `getWithPriority`, for callers that do not need the priority (the result has it). */
  get(): Promise<PriorityGetResult<T>> {
    return this.getWithPriority();
  }

  /**
   * Marks `item` as done processing; if it was added meanwhile it becomes ready (in the
   * place it was added in). A no-op for an item not being processed.
   */
  done(item: T): void {
    const startedAt = this.processing.end(item);
    if (startedAt === undefined) return;
    this.metrics?.workDuration.observe((this.clock.now() - startedAt) / 1000);
    const entry = this.entries.get(item);
    if (entry !== undefined && entry.place === 'parked') {
      entry.place = 'ready';
      this.ready.push(entry);
      if (this.getters.length > 0) this.serveGetters();
    }
    if (this.closed) this.processing.settleIfIdle();
  }

  /** How many items are ready (parked ones included; not waiting ones, nor in flight). */
  len(): number {
    let parked = 0;
    for (const item of this.processing.keys()) {
      if (this.entries.get(item)?.place === 'parked') parked++;
    }
    return this.ready.size + parked;
  }

  /** Shuts the queue down now (see the class's guarantees); releases `shutDownWithDrain`. */
  shutDown(): void {
    this.close();
    this.processing.releaseWaiters();
    this.processing.settleIfIdle();
  }

  /**
   * Shuts the queue down as `shutDown` does, then resolves once nothing is in flight.
   *
   * Assumes: workers call `done` for every item they hold, or the promise never resolves.
   */
  shutDownWithDrain(): Promise<void> {
    this.close();
    return this.processing.drained();
  }

  /** Whether `shutDown` or `shutDownWithDrain` has been called. */
  shuttingDown(): boolean {
    return this.closed;
  }

  /** An entry became ready: count it, and queue it (or park it behind its processing). */
  private makeReady(entry: Entry<T>, now: number): void {
    const metrics = this.metrics;
    if (metrics !== undefined) {
      metrics.adds.inc();
      metrics.depth.inc(entry.priority);
      entry.addedAt = now;
    }
    if (this.processing.has(entry.item)) {
      entry.place = 'parked';
      return;
    }
    entry.place = 'ready';
    this.ready.push(entry);
    if (this.getters.length > 0) this.serveGetters();
  }

  /** Hands out the first ready item. Assumes one is ready. */
  private take(): PriorityGetResult<T> {
    const entry = this.ready.pop() as Entry<T>;
    this.entries.delete(entry.item);
    const now = this.clock.now();
    this.processing.begin(entry.item, now);
    const metrics = this.metrics;
    if (metrics !== undefined) {
      metrics.depth.dec(entry.priority);
      metrics.latency.observe((now - entry.addedAt) / 1000);
    }
    return { item: entry.item, priority: entry.priority, shutdown: false };
  }

  private serveGetters(): void {
    while (this.getters.length > 0 && this.ready.size > 0) {
      (this.getters.shift() as Getter<T>)(this.take());
    }
  }

  private readonly onTimer = (): void => {
    if (this.closed) return;
    const now = this.clock.now();
    for (let next = this.waiting.peek(); next !== undefined && next.readyAt <= now; ) {
      this.waiting.pop();
      next.seq = this.seq++;
      this.makeReady(next, now);
      next = this.waiting.peek();
    }
    const next = this.waiting.peek();
    if (next !== undefined) this.timer.armFor(next.readyAt);
  };

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    for (let entry = this.waiting.pop(); entry !== undefined; entry = this.waiting.pop()) {
      this.entries.delete(entry.item);
    }
    this.timer.clear();
    while (this.getters.length > 0) (this.getters.shift() as Getter<T>)(shutdownPriorityResult);
  }
}
