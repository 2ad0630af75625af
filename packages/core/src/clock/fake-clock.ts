import type { Clock, TimerHandle } from './clock.js';

interface FakeTimer {
  readonly at: number;
  readonly callback: () => void;
}

/**
 * A manual {@link Clock} for tests: time stands still until {@link FakeClock.advance} moves
 * it, which fires the timers that fall due on the way.
 *
 * Guarantees: timers fire in order of due time, ties in order of creation; `now()` during a
 * callback reads that timer's due time; timers that callbacks schedule fire in the same
 * `advance` when they fall due within it. Callbacks run synchronously inside `advance`, so
 * promises they settle are observed after an `await`.
 *
 * Assumes: single-threaded use from tests. A negative, NaN or infinite delay counts as 0.
 */
export class FakeClock implements Clock {
  private current: number;
  private nextId = 1;
  private readonly timers = new Map<number, FakeTimer>();

  /** Starts the clock at `start` milliseconds. */
  constructor(start = 0) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimeout(callback: () => void, ms: number): TimerHandle {
    const id = this.nextId++;
    const delay = Number.isFinite(ms) && ms > 0 ? ms : 0;
    this.timers.set(id, { at: this.current + delay, callback });
    return id;
  }

  clearTimeout(handle: TimerHandle): void {
    if (typeof handle === 'number') this.timers.delete(handle);
  }

  /**
   * Moves time forward by `ms` milliseconds, firing every timer due by then.
   *
   * @throws {RangeError} when `ms` is negative or not finite: fake time only moves forward.
   */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) {
      throw new RangeError(
        `FakeClock.advance: ${ms} is not a valid step; pass a finite number of milliseconds >= 0`,
      );
    }
    const target = this.current + ms;
    for (;;) {
      let dueId = 0;
      let due: FakeTimer | undefined;
      for (const [id, timer] of this.timers) {
        // Map iteration is in creation order, so `<` keeps the earliest-created on ties.
        if (timer.at <= target && (due === undefined || timer.at < due.at)) {
          dueId = id;
          due = timer;
        }
      }
      if (due === undefined) break;
      this.timers.delete(dueId);
      if (due.at > this.current) this.current = due.at;
      due.callback();
    }
    this.current = target;
  }

  /** How many timers are scheduled and have neither fired nor been cleared. */
  pendingTimers(): number {
    return this.timers.size;
  }
}
