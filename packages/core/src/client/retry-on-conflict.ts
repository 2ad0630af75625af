import { isConflict } from './api-error-helpers.js';

/** Waits between attempts, as client-go's `wait.Backoff` (durations in milliseconds). */
export interface RetryBackoff {
  /** Wait before the second attempt. */
  durationMs: number;
  /** Each wait is the previous one times `factor` (1: constant). */
  factor: number;
  /** Each wait is lengthened by a random fraction of up to `jitter` of itself. */
  jitter: number;
  /** No wait grows beyond this (none when absent). */
  capMs?: number;
}

/** Options of {@link retryOnConflict} and {@link retryOnError}. */
export interface RetryOptions {
  /** Attempts at most (default 5). */
  steps?: number;
  /** The waits; a number is the first wait in milliseconds (default {@link defaultRetry}). */
  backoff?: number | Partial<RetryBackoff>;
  /** Stops waiting: the pending wait rejects with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * client-go's `retry.DefaultRetry`: 5 attempts, 10 ms apart, factor 1, jitter 0.1. Meant for
 * conflicts between controllers, which clear quickly.
 */
export const defaultRetry: Readonly<RetryBackoff & { steps: number }> = Object.freeze({
  steps: 5,
  durationMs: 10,
  factor: 1,
  jitter: 0.1,
});

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Runs `fn` until it succeeds, it throws an error `retriable` rejects, or `steps` attempts
 * have failed (client-go's `retry.OnError`). Resolves with `fn`'s value; rejects with the
 * first non-retriable error, or the last error once the attempts are used up.
 *
 * @throws RangeError when `steps` is below 1.
 */
export async function retryOnError<T>(
  retriable: (error: unknown) => boolean,
  fn: () => Promise<T> | T,
  options: RetryOptions = {},
): Promise<T> {
  const steps = options.steps ?? defaultRetry.steps;
  if (!Number.isInteger(steps) || steps < 1) {
    throw new RangeError(`retry steps must be a positive integer, got ${steps}`);
  }
  const given = options.backoff;
  const backoff: RetryBackoff = {
    ...defaultRetry,
    ...(typeof given === 'number' ? { durationMs: given } : given),
  };
  let wait = backoff.durationMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (!retriable(error) || attempt >= steps) throw error;
    }
    const jittered = backoff.jitter > 0 ? wait + Math.random() * backoff.jitter * wait : wait;
    await sleep(jittered, options.signal);
    wait =
      backoff.capMs === undefined
        ? wait * backoff.factor
        : Math.min(wait * backoff.factor, backoff.capMs);
  }
}

/**
 * client-go's `retry.RetryOnConflict`: runs `fn` (which should read the object, change it
 * and write it) again whenever it fails with a 409 Conflict, up to `steps` attempts (default
 * {@link defaultRetry}: 5 attempts, 10 ms apart with 10% jitter). Any other error is thrown
 * at once; after the last attempt the last Conflict is thrown.
 *
 * `fn` must read the object afresh on every attempt: reapplying a change to the stale copy
 * fails again.
 */
export function retryOnConflict<T>(
  fn: () => Promise<T> | T,
  options: RetryOptions = {},
): Promise<T> {
  return retryOnError(isConflict, fn, options);
}
