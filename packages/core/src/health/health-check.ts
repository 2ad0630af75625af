/**
 * A named health or readiness check: resolves (or returns) when healthy, throws or rejects
 * with an error saying what is wrong when not.
 */
export type HealthCheck = () => void | Promise<void>;

/** What one run of a {@link HealthCheck} gave. */
export type HealthCheckResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: string };

/** How long a check may take before it counts as failed, by default: 5 s. */
export const defaultCheckTimeoutMs = 5_000;

/**
 * A check that always passes, installed by the {@link HealthServer} on an endpoint that has
 * no checks (controller-runtime's `healthz.Ping`).
 */
export const ping: HealthCheck = () => {};

/**
 * Runs `check` once, never throwing: a check that throws (synchronously or by rejecting)
 * fails with its error's message; one that has not settled after `timeoutMs` fails with
 * `timed out after <timeoutMs> ms` (it keeps running in the background; its outcome is then
 * ignored). The reason is one line: newlines in messages become spaces.
 */
export async function runHealthCheck(
  check: HealthCheck,
  timeoutMs: number = defaultCheckTimeoutMs,
): Promise<HealthCheckResult> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<HealthCheckResult>((resolve) => {
    timer = setTimeout(
      () => resolve({ ok: false, reason: `timed out after ${timeoutMs} ms` }),
      timeoutMs,
    );
    timer.unref();
  });
  const run = (async (): Promise<HealthCheckResult> => {
    try {
      await check();
      return { ok: true };
    } catch (error) {
      return { ok: false, reason: oneLine(error) };
    }
  })();
  try {
    return await Promise.race([run, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = message.replace(/\s*[\r\n]+\s*/g, ' ').trim();
  return line === '' ? 'check failed without a message' : line;
}
