import type { Clock, TimerHandle } from '../clock/clock.js';
import type { InformerRequestError } from '../errors/informer-request-error.js';
import { InformerSyncError } from '../errors/informer-sync-error.js';

interface SyncWaiter {
  resolve(): void;
  reject(error: Error): void;
  timer: TimerHandle;
}

/**
 * The callers waiting for an informer's first sync: each resolves when it syncs, rejects
 * when it stops, or rejects on its own after its timeout (timers on the informer's clock).
 */
export class SyncWaiters {
  private readonly waiters = new Set<SyncWaiter>();

  constructor(private readonly clock: Clock) {}

  /** Waits for {@link resolveAll} or {@link rejectAll}; after `timeoutMs`, rejects with `timeoutError()`. */
  wait(timeoutMs: number, timeoutError: () => Error): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const waiter: SyncWaiter = {
        resolve,
        reject,
        timer: this.clock.setTimeout(() => {
          this.waiters.delete(waiter);
          reject(timeoutError());
        }, timeoutMs),
      };
      this.waiters.add(waiter);
    });
  }

  /** Resolves every pending wait. */
  resolveAll(): void {
    for (const waiter of this.waiters) {
      this.clock.clearTimeout(waiter.timer);
      waiter.resolve();
    }
    this.waiters.clear();
  }

  /** Rejects every pending wait with `error`. */
  rejectAll(error: Error): void {
    for (const waiter of this.waiters) {
      this.clock.clearTimeout(waiter.timer);
      waiter.reject(error);
    }
    this.waiters.clear();
  }
}

/**
 * The error of a wait for sync that timed out: why (never started, the last list or watch
 * error, or a list still running) and, for 404 and 401/403, what to check.
 */
export function syncTimeoutError(
  description: string,
  timeoutMs: number,
  started: boolean,
  cause: InformerRequestError | undefined,
): InformerSyncError {
  const why = !started
    ? ': it was never started (call start(), or read through InformerCache which starts it)'
    : cause !== undefined
      ? `; last error: ${cause.message}`
      : '; the first list has not completed (is the API server slow or the list very large?)';
  const hint =
    cause?.status === 404
      ? '; check that the API server serves this resource (is its CRD installed?)'
      : cause?.status === 401 || cause?.status === 403
        ? '; check that the user may list and watch this resource'
        : '';
  return new InformerSyncError(
    `the informer for ${description} did not sync within ${timeoutMs} ms${why}${hint}`,
    'Timeout',
    description,
    { cause },
  );
}

/** The {@link InformerSyncError} (`Stopped`) of a wait for an informer stopped before it synced. */
export function stoppedBeforeSyncError(description: string): InformerSyncError {
  return new InformerSyncError(
    `the informer for ${description} was stopped before it synced`,
    'Stopped',
    description,
  );
}
