import type { CacheVariant } from './cache-variants.js';
import { RawHttp } from './raw-http.js';

/**
 * The floor of watching: one LIST of the namespace's ConfigMaps over bare node:http for its
 * resourceVersion, then a WATCH from it whose lines are split and `JSON.parse`d, with no
 * client library, no cache and no handlers but `onUpdate` for `MODIFIED` events. What any
 * informer built on node:http costs at least per event.
 */
export const bareWatchVariant: CacheVariant = {
  id: 'bare',
  label: 'bare watch + JSON.parse',
  async sync(server, namespace, expected, _timeoutMs, onUpdate) {
    const http = new RawHttp(server);
    const path = `/api/v1/namespaces/${namespace}/configmaps`;
    const start = performance.now();
    const list = JSON.parse((await http.get(path)).toString('utf8')) as {
      metadata: { resourceVersion: string };
      items: unknown[];
    };
    if (list.items.length !== expected) {
      http.close();
      throw new Error(`the bare LIST found ${list.items.length} of ${expected} ConfigMaps`);
    }
    const ms = performance.now() - start;
    const watch = await http.watch(
      `${path}?watch=1&allowWatchBookmarks=true&resourceVersion=${list.metadata.resourceVersion}`,
      (line) => {
        const event = JSON.parse(line) as { type: string; object: object };
        if (event.type === 'MODIFIED') onUpdate?.(event.object);
      },
    );
    return {
      ms,
      objects: () => list.items.length,
      stop: async () => {
        watch.close();
        http.close();
      },
    };
  },
};
