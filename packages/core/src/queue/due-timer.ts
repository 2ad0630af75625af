import type { Clock, TimerHandle } from '../clock/clock.js';

/** The longest delay Node's timers accept (2^31 - 1 ms, about 24.8 days). */
const maxTimerDelayMs = 2_147_483_647;

/**
 * @internal The one timer of a delaying queue: armed for the earliest due time it was asked
 * for, re-armed only when asked for an earlier one, calling `onDue` when it fires (then it is
 * disarmed: `onDue` arms it again for the next due time, if any).
 *
 * Guarantees: at most one timer pending on `clock`; a due time beyond what Node's timers take
 * fires early (at the longest delay), and `onDue` finds nothing due and re-arms; `clear`
 * leaves nothing pending, so nothing keeps Node alive.
 */
export class DueTimer {
  private timer: TimerHandle = undefined;
  /** The due time the timer is armed for; `Infinity` when none is armed. */
  private armedAt = Number.POSITIVE_INFINITY;

  constructor(
    private readonly clock: Clock,
    private readonly onDue: () => void,
  ) {}

  /** Arms the timer for `readyAt`, unless it is armed for that time or an earlier one. */
  armFor(readyAt: number): void {
    if (readyAt >= this.armedAt) return;
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    const wait = Math.ceil(readyAt - this.clock.now());
    this.armedAt = readyAt;
    this.timer = this.clock.setTimeout(this.fire, Math.max(1, Math.min(wait, maxTimerDelayMs)));
  }

  /** Disarms the timer. */
  clear(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.armedAt = Number.POSITIVE_INFINITY;
  }

  private readonly fire = (): void => {
    this.timer = undefined;
    this.armedAt = Number.POSITIVE_INFINITY;
    this.onDue();
  };
}
