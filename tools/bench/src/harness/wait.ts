import { setTimeout as sleep } from 'node:timers/promises';

export { sleep };

/**
 * Polls `check` every `intervalMs` until it returns true.
 *
 * @throws {Error} naming `what` when it is still false after `timeoutMs`.
 */
export async function waitUntil(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 60_000,
  intervalMs = 10,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${what}`);
    await sleep(intervalMs);
  }
}
