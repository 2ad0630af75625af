import type { TransportRequest } from '../transport/kube-transport.js';
import { type WatchOnceOptions, type WatchOutcome, watchOnce } from './informer-watch.js';
import { InitialEvents } from './informer-watch-list.js';
import type { WatchLineApplier } from './watch-line-applier.js';

/** What {@link watchListOnce} needs of its informer. */
export interface WatchListOnceOptions
  extends Omit<WatchOnceOptions, 'query' | 'silentWatchTimeoutMs' | 'handleLine'> {
  /** The WatchList's query (see `watchListQuery`), with the informer's selectors. */
  query: TransportRequest['query'];
  /** The silence limit of the watch once its initial events are stored. */
  silentWatchTimeoutMs: number;
  /** The silence limit before the initial-events-end bookmark (never above the other). */
  bookmarkTimeoutMs: number;
  /** Applies the lines: the initial phase's to the state being built, then the watch's. */
  lines: Pick<WatchLineApplier, 'apply' | 'applyInitial'>;
}

/**
 * One WatchList: its events up to the initial-events-end bookmark build the state, which
 * is stored (syncing the informer) at the bookmark; after it the same watch goes on as a
 * plain watch (see {@link watchOnce}). `synced` says whether the bookmark came. Never rejects.
 */
export async function watchListOnce(
  options: WatchListOnceOptions,
): Promise<{ synced: boolean; outcome: WatchOutcome }> {
  const { lines, bookmarkTimeoutMs, silentWatchTimeoutMs } = options;
  let initial: InitialEvents | undefined = new InitialEvents();
  const outcome = await watchOnce({
    transport: options.transport,
    path: options.path,
    query: options.query,
    clock: options.clock,
    // Until the bookmark, silence means a server that does not stream lists. The limit
    // never shrinks at the bookmark, so a silence check armed before it stays valid.
    get silentWatchTimeoutMs() {
      return initial === undefined
        ? silentWatchTimeoutMs
        : Math.min(bookmarkTimeoutMs, silentWatchTimeoutMs);
    },
    description: options.description,
    setClose: options.setClose,
    handleLine: (line) => {
      if (initial === undefined) return lines.apply(line);
      const ended = lines.applyInitial(line, initial);
      if (ended === true) initial = undefined;
      else return ended;
      return undefined;
    },
  });
  return { synced: initial === undefined, outcome };
}
