import type { Logger } from 'pino';
import type { InformerRequestError } from '../errors/informer-request-error.js';
import type { InformerStats } from './informer.js';
import type { InformerFailures } from './informer-failures.js';
import type { WatchOutcome } from './informer-watch.js';

/**
 * Whether an informer must relist after a failed watch, rather than watch again from its
 * last resourceVersion: when the failure says the server's state may no longer be the one
 * the informer holds. That is a 404 (the kind is gone, say its CRD), a 504 (kube's "Too
 * large resource version": the server is behind the informer, as after it lost its store)
 * and a refused connection (a server restarting, which may come back with its store reset at
 * versions that overlap the old ones, which no resourceVersion check reveals). 410 is
 * handled before this (always a relist), as client-go's reflector does.
 *
 * Other failures only back off and watch again: 429 as in client-go
 * (tools/cache/reflector.go, `isWatchErrorRetriable`); a 500 or 503, after which client-go
 * relists, because a restart does not cause them and a flaky server would otherwise cost a
 * full relist per failed watch; a stream cut mid-watch, as client-go's stream watcher.
 */
export function relistAfterWatchError(error: InformerRequestError): boolean {
  if (error.status !== undefined) return error.status === 404 || error.status === 504;
  return connectionRefused(error);
}

/** Whether `error`, or one of its causes, is a refused TCP connection. */
function connectionRefused(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 8; depth++) {
    if ((current as NodeJS.ErrnoException).code === 'ECONNREFUSED') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** What {@link afterWatch} uses of its informer. */
export interface AfterWatchParts {
  counters: InformerStats;
  log: Logger;
  failures: InformerFailures;
  silentWatchTimeoutMs: number;
  resourceVersion: string;
  /** Waits the informer's next backoff delay. */
  backOff(): Promise<void>;
}

/**
 * Handles how a watch ended (not stopped): counts and logs it, backs off where the server
 * may be failing, and resolves to whether the informer must list again before watching (410,
 * or an error {@link relistAfterWatchError} says needs one).
 */
export async function afterWatch(
  outcome: Exclude<WatchOutcome, { kind: 'stopped' }>,
  parts: AfterWatchParts,
): Promise<boolean> {
  switch (outcome.kind) {
    case 'ended':
      parts.log.debug({ resourceVersion: parts.resourceVersion }, 'watch ended; watching again');
      return false;
    case 'gone':
      parts.counters.goneRelists++;
      parts.log.info({ reason: outcome.reason }, 'resourceVersion expired (410 Gone); relisting');
      return true;
    case 'silent':
      parts.counters.silentWatches++;
      parts.log.warn(
        { silentMs: parts.silentWatchTimeoutMs, resourceVersion: parts.resourceVersion },
        'watch went silent (no event or bookmark); reconnecting',
      );
      // A watch that never delivered anything may be a server that accepts and hangs: back
      // off before trying again.
      if (outcome.lines === 0) await parts.backOff();
      return false;
    case 'error': {
      parts.failures.report(outcome.error);
      const relist = relistAfterWatchError(outcome.error);
      if (relist) parts.counters.errorRelists++;
      await parts.backOff();
      return relist;
    }
  }
}
