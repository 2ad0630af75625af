import { type Clock, realClock } from '../clock/clock.js';
import {
  type AddOptions,
  type ControllerQueue,
  type PriorityGetResult,
  shutdownPriorityResult,
} from './controller-queue.js';
import { defaultControllerRateLimiter } from './default-controller-rate-limiter.js';
import { DelayHeap } from './delay-heap.js';
import { DueTimer } from './due-timer.js';
import { InFlight } from './in-flight.js';
import type { RateLimiter } from './rate-limiter.js';
import { RingBuffer } from './ring-buffer.js';
import {
  type CounterMetric,
  type GaugeMetric,
  type HistogramMetric,
  noopWorkqueueMetricsProvider,
  type WorkqueueMetricsProvider,
} from './workqueue-metrics.js';

/** How a {@link WorkQueue} is built. */
export interface WorkQueueOptions<T> {
  /** The queue's name, passed to the metrics provider (controller-runtime uses the controller's name). */
  name: string;
  /** Where metrics go; by default nowhere ({@link noopWorkqueueMetricsProvider}). */
  metrics?: WorkqueueMetricsProvider;
  /** The source of time for delays and metrics; by default {@link realClock}. */
  clock?: Clock;
  /** Decides the delays of {@link WorkQueue.addRateLimited}; by default {@link defaultControllerRateLimiter} on `clock`. */
  rateLimiter?: RateLimiter<T>;
}

/**
 * What {@link WorkQueue.get} resolves with: an item to process, or `shutdown: true` when the
 * queue is shut down and has nothing left to hand out (the worker should stop).
 */
export type WorkQueueGetResult<T> =
  | { readonly item: T; readonly shutdown: false }
  | { readonly item: undefined; readonly shutdown: true };

type Getter<T> = (result: WorkQueueGetResult<T>) => void;

const shutdownResult: WorkQueueGetResult<never> = Object.freeze({
  item: undefined,
  shutdown: true,
});

interface QueueMetrics<T> {
  readonly depth: GaugeMetric;
  readonly adds: CounterMetric;
  readonly latency: HistogramMetric;
  readonly workDuration: HistogramMetric;
  readonly retries: CounterMetric;
  /** When each pending item was first added, for `latency`. */
  readonly addTimes: Map<T, number>;
}

/**
 * The work queue of a controller, with the contract of client-go's rate-limiting workqueue
 * (`workqueue.TypedRateLimitingInterface`): producers `add` keys, workers `get` a key,
 * reconcile it, then call `done` (and `forget` on success, or `addRateLimited` to retry).
 *
 * Guarantees:
 * - Fair: items are handed out in the order they were added (FIFO); waiting `get` calls are
 *   served in the order they were made.
 * - Stingy: an item is pending at most once (the dirty set): adding a pending item again is a
 *   no-op. An item being processed is never handed to a second worker: added while processing
 *   it is queued once, at the tail, when `done` is called for it.
 * - Delays: `addAfter` holds an item until its time; an item waits at most once, and a later
 *   `addAfter` moves it earlier but never later. Due items enter the queue through `add` (so
 *   a due item that is already pending is not duplicated), in order of due time.
 * - Rate limiting: `addRateLimited` is `addAfter(item, rateLimiter.when(item))`; `forget`
 *   and `numRequeues` read and reset the limiter. `add` and `addAfter` never touch it, so
 *   neither an `add` of the same key nor the traffic of other keys counts as a failure.
 * - Shutdown: `shutDown` and `shutDownWithDrain` make later `add`/`addAfter`/`addRateLimited`
 *   no-ops (as in client-go, not errors), drop delayed items, clear the timer (nothing keeps
 *   Node alive) and resolve every waiting `get` with `shutdown: true`. As in client-go, items
 *   already queued are still handed out by `get` until the queue is empty, and an item added
 *   while processing before the shutdown is still queued at its `done`; `get` on an empty
 *   shut-down queue resolves at once with `shutdown: true`.
 * - Items are compared as `Map` keys (SameValueZero): strings and numbers by value, objects by
 *   identity, so two equal-looking objects are two items. Use string keys
 *   (`namespace/name`) as controllers do.
 *
 * Assumes: every item handed out by `get` is eventually passed to `done`, exactly once
 * (`done` for an item not being processed is a no-op); items are not mutated in a way that
 * changes their identity while queued; callbacks of the injected clock run outside queue
 * methods (as timers do).
 *
 * Design note (performance): every operation is O(1) except delays, which are O(log n). The
 * FIFO is a power-of-two ring buffer (no `Array#shift`); the dirty set is a `Set` and the
 * processing set a `Map` to start times; delayed items sit in one binary min-heap indexed by
 * item, served by a single timer armed for the earliest due time and re-armed only when that
 * changes; a free worker waiting in `get` is handed an item synchronously inside `add`, so no
 * polling. `get` on a non-empty queue allocates one result object and one resolved promise.
 * With the default no-op metrics provider no metric bookkeeping runs; the clock is read once
 * per `get` (processing start time) and per `done` only with metrics on.
 */
export class WorkQueue<T = string> implements ControllerQueue<T> {
  /** The queue's name, as given. */
  readonly name: string;

  private readonly clock: Clock;
  private readonly rateLimiter: RateLimiter<T>;
  private readonly queue = new RingBuffer<T>();
  private readonly dirty = new Set<T>();
  /** Items handed out and not yet done, with when they were handed out. */
  private readonly processing: InFlight<T>;
  private readonly getters = new RingBuffer<Getter<T>>();
  private readonly delayed = new DelayHeap<T>();
  private readonly metrics: QueueMetrics<T> | undefined;

  private readonly timer: DueTimer;
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
      this.metrics = {
        depth: provider.newDepthMetric(name),
        adds: provider.newAddsMetric(name),
        latency: provider.newLatencyMetric(name),
        workDuration: provider.newWorkDurationMetric(name),
        retries: provider.newRetriesMetric(name),
        addTimes: new Map(),
      };
      this.processing.unregisterOnSettle([
        provider.newUnfinishedWorkSecondsMetric(name, () => this.unfinishedWorkSeconds()),
        provider.newLongestRunningProcessorSecondsMetric(name, () =>
          this.longestRunningProcessorSeconds(),
        ),
      ]);
    }
  }

  /**
   * Marks `item` as needing processing. A no-op when it is already pending or the queue is
   * shut down; when it is being processed it is queued at its `done`. A waiting `get` receives
   * it before `add` returns.
   */
  add(item: T): void {
    if (this.closed || this.dirty.has(item)) return;
    this.dirty.add(item);
    const metrics = this.metrics;
    if (metrics !== undefined) {
      metrics.adds.inc();
      metrics.depth.inc();
      if (!metrics.addTimes.has(item)) metrics.addTimes.set(item, this.clock.now());
    }
    if (this.processing.has(item)) return;
    this.queue.push(item);
    if (this.getters.length > 0) this.serveGetters();
  }

  /**
   * Adds `item` once `ms` milliseconds have passed; at once (as `add`) when `ms` is 0,
   * negative or NaN. An item already delayed keeps the earlier of its two due times. A no-op
   * after shutdown. Counts one retry in the metrics.
   */
  addAfter(item: T, ms: number): void {
    if (this.closed) return;
    this.metrics?.retries.inc();
    if (!(ms > 0)) {
      this.add(item);
      return;
    }
    const readyAt = this.clock.now() + ms;
    if (this.delayed.schedule(item, readyAt)) this.timer.armFor(readyAt);
  }

  /**
   * Adds `item` after the delay its rate limiter gives it, recording one failure of it. A
   * no-op after shutdown (the limiter is not consulted).
   */
  addRateLimited(item: T): void {
    if (this.closed) return;
    this.addAfter(item, this.rateLimiter.when(item));
  }

  /**
   * controller-runtime's `AddWithOpts` on a FIFO queue: `priority` is ignored; with
   * `rateLimited` and/or `afterMs` the item is added as `addAfter` with the shorter of the
   * two delays (the limiter records one failure), else as `add`.
   */
  addWithOptions(item: T, options: AddOptions): void {
    if (this.closed) return;
    const { afterMs, rateLimited } = options;
    if (!rateLimited && afterMs === undefined) {
      this.add(item);
      return;
    }
    let delay = afterMs !== undefined && afterMs > 0 ? afterMs : 0;
    if (rateLimited) {
      const limited = this.rateLimiter.when(item);
      if (delay === 0 || limited < delay) delay = limited;
    }
    this.addAfter(item, delay);
  }

  /**
   * Tells the rate limiter to stop tracking `item` (it succeeded or was given up): its next
   * failure starts again from the base delay. Does not replace `done`.
   */
  forget(item: T): void {
    this.rateLimiter.forget(item);
  }

  /** How many times `item` has been rate-limited since it was last forgotten. */
  numRequeues(item: T): number {
    return this.rateLimiter.numRequeues(item);
  }

  /**
   * Waits for an item to process and marks it as being processed: the caller must call
   * `done(item)` when finished. Resolves with `shutdown: true` once the queue is shut down and
   * empty; never rejects.
   */
  get(): Promise<WorkQueueGetResult<T>> {
    if (this.queue.length > 0) return Promise.resolve({ item: this.take(), shutdown: false });
    if (this.closed) return Promise.resolve(shutdownResult);
    return new Promise((resolve) => this.getters.push(resolve));
  }

  /** `get`, with the priority every item of a FIFO queue has: 0. */
  async getWithPriority(): Promise<PriorityGetResult<T>> {
    const next = await this.get();
    return next.shutdown
      ? shutdownPriorityResult
      : { item: next.item, priority: 0, shutdown: false };
  }

  /**
   * Marks `item` as done processing. If it was added meanwhile, it is queued again (a waiting
   * `get` receives it). A no-op for an item not being processed.
   */
  done(item: T): void {
    const startedAt = this.processing.end(item);
    if (startedAt === undefined) return;
    this.metrics?.workDuration.observe((this.clock.now() - startedAt) / 1000);
    if (this.dirty.has(item)) {
      this.queue.push(item);
      if (this.getters.length > 0) this.serveGetters();
    }
    if (this.closed) this.processing.settleIfIdle();
  }

  /** How many items wait to be handed out (not counting delayed items or items in flight). */
  len(): number {
    return this.queue.length;
  }

  /**
   * Shuts the queue down now: see the class's guarantees. Also releases any pending
   * `shutDownWithDrain`. Idempotent.
   */
  shutDown(): void {
    this.close();
    this.processing.releaseWaiters();
    this.processing.settleIfIdle();
  }

  /**
   * Shuts the queue down as `shutDown` does, then resolves once no item is in flight (every
   * item handed out has been passed to `done`). Calling `shutDown` meanwhile resolves it at
   * once.
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

  /** The sum of the ages, in seconds, of the items being processed (0 when none). O(in flight). */
  unfinishedWorkSeconds(): number {
    return this.processing.unfinishedWorkSeconds();
  }

  /** The age, in seconds, of the item processed longest (0 when none). O(in flight). */
  longestRunningProcessorSeconds(): number {
    return this.processing.longestRunningProcessorSeconds();
  }

  /** Pops the head of the queue and moves it to processing. Assumes the queue is not empty. */
  private take(): T {
    const item = this.queue.shift() as T;
    this.dirty.delete(item);
    const now = this.clock.now();
    this.processing.begin(item, now);
    const metrics = this.metrics;
    if (metrics !== undefined) {
      metrics.depth.dec();
      const addedAt = metrics.addTimes.get(item);
      if (addedAt !== undefined) {
        metrics.latency.observe((now - addedAt) / 1000);
        metrics.addTimes.delete(item);
      }
    }
    return item;
  }

  private serveGetters(): void {
    while (this.getters.length > 0 && this.queue.length > 0) {
      const resolve = this.getters.shift() as Getter<T>;
      resolve({ item: this.take(), shutdown: false });
    }
  }

  private readonly onTimer = (): void => {
    if (this.closed) return;
    const now = this.clock.now();
    for (let next = this.delayed.peek(); next !== undefined && next.readyAt <= now; ) {
      this.delayed.pop();
      this.add(next.item);
      next = this.delayed.peek();
    }
    const next = this.delayed.peek();
    if (next !== undefined) this.timer.armFor(next.readyAt);
  };

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    this.delayed.clear();
    this.timer.clear();
    while (this.getters.length > 0) (this.getters.shift() as Getter<T>)(shutdownResult);
  }
}
