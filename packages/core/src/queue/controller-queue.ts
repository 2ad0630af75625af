/**
 * The priority controller-runtime gives events that say nothing new (`handler.LowPriority`):
 * the adds of an informer's initial list and updates whose resourceVersion did not change.
 * Below the default (0), with room between for priorities of one's own.
 */
export const LowPriority = -100;

/** How {@link ControllerQueue.addWithOptions} adds an item (controller-runtime's `AddOpts`). */
export interface AddOptions {
  /**
   * Higher is handed out first; a whole number, default 0. An item already pending keeps
   * the higher of its priority and this one. The FIFO `WorkQueue` ignores it.
   */
  priority?: number;
  /** Hold the item this many milliseconds before it is ready (0, negative or absent: at once). */
  afterMs?: number;
  /**
   * Hold the item for the delay its rate limiter gives it (recording one failure); with
   * `afterMs` too, the shorter of the two, as controller-runtime does.
   */
  rateLimited?: boolean;
}

/**
 * What {@link ControllerQueue.getWithPriority} resolves with: an item and the priority it was
 * queued at (0 for the FIFO queue), or `shutdown: true` when the queue is shut down and has
 * nothing left to hand out.
 */
export type PriorityGetResult<T> =
  | { readonly item: T; readonly priority: number; readonly shutdown: false }
  | { readonly item: undefined; readonly priority: 0; readonly shutdown: true };

/** @internal The result of a `getWithPriority` on a shut-down, empty queue. */
export const shutdownPriorityResult: PriorityGetResult<never> = Object.freeze({
  item: undefined,
  priority: 0,
  shutdown: true,
});

/**
 * The queue a `Controller` runs on: client-go's rate-limiting workqueue plus
 * controller-runtime's `AddWithOpts` and `GetWithPriority`. Implemented by `PriorityQueue`
 * (the default) and by the FIFO `WorkQueue` (which ignores priorities and hands out priority
 * 0).
 *
 * Guarantees of both: an item is pending at most once; an item handed out is not handed out
 * again before `done` (an add meanwhile waits for it); delays keep the earlier ready time;
 * after shutdown adds are no-ops and waiting `get`s resolve with `shutdown: true`. See each
 * class for its order.
 */
export interface ControllerQueue<T> {
  readonly name: string;
  /** Adds `item` as `options` say (see {@link AddOptions}). */
  addWithOptions(item: T, options: AddOptions): void;
  /** Adds `item` now, at the default priority. */
  add(item: T): void;
  /** Adds `item` after `ms` milliseconds, at the default priority. */
  addAfter(item: T, ms: number): void;
  /** Adds `item` after its rate limiter's delay, at the default priority. */
  addRateLimited(item: T): void;
  /** Waits for an item and hands it out with its priority; the caller must call `done`. */
  getWithPriority(): Promise<PriorityGetResult<T>>;
  /** Marks `item` as done processing. */
  done(item: T): void;
  /** Resets `item`'s rate limiter backoff. */
  forget(item: T): void;
  /** How many failures of `item` its rate limiter has recorded since it was last forgotten. */
  numRequeues(item: T): number;
  /** How many items are ready to be handed out. */
  len(): number;
  shutDown(): void;
  shutDownWithDrain(): Promise<void>;
  shuttingDown(): boolean;
}

/**
 * Checks a priority given to a queue or returned by a reconciler.
 *
 * @throws {RangeError} when it is not a safe integer, naming what was given and where.
 */
export function checkPriority(priority: number, where: string): number {
  if (!Number.isSafeInteger(priority)) {
    throw new RangeError(
      `${where}: a priority must be a whole number (higher first, default 0, LowPriority is ${LowPriority}), got ${String(priority)}`,
    );
  }
  return priority;
}
