/** Options of {@link eventually} and {@link consistently}. */
export interface PollOptions {
  /** How long to keep trying (eventually) or to keep checking (consistently), in ms. */
  timeoutMs?: number;
  /** Pause between attempts, in ms (default 25). */
  intervalMs?: number;
  /** Named in the error when the condition does not hold, e.g. "deployment app-demo ready". */
  description?: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Calls `check` until it returns without throwing (and, if it returns a boolean, returns
 * true), then resolves with its result. Fails after `timeoutMs` (default 10 s) with the last
 * error, so a failing test says what was still wrong.
 */
export async function eventually<T>(
  check: () => T | Promise<T>,
  options: PollOptions = {},
): Promise<Exclude<T, false>> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const intervalMs = options.intervalMs ?? 25;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const result = await check();
      if (result !== false) return result as Exclude<T, false>;
      lastError = new Error('the condition returned false');
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const what = options.description ? ` (${options.description})` : '';
      const cause = lastError instanceof Error ? lastError.message : String(lastError);
      throw new Error(`condition not met within ${timeoutMs} ms${what}: ${cause}`, {
        cause: lastError,
      });
    }
    await sleep(intervalMs);
  }
}

/**
 * Calls `check` repeatedly for `timeoutMs` (default 1 s) and fails at the first attempt that
 * throws or returns false: for asserting that something does NOT happen (no write, no
 * deletion).
 */
export async function consistently(check: () => unknown, options: PollOptions = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 1_000;
  const intervalMs = options.intervalMs ?? 25;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let failure: unknown;
    try {
      if ((await check()) === false) failure = new Error('the condition returned false');
    } catch (error) {
      failure = error;
    }
    if (failure !== undefined) {
      const what = options.description ? ` (${options.description})` : '';
      const cause = failure instanceof Error ? failure.message : String(failure);
      throw new Error(`condition stopped holding${what}: ${cause}`, { cause: failure });
    }
    if (Date.now() >= deadline) return;
    await sleep(intervalMs);
  }
}
