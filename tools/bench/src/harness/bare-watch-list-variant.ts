import type { CachedPlural, CacheVariant } from './cache-variants.js';
import { RawHttp } from './raw-http.js';

/** The annotation of the BOOKMARK that ends a WatchList's initial events. */
const initialEventsEnd = 'k8s.io/initial-events-end';

interface WatchListLine {
  type: string;
  object: {
    metadata?: { name?: string; annotations?: Record<string, string> };
  };
}

/**
 * The floor of a cache synced by WatchList (`sendInitialEvents=true`): one WATCH over bare
 * node:http(s), its lines split and `JSON.parse`d, each ADDED object kept in a Map by name,
 * until the BOOKMARK annotated `k8s.io/initial-events-end`. No client library, no gzip, no
 * transform: what a WatchList sync costs any client, and how fast the server streams it.
 */
export function bareWatchListVariant(plural: CachedPlural = 'pods'): CacheVariant {
  return {
    id: 'bare-watch-list',
    label: 'bare WatchList + JSON.parse',
    async sync(server, namespace, expected) {
      const http = new RawHttp(server);
      const cache = new Map<string, unknown>();
      const start = performance.now();
      const ended = Promise.withResolvers<number>();
      const watch = await http.watch(
        `/api/v1/namespaces/${namespace}/${plural}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`,
        (line) => {
          const event = JSON.parse(line) as WatchListLine;
          const metadata = event.object.metadata;
          if (event.type === 'ADDED' && metadata?.name !== undefined)
            cache.set(metadata.name, event.object);
          else if (
            event.type === 'BOOKMARK' &&
            metadata?.annotations?.[initialEventsEnd] === 'true'
          )
            ended.resolve(performance.now() - start);
          else if (event.type === 'ERROR')
            ended.reject(new Error(`the bare WatchList got an error event: ${line}`));
        },
        () =>
          ended.reject(
            new Error('the bare WatchList ended before its initial-events-end bookmark'),
          ),
      );
      try {
        const ms = await ended.promise;
        if (cache.size !== expected)
          throw new Error(`the bare WatchList found ${cache.size} of ${expected} objects`);
        return {
          ms,
          objects: () => cache.size,
          stop: async () => {
            cache.clear();
          },
        };
      } finally {
        watch.close();
        http.close();
      }
    },
  };
}
