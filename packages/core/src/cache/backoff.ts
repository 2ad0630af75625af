import type { Clock } from '../clock/clock.js';

/** Settings of a {@link Backoff}. */
export interface BackoffOptions {
  /** The first delay, in milliseconds (default 800, as client-go's reflector). */
  initialMs?: number;
  /** The largest delay (default 30,000). */
  maxMs?: number;
  /** Growth per failure (default 2). */
  factor?: number;
  /**
   * How much of each delay is random, 0..1 (default 0.2): a delay of `d` becomes a value in
   * `(d × (1 − jitter), d]`, so clients that failed together do not retry together.
   */
  jitter?: number;
  /**
   * After this long without a failure the next delay starts again from `initialMs`
   * (default 120,000, client-go's reset duration): a healthy period resets the backoff.
   */
  resetAfterMs?: number;
}

/** Default first delay of a {@link Backoff}, in milliseconds. */
export const defaultBackoffInitialMs = 800;
/** Default largest delay of a {@link Backoff}, in milliseconds. */
export const defaultBackoffMaxMs = 30_000;
/** Default quiet period after which a {@link Backoff} starts over, in milliseconds. */
export const defaultBackoffResetAfterMs = 120_000;

/**
 * Jittered exponential backoff with a reset after a healthy period, as client-go's
 * exponential backoff manager: each {@link next} returns the delay to wait before retrying.
 *
 * Guarantees: delays grow by `factor` from `initialMs` up to `maxMs`; every delay is in
 * `(base × (1 − jitter), base]` and never above `maxMs`; when more than `resetAfterMs`
 * passed since the previous {@link next}, the sequence starts over.
 *
 * Assumes: options are finite and positive (`jitter` in 0..1); `random` returns values in
 * `[0, 1)`.
 */
export class Backoff {
  private readonly initialMs: number;
  private readonly maxMs: number;
  private readonly factor: number;
  private readonly jitter: number;
  private readonly resetAfterMs: number;
  private attempt = 0;
  private lastAt: number | undefined;

  constructor(
    options: BackoffOptions,
    private readonly clock: Clock,
    private readonly random: () => number = Math.random,
  ) {
    this.initialMs = options.initialMs ?? defaultBackoffInitialMs;
    this.maxMs = Math.max(options.maxMs ?? defaultBackoffMaxMs, this.initialMs);
    this.factor = options.factor ?? 2;
    this.jitter = Math.min(Math.max(options.jitter ?? 0.2, 0), 1);
    this.resetAfterMs = options.resetAfterMs ?? defaultBackoffResetAfterMs;
  }

  /** The delay before the next retry, in milliseconds; counts one failure. */
  next(): number {
    const now = this.clock.now();
    if (this.lastAt !== undefined && now - this.lastAt > this.resetAfterMs) this.attempt = 0;
    this.lastAt = now;
    const base = Math.min(this.initialMs * this.factor ** this.attempt, this.maxMs);
    if (base < this.maxMs) this.attempt++;
    return base * (1 - this.jitter * this.random());
  }

  /** Starts over: the next delay is `initialMs` again (jittered). */
  reset(): void {
    this.attempt = 0;
    this.lastAt = undefined;
  }
}
