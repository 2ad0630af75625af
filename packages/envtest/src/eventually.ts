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
 * The default `timeoutMs` of {@link eventually}: 4 s, inside vitest's default test timeout
 * (5 s), so a condition that never holds fails the test with what was still wrong rather
 * than with a test timeout. A test that waits longer passes `timeoutMs` and raises its own
 * timeout to match (`it(name, { timeout: 30_000 }, ...)`).
 */
export const defaultEventuallyTimeoutMs = 4_000;

/** How a value the check returned reads in an error message. */
function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  try {
    const text = JSON.stringify(value);
    if (text !== undefined) return text.length > 500 ? `${text.slice(0, 500)}…` : text;
  } catch {
    // a cycle or a BigInt: fall back to String
  }
  return String(value);
}

/**
 * Calls `check` until it returns without throwing (and, if it returns a boolean, returns
 * true), then resolves with its result. Fails after `timeoutMs` (default
 * {@link defaultEventuallyTimeoutMs}, 4 s) with the last attempt's outcome, so a failing test
 * says what was still wrong: the error the check threw (an assertion's message names the
 * value it saw), or `returned false`. The error's `cause` is that last error.
 */
export async function eventually<T>(
  check: () => T | Promise<T>,
  options: PollOptions = {},
): Promise<Exclude<T, false>> {
  const timeoutMs = options.timeoutMs ?? defaultEventuallyTimeoutMs;
  const intervalMs = options.intervalMs ?? 25;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  let attempts = 0;
  for (;;) {
    attempts++;
    try {
      const result = await check();
      if (result !== false) return result as Exclude<T, false>;
      lastError = new Error('the condition returned false');
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const what = options.description ? ` (${options.description})` : '';
      const cause = lastError instanceof Error ? lastError.message : describeValue(lastError);
      throw new Error(
        `condition not met within ${timeoutMs} ms${what}, ${attempts} attempt${attempts === 1 ? '' : 's'}; the last: ${cause}`,
        { cause: lastError },
      );
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
