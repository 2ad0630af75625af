/**
 * The source of time of the workqueue and its rate limiters, injected so that tests can run
 * on fake time (see {@link FakeClock}) instead of sleeping.
 */

/** What {@link Clock.setTimeout} returns; only ever handed back to {@link Clock.clearTimeout}. */
export type TimerHandle = unknown;

/**
 * Time and one-shot timers.
 *
 * Assumes: `now()` never goes backwards (a monotonic clock) and counts milliseconds; only
 * differences between two readings are meaningful. `setTimeout` calls `callback` once, no
 * earlier than `ms` milliseconds later on the scale of `now()` (a callback that comes early
 * is tolerated by the queue, which checks `now()` and re-arms), unless the handle is cleared
 * first. `clearTimeout` of a fired or cleared handle is a no-op.
 */
export interface Clock {
  /** Milliseconds on a monotonic scale. */
  now(): number;
  /** Schedules `callback` once after `ms` milliseconds. */
  setTimeout(callback: () => void, ms: number): TimerHandle;
  /** Cancels a timer from {@link Clock.setTimeout}; a no-op when it has fired or was cleared. */
  clearTimeout(handle: TimerHandle): void;
}

/**
 * The process clock: `performance.now()` (monotonic, unaffected by changes of the wall
 * clock) and Node's timers, looked up when called so that vitest's fake timers apply.
 *
 * Guarantees: timers are ordinary (referenced) Node timers. The workqueue clears its only
 * timer at shutdown, so a shut-down queue keeps nothing alive; a queue that is never shut
 * down keeps the process alive until its next delayed item is due, as a pending `setTimeout`
 * would.
 */
export const realClock: Clock = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
