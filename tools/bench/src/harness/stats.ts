/** Small statistics helpers for benchmark samples. */

/** The median of `samples` (NaN for none). */
export function median(samples: readonly number[]): number {
  return percentile(samples, 50);
}

/**
 * The `p`-th percentile (0-100) of `samples` by the nearest-rank method (NaN for none): the
 * smallest sample such that at least p % of the samples are at or below it.
 */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] ?? Number.NaN;
}

/** `a / b`; NaN when b is 0 or either is not finite. */
export function ratio(a: number, b: number): number {
  if (!Number.isFinite(a) || !Number.isFinite(b) || b === 0) return Number.NaN;
  return a / b;
}

/** Milliseconds since `start` (from `performance.now()`). */
export function elapsedMs(start: number): number {
  return performance.now() - start;
}

/** Appends `value` to the samples under `key` (creating the list). */
export function addSample(samples: Record<string, number[]>, key: string, value: number): void {
  const list = samples[key];
  if (list === undefined) samples[key] = [value];
  else list.push(value);
}
