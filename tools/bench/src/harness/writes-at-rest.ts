import { sleep } from './wait.js';

/** What {@link writesAtRest} counted. */
export interface WritesAtRest {
  /** The write count once writes had stopped for 300 ms. */
  settled: number;
  /** Writes made during the quiet period after that. */
  quietWrites: number;
}

/**
 * Writes at rest of an operator whose writes so far `writes()` returns: waits out the
 * stragglers (until no write for 300 ms), then counts the writes made over `quietMs`.
 */
export async function writesAtRest(writes: () => number, quietMs: number): Promise<WritesAtRest> {
  let last = writes();
  for (;;) {
    await sleep(300);
    if (writes() === last) break;
    last = writes();
  }
  const settled = writes();
  await sleep(quietMs);
  return { settled, quietWrites: writes() - settled };
}
