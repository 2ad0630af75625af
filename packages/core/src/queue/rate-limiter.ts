/**
 * Decides how long an item waits before it is retried (client-go's `workqueue.RateLimiter`).
 * Limiters compose: see {@link MaxOfRateLimiter} and {@link defaultControllerRateLimiter}.
 *
 * Assumes of implementations: `when` records one failure of `item` (or one use of a shared
 * budget) and returns a delay in milliseconds, finite and >= 0; `forget` drops what is
 * recorded for `item` only; `numRequeues` reads without recording. Items are compared as
 * `Map` keys (SameValueZero: strings by value, objects by identity).
 */
export interface RateLimiter<T = string> {
  /** Records a failure of `item` and returns how many milliseconds it should wait. */
  when(item: T): number;
  /** Stops tracking `item` (it succeeded, or was given up on). */
  forget(item: T): void;
  /** How many failures of `item` are recorded since it was last forgotten. */
  numRequeues(item: T): number;
}
