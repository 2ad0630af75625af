import { constants } from 'node:buffer';
import type { CachedPlural, CacheVariant } from './cache-variants.js';
import { RawHttp } from './raw-http.js';

interface ListBody {
  metadata?: { continue?: string };
  items: unknown[];
}

/**
 * The floor of the cache benchmarks as a {@link CacheVariant}: one unpaged LIST over bare
 * HTTP, `JSON.parse` of its body, and the parsed items kept as the "cache". With
 * `fetchTimed` the time includes fetching the bytes ("bare GET + JSON.parse"); without, only
 * the parse (the floor).
 *
 * A list longer than V8's longest string (`buffer.constants.MAX_STRING_LENGTH`, 512 MiB;
 * 100,000 Pods with managedFields are 570 MB) cannot be one `JSON.parse`: it is then read
 * again, and timed, in the fewest pages of equal `limit` that each fit.
 */
export function parsedListVariant(
  options: {
    plural?: CachedPlural;
    fetchTimed?: boolean;
    /** The longest string the list may be parsed from (default V8's; tests set less). */
    maxStringLength?: number;
  } = {},
): CacheVariant {
  const fetchTimed = options.fetchTimed ?? false;
  const maxStringLength = options.maxStringLength ?? constants.MAX_STRING_LENGTH;
  return {
    id: fetchTimed ? 'bare-http' : 'parsed',
    label: fetchTimed ? 'bare HTTP GET + JSON.parse' : 'floor: JSON.parse of the list, items kept',
    async sync(server, namespace, expected) {
      const http = new RawHttp(server);
      const path = `/api/v1/namespaces/${namespace}/${options.plural ?? 'pods'}`;
      let start = performance.now();
      const bytes = await http.get(path);
      let items: unknown[] | undefined;
      let ms: number;
      if (bytes.length <= maxStringLength) {
        if (!fetchTimed) start = performance.now();
        items = (JSON.parse(bytes.toString('utf8')) as ListBody).items;
        ms = performance.now() - start;
      } else {
        const pages = Math.ceil(bytes.length / (0.9 * maxStringLength));
        const limit = Math.ceil(expected / pages);
        items = [];
        ms = 0;
        let token = '';
        start = performance.now();
        do {
          const query = `?limit=${limit}${token ? `&continue=${encodeURIComponent(token)}` : ''}`;
          const page = await http.get(`${path}${query}`);
          const parseStart = performance.now();
          const body = JSON.parse(page.toString('utf8')) as ListBody;
          if (!fetchTimed) ms += performance.now() - parseStart;
          for (const item of body.items) items.push(item);
          token = body.metadata?.continue ?? '';
        } while (token);
        if (fetchTimed) ms = performance.now() - start;
      }
      http.close();
      return {
        ms,
        objects: () => items?.length ?? 0,
        stop: async () => {
          items = undefined;
        },
      };
    },
  };
}
