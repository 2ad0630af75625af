import type { CachedPlural } from './cache-variants.js';

/**
 * The contenders of the cold-sync matrix, each measured in a process of its own:
 * `floor` (JSON.parse of the list bytes, fetched untimed), `bare-http` (one unpaged LIST over
 * node:http + JSON.parse), `ops` (the Informer with its defaults), `ops-one-page` (one LIST of
 * everything), `client-node` (its informer) and `fluent` (its Watch).
 */
export type SyncContender =
  | 'floor'
  | 'bare-http'
  | 'ops'
  | 'ops-one-page'
  | 'client-node'
  | 'fluent'
  | WatchListContender;

/**
 * The contenders of the watch-list benchmark beyond the matrix's: the `@ops/core` informer
 * syncing by WatchList or by paged LIST (`watchList: false`), each without and with gzip,
 * and the floor of a WatchList sync (`bare-watch-list`: the stream read over node:http and
 * each line `JSON.parse`d into a Map, no library).
 */
export type WatchListContender =
  | 'bare-watch-list'
  | 'ops-watch-list'
  | 'ops-list'
  | 'ops-watch-list-gzip'
  | 'ops-list-gzip';

/** Every contender, in the order reports list them. */
export const syncContenders: readonly SyncContender[] = [
  'floor',
  'bare-http',
  'ops',
  'ops-one-page',
  'client-node',
  'fluent',
];

/** What the parent asks of one sync child (its one command-line argument, as JSON). */
export interface SyncJob {
  contender: SyncContender;
  url: string;
  /** The admin kubeconfig's path. */
  kubeconfigPath: string;
  namespace: string;
  plural: CachedPlural;
  /** Objects the namespace holds: the sync must end with exactly these. */
  expected: number;
}

/** The child's one message: its figures, or why it failed. */
export type SyncOutcome =
  | {
      ok: true;
      /** Milliseconds from start until every object was in memory. */
      ms: number;
      /** Heap retained per object (after a full collection) with the cache held. */
      heapPerObject: number;
      /** CPU time (user + system) of the process over the timed part, in ms. */
      cpuMs: number;
      /**
       * Bytes the process read over the timed part (`rchar` of /proc/self/io: every thread's
       * reads, sockets included; what arrived, compressed or not); undefined off Linux.
       */
      bytesRead?: number;
    }
  | { ok: false; error: string };
