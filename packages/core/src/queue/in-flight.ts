import type { Clock } from '../clock/clock.js';
import type { UnregisterMetric } from './workqueue-metrics.js';

/**
 * @internal The items a queue has handed out and not yet seen `done` for, with when each was
 * handed out, and what waits for them to drain: the part of client-go's queue shutdown and
 * "unfinished work" metrics that both `WorkQueue` and `PriorityQueue` share.
 *
 * Guarantees: once the queue is shut down and nothing is in flight ({@link settleIfIdle}),
 * every `drained()` promise resolves and the metrics registered with
 * {@link unregisterOnSettle} are unregistered, once.
 */
export class InFlight<T> {
  private readonly started = new Map<T, number>();
  private drainWaiters: (() => void)[] = [];
  private unregisters: UnregisterMetric[] = [];

  constructor(private readonly clock: Clock) {}

  /** How many items are in flight. */
  get size(): number {
    return this.started.size;
  }

  /** Whether `item` is in flight. */
  has(item: T): boolean {
    return this.started.has(item);
  }

  /** The items in flight. */
  keys(): IterableIterator<T> {
    return this.started.keys();
  }

  /** `item` was handed out at `now`. */
  begin(item: T, now: number): void {
    this.started.set(item, now);
  }

  /** `item` is done: returns when it was handed out, or `undefined` when it was not in flight. */
  end(item: T): number | undefined {
    const startedAt = this.started.get(item);
    if (startedAt !== undefined) this.started.delete(item);
    return startedAt;
  }

  /** Metrics to unregister once the queue is shut down with nothing in flight. */
  unregisterOnSettle(unregisters: UnregisterMetric[]): void {
    this.unregisters = unregisters;
  }

  /** Resolves once {@link settleIfIdle} finds nothing in flight (at once if so now). */
  drained(): Promise<void> {
    if (this.started.size === 0) {
      this.settle();
      return Promise.resolve();
    }
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  /** Resolves every `drained()` promise now, whatever is in flight (`shutDown`). */
  releaseWaiters(): void {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /** Call once shut down, after each `done`: settles when nothing is in flight. */
  settleIfIdle(): void {
    if (this.started.size === 0) this.settle();
  }

  /** The sum of the ages, in seconds, of the items in flight (0 when none). O(in flight). */
  unfinishedWorkSeconds(): number {
    if (this.started.size === 0) return 0;
    const now = this.clock.now();
    let total = 0;
    for (const startedAt of this.started.values()) total += now - startedAt;
    return total / 1000;
  }

  /** The age, in seconds, of the item in flight longest (0 when none). O(in flight). */
  longestRunningProcessorSeconds(): number {
    if (this.started.size === 0) return 0;
    let oldest = Number.POSITIVE_INFINITY;
    for (const startedAt of this.started.values()) if (startedAt < oldest) oldest = startedAt;
    return (this.clock.now() - oldest) / 1000;
  }

  private settle(): void {
    this.releaseWaiters();
    for (const unregister of this.unregisters.splice(0)) unregister();
  }
}
