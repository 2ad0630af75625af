import type { CacheVariant } from './cache-variants.js';
import { RawHttp } from './raw-http.js';

/**
 * The floor of a cache kept by watching: one LIST of the namespace's ConfigMaps over bare
 * node:http, its items kept in a Map by name, then a WATCH from its resourceVersion whose
 * lines are split and `JSON.parse`d and whose objects replace their old versions in the Map,
 * with no client library and no handlers but `onUpdate` for `MODIFIED` events. What any
 * informer built on node:http costs at least per event: the parse, and the garbage
 * collection of keeping each new version while the old one is dropped.
 */
export const bareWatchVariant: CacheVariant = {
  id: 'bare',
  label: 'bare watch + JSON.parse into a Map',
  async sync(server, namespace, expected, _timeoutMs, onUpdate) {
    const http = new RawHttp(server);
    const path = `/api/v1/namespaces/${namespace}/configmaps`;
    const start = performance.now();
    const list = JSON.parse((await http.get(path)).toString('utf8')) as {
      metadata: { resourceVersion: string };
      items: Array<{ metadata: { name: string } }>;
    };
    const cache = new Map(list.items.map((item) => [item.metadata.name, item]));
    if (cache.size !== expected) {
      http.close();
      throw new Error(`the bare LIST found ${cache.size} of ${expected} ConfigMaps`);
    }
    const ms = performance.now() - start;
    // As any informer, it resumes from the last resourceVersion it read when the server ends
    // the watch (kube-apiserver closes a watcher that falls behind); without this, updates
    // after such an end would count as missed.
    let resourceVersion = list.metadata.resourceVersion;
    let stopped = false;
    let watch: { close(): void } | undefined;
    const open = async (): Promise<void> => {
      watch = await http.watch(
        `${path}?watch=1&allowWatchBookmarks=true&resourceVersion=${resourceVersion}`,
        (line) => {
          const event = JSON.parse(line) as {
            type: string;
            object: {
              metadata?: {
                name: string;
                resourceVersion?: string;
                annotations?: Record<string, string>;
              };
            };
          };
          // An ERROR event's object is a Status, without metadata.
          resourceVersion = event.object.metadata?.resourceVersion ?? resourceVersion;
          const { object } = event;
          if (object.metadata === undefined) return;
          const item = object as typeof object & { metadata: { name: string } };
          if (event.type === 'MODIFIED' || event.type === 'ADDED')
            cache.set(item.metadata.name, item);
          else if (event.type === 'DELETED') cache.delete(item.metadata.name);
          if (event.type === 'MODIFIED') onUpdate?.(item);
        },
        () => {
          if (!stopped)
            open().catch((error: unknown) =>
              console.error(`the bare watch could not resume: ${(error as Error).message}`),
            );
        },
      );
    };
    await open();
    return {
      ms,
      objects: () => cache.size,
      stop: async () => {
        stopped = true;
        watch?.close();
        http.close();
      },
    };
  },
};
