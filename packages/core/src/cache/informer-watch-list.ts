import type { KubernetesObject } from '@ops/api';
import type { InformerRequestError } from '../errors/informer-request-error.js';
import type { TransportRequest } from '../transport/kube-transport.js';
import type { WatchOutcome } from './informer-watch.js';

/**
 * The annotation of the BOOKMARK that ends a WatchList's initial events (KEP-3157): every
 * object of the requested state has been sent as ADDED before it.
 */
export const initialEventsEndAnnotation = 'k8s.io/initial-events-end';

/**
 * Default {@link InformerOptions.watchListBookmarkTimeoutMs}: how long a WatchList may go
 * without delivering anything before its initial-events-end bookmark. kube-apiserver sends
 * the initial events as fast as the client reads them and waits at most 3 s for its watch
 * cache to be fresh first, so 10 s of silence means a server that does not stream lists.
 */
export const defaultWatchListBookmarkTimeoutMs = 10_000;

/**
 * The query of a WatchList (a "streaming list"): a WATCH that first sends the current state
 * as ADDED events, then the annotated BOOKMARK, then changes, as client-go's reflector asks
 * for it. No `resourceVersion`: the state is a consistent read, as fresh as a LIST without
 * one (client-go also omits it after an expired or unknown resourceVersion, which are the
 * only relists this informer makes).
 */
export function watchListQuery(timeoutSeconds: number): TransportRequest['query'] {
  return {
    watch: true,
    sendInitialEvents: true,
    resourceVersionMatch: 'NotOlderThan',
    allowWatchBookmarks: true,
    timeoutSeconds,
  };
}

/** Whether a BOOKMARK's object carries the initial-events-end annotation. */
export function isInitialEventsEnd(object: KubernetesObject | undefined): boolean {
  return object?.metadata?.annotations?.[initialEventsEndAnnotation] === 'true';
}

/**
 * The objects a WatchList delivered before its bookmark: the state being built, applied to
 * the informer's store in one step (as a complete list is) when the bookmark comes, so
 * handlers and readers never see a half-built state. An event for an object already held
 * replaces it; a DELETED removes it (kube-apiserver sends only ADDED before the bookmark,
 * but the order of a watch is kept whatever it sends).
 */
export class InitialEvents {
  private readonly objects = new Map<string, KubernetesObject>();

  /** Applies one event of the initial phase. */
  apply(type: 'ADDED' | 'MODIFIED' | 'DELETED', object: KubernetesObject): void {
    const key = `${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`;
    if (type === 'DELETED') this.objects.delete(key);
    else this.objects.set(key, object);
  }

  /** The objects held, in the order they first came. */
  items(): KubernetesObject[] {
    return [...this.objects.values()];
  }
}

/** What the informer does after a WatchList that ended before its initial-events-end bookmark. */
export type UnfinishedWatchList =
  /** Back off, then try WatchList again (410, 504 "Too large resource version", 429). */
  | { next: 'retry'; error: InformerRequestError | undefined }
  /**
   * Sync by a paged LIST instead. `unsupported`: the server does not stream lists for this
   * resource (it refused the parameters with a 400 or 422, or sent no bookmark), so this
   * informer lists from now on; otherwise (a 404, a 403, a 5xx, a cut connection) only this
   * sync lists (until a LIST succeeds), as client-go does ("making progress is better than
   * deadlocking").
   */
  | {
      next: 'list';
      unsupported: boolean;
      reason: string;
      error: InformerRequestError | undefined;
    };

/**
 * How an informer goes on after a WatchList that did not reach its bookmark, following
 * client-go's reflector (tools/cache/reflector.go, `watchList`): an expired (410) or too new
 * (504) resourceVersion and a 429 are retried as a WatchList; anything else falls back to a
 * paged LIST. A 400 or 422 (kube-apiserver answers 422 for parameters it does not accept,
 * older servers 400), a silence of `watchListBookmarkTimeoutMs` and a stream that ended
 * cleanly without the bookmark mark the resource as not streaming lists; other failures (a
 * 404 for a kind not served yet, a 403, a 5xx) say nothing about streaming.
 */
export function afterUnfinishedWatchList(
  outcome: Exclude<WatchOutcome, { kind: 'stopped' }>,
  bookmarkTimeoutMs: number,
): UnfinishedWatchList {
  switch (outcome.kind) {
    case 'gone':
      return { next: 'retry', error: undefined };
    case 'silent':
      return {
        next: 'list',
        unsupported: true,
        reason: `no initial-events-end bookmark within ${bookmarkTimeoutMs} ms of silence`,
        error: undefined,
      };
    case 'ended':
      return {
        next: 'list',
        unsupported: true,
        reason: 'the stream ended before the initial-events-end bookmark',
        error: undefined,
      };
    case 'error': {
      const status = outcome.error.status;
      if (status === 429 || status === 504) return { next: 'retry', error: outcome.error };
      const unsupported = status === 400 || status === 422;
      return { next: 'list', unsupported, reason: outcome.error.message, error: outcome.error };
    }
  }
}
