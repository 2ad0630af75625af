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

/** A promise with its resolve and reject functions (Node 20 lacks `Promise.withResolvers`). */
export function deferred<T = void>(): {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: Error) => void;
} {
  let resolve: (value: T) => void = () => undefined;
  let reject: (error: Error) => void = () => undefined;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
