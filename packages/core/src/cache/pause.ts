import type { Clock } from '../clock/clock.js';

/**
 * A wait on a clock that can be cut short: how an informer backs off between attempts and
 * still stops at once when asked to during the wait.
 */
export class Pause {
  #wake: (() => void) | undefined;

  constructor(private readonly clock: Clock) {}

  /** Resolves after `ms` on the clock, or at once when {@link wake} is called first. */
  sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const handle = this.clock.setTimeout(() => {
        this.#wake = undefined;
        resolve();
      }, ms);
      this.#wake = () => {
        this.clock.clearTimeout(handle);
        this.#wake = undefined;
        resolve();
      };
    });
  }

  /** Ends the current sleep now; a no-op when none is running. */
  wake(): void {
    this.#wake?.();
  }
}
