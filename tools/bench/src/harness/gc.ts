import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let cached: (() => void) | undefined;

/**
 * A full, synchronous garbage collection: `global.gc` when node runs with `--expose-gc` (as
 * `pnpm bench` does), else the same function obtained by turning the flag on at run time (so
 * the test suite works under vitest's workers too).
 */
export function collectGarbage(): void {
  if (cached === undefined) {
    const exposed = (globalThis as { gc?: () => void }).gc;
    if (typeof exposed === 'function') cached = exposed;
    else {
      setFlagsFromString('--expose-gc');
      cached = runInNewContext('gc') as () => void;
    }
  }
  // Twice: the first pass may only queue finalizers whose objects the second frees.
  cached();
  cached();
}

/** V8's used heap in bytes after a full collection. */
export function settledHeapUsed(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed;
}
