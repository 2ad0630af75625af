import type { CachedPlural, CacheVariant } from './cache-variants.js';
import { RawHttp } from './raw-http.js';

/**
 * The floor of the cache benchmarks as a {@link CacheVariant}: one unpaged LIST over bare
 * HTTP, `JSON.parse` of its body, and the parsed items kept as the "cache". With
 * `fetchTimed` the time includes fetching the bytes ("bare GET + JSON.parse"); without, only
 * the parse (the floor).
 */
export function parsedListVariant(
  options: { plural?: CachedPlural; fetchTimed?: boolean } = {},
): CacheVariant {
  const fetchTimed = options.fetchTimed ?? false;
  return {
    id: fetchTimed ? 'bare-http' : 'parsed',
    label: fetchTimed ? 'bare HTTP GET + JSON.parse' : 'floor: JSON.parse of the list, items kept',
    async sync(server, namespace) {
      const http = new RawHttp(server);
      let start = performance.now();
      const bytes = await http.get(`/api/v1/namespaces/${namespace}/${options.plural ?? 'pods'}`);
      http.close();
      if (!fetchTimed) start = performance.now();
      let items: unknown[] | undefined = (
        JSON.parse(bytes.toString('utf8')) as { items: unknown[] }
      ).items;
      return {
        ms: performance.now() - start,
        objects: () => items?.length ?? 0,
        stop: async () => {
          items = undefined;
        },
      };
    },
  };
}
