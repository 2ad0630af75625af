import { StatusError } from '../api/status-error.js';

/** What a reconcile may ask of its loop: to be run again after a while. */
export interface ReconcileResult {
  /** Run this key again after this many milliseconds (level-based: state is read afresh). */
  requeueAfterMs?: number;
}

/** One failed reconcile, as {@link ReconcileLoop} reports it. */
export interface ClusterErrorRecord {
  /** The controller that failed, e.g. `replicaset`. */
  controller: string;
  /** The key it was reconciling (`namespace/name`, or a controller-specific key). */
  key: string;
  error: unknown;
  /** When it failed. */
  at: Date;
}

/** Options of a {@link ReconcileLoop}. */
export interface ReconcileLoopOptions {
  /** Names the loop in error reports. */
  name: string;
  /** Reconciles one key; reads the current state, never the event that queued the key. */
  reconcile(key: string): Promise<ReconcileResult | undefined>;
  /** Told about every failed reconcile but conflicts and not-founds (which are retried silently). */
  onError(record: ClusterErrorRecord): void;
  /** Reconciles running at once, each on a different key (default 16). */
  concurrency?: number;
}

const baseBackoffMs = 5;
const maxBackoffMs = 2_000;

/**
 * A work queue of keys drained asynchronously, as client-go's workqueue with a controller's
 * workers would: adding a key already waiting coalesces; a key is never reconciled twice at
 * once (a key added while it runs is run once more afterwards); a failed reconcile is retried
 * with exponential backoff (5 ms doubling to 2 s), a 409 Conflict or 404 NotFound is retried
 * without being reported (the retry reads fresh state).
 *
 * `add` is cheap and synchronous, so it may be called from a store listener; it never throws
 * and never runs a reconcile before returning. After `stop()` keys are ignored.
 */
export class ReconcileLoop {
  private readonly queue = new Set<string>();
  private readonly running = new Set<string>();
  private readonly dirty = new Set<string>();
  private readonly timers = new Map<string, { timer: NodeJS.Timeout; at: number }>();
  private readonly failures = new Map<string, number>();
  private readonly inflight = new Set<Promise<void>>();
  private readonly idleWaiters: Array<() => void> = [];
  private drainScheduled = false;
  private stopped = false;
  private readonly concurrency: number;

  constructor(private readonly options: ReconcileLoopOptions) {
    this.concurrency = Math.max(1, options.concurrency ?? 16);
  }

  /** The loop's name. */
  get name(): string {
    return this.options.name;
  }

  /** Queues a key to be reconciled soon (after the current macrotask). */
  add(key: string): void {
    if (this.stopped) return;
    const pending = this.timers.get(key);
    if (pending !== undefined) {
      clearTimeout(pending.timer);
      this.timers.delete(key);
    }
    if (this.running.has(key)) {
      this.dirty.add(key);
      return;
    }
    this.queue.add(key);
    this.scheduleDrain();
  }

  /** Queues a key after `delayMs`, unless it is queued sooner by {@link add}. */
  addAfter(key: string, delayMs: number): void {
    if (this.stopped) return;
    if (delayMs <= 0) {
      this.add(key);
      return;
    }
    // A key already queued runs sooner; of two timers the earlier deadline wins.
    if (this.queue.has(key)) return;
    const at = Date.now() + delayMs;
    const existing = this.timers.get(key);
    if (existing !== undefined) {
      if (existing.at <= at) return;
      clearTimeout(existing.timer);
    }
    const timer = setTimeout(() => {
      this.timers.delete(key);
      this.add(key);
    }, delayMs);
    this.timers.set(key, { timer, at });
  }

  /**
   * Forgets a key: cancels its timer and drops it from the queue (a running reconcile of it
   * finishes, but is not run again for an earlier add).
   */
  cancel(key: string): void {
    const pending = this.timers.get(key);
    if (pending !== undefined) {
      clearTimeout(pending.timer);
      this.timers.delete(key);
    }
    this.queue.delete(key);
    this.dirty.delete(key);
    this.failures.delete(key);
    this.notifyIdle();
  }

  /** Whether nothing is queued, running or waiting on a timer. */
  isIdle(): boolean {
    return (
      this.queue.size === 0 &&
      this.running.size === 0 &&
      this.dirty.size === 0 &&
      this.timers.size === 0
    );
  }

  /** Resolves the next time the loop is idle (at once when it is). */
  whenIdle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops taking keys, cancels timers and waits for running reconciles to end. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const { timer } of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.queue.clear();
    this.dirty.clear();
    await Promise.allSettled([...this.inflight]);
    this.notifyIdle();
  }

  private scheduleDrain(): void {
    if (this.drainScheduled || this.stopped) return;
    this.drainScheduled = true;
    setImmediate(() => {
      this.drainScheduled = false;
      this.drain();
    });
  }

  private drain(): void {
    for (const key of this.queue) {
      if (this.stopped || this.running.size >= this.concurrency) break;
      this.queue.delete(key);
      this.running.add(key);
      const run = this.run(key);
      this.inflight.add(run);
      void run.finally(() => this.inflight.delete(run));
    }
  }

  private async run(key: string): Promise<void> {
    let requeueAfterMs: number | undefined;
    let failed = false;
    try {
      const result = await this.options.reconcile(key);
      requeueAfterMs = result?.requeueAfterMs;
      this.failures.delete(key);
    } catch (error) {
      failed = true;
      const quiet = StatusError.isInstance(error) && (error.code === 409 || error.code === 404);
      if (!quiet) {
        try {
          this.options.onError({ controller: this.options.name, key, error, at: new Date() });
        } catch {
          // An error reporter that throws must not stop the loop; the error was already seen.
        }
      }
    }
    this.running.delete(key);
    if (!this.stopped) {
      if (failed) {
        const count = (this.failures.get(key) ?? 0) + 1;
        this.failures.set(key, count);
        this.dirty.delete(key);
        this.addAfter(key, Math.min(maxBackoffMs, baseBackoffMs * 2 ** (count - 1)));
      } else if (this.dirty.delete(key)) {
        this.add(key);
      } else if (requeueAfterMs !== undefined) {
        this.addAfter(key, requeueAfterMs);
      }
      if (this.queue.size > 0) this.scheduleDrain();
    }
    this.notifyIdle();
  }

  private notifyIdle(): void {
    if (!this.isIdle() && !this.stopped) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}
