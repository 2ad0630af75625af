import type { InformerRequestError } from '../errors/informer-request-error.js';

/**
 * Whether an informer must relist after a failed watch, rather than watch again from its
 * last resourceVersion. As client-go's reflector (tools/cache/reflector.go, `watch` and
 * `isWatchErrorRetriable`): any error the server answered (an HTTP status or an `ERROR`
 * event: 404 for a kind gone, 504 "Too large resource version" after the server lost its
 * store, 500, 503, ...) relists, except 429, which only backs off; so does a refused
 * connection, which there only backs off: here it relists too, because a server that went
 * away may come back with its store reset at versions that overlap the old ones, which no
 * resourceVersion check reveals. A stream cut mid-watch (a dropped connection) resumes from
 * the last resourceVersion, as client-go's stream watcher does. 410 is handled before this
 * (always a relist).
 */
export function relistAfterWatchError(error: InformerRequestError): boolean {
  if (error.status !== undefined) return error.status !== 429;
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
