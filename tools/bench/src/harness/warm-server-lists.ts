import { constants } from 'node:buffer';
import type { ServerEndpoint } from './bench-server.js';
import { RawHttp } from './raw-http.js';

/** What {@link warmServerLists} read: the objects of each LIST kind and the pages walked. */
export interface WarmedLists {
  /**
   * Objects in the one unpaged LIST; undefined when its body was longer than a string can be
   * (100,000 Pods with managedFields are 570 MB): it was then received whole, not parsed.
   */
  unpagedItems: number | undefined;
  /** Objects in the paged walk (the same collection, `limit` and `continue`). */
  pagedItems: number;
  /** Pages of the paged walk. */
  pages: number;
}

interface ListHead {
  metadata?: { continue?: string };
  items?: unknown[] | null;
}

/**
 * Sends, untimed, each kind of LIST the contenders of a cold-sync cell send for
 * `collectionPath`: one unpaged LIST (the bare GET, client-node, fluent and one-page ops)
 * and one complete paged walk with `limit` = `pageSize` and `continue` (ops' default). Call it
 * before a cell's first timed run: a fresh server compiles each request path on its first
 * use, and without this that cost lands on whichever contender runs first (in one measured
 * cell a paged walk took 913 ms on first use and about 560 ms after), which measures the
 * libraries differently. Every contender then meets the same warmed server.
 *
 * An unpaged body longer than V8's longest string (`maxStringLength`, default
 * `buffer.constants.MAX_STRING_LENGTH`) is received but not parsed: the contenders that ask
 * for it fail on it the same way, and the server's path is warmed all the same.
 *
 * @throws {Error} when `pageSize` is not a positive integer, a LIST fails, or the server
 *   answers a body that is not a list.
 */
export async function warmServerLists(
  server: ServerEndpoint,
  collectionPath: string,
  pageSize: number,
  maxStringLength: number = constants.MAX_STRING_LENGTH,
): Promise<WarmedLists> {
  if (!Number.isInteger(pageSize) || pageSize < 1)
    throw new Error(`warmServerLists: pageSize must be a positive integer, got ${pageSize}`);
  const http = new RawHttp(server);
  try {
    const unpagedBody = await http.get(collectionPath);
    const unpagedItems =
      unpagedBody.length > maxStringLength
        ? undefined
        : (listBody(unpagedBody, collectionPath).items?.length ?? 0);
    let pagedItems = 0;
    let pages = 0;
    let token: string | undefined;
    do {
      const query = new URLSearchParams({ limit: String(pageSize) });
      if (token !== undefined) query.set('continue', token);
      const page = await listOf(http, `${collectionPath}?${query}`);
      pages++;
      pagedItems += page.items?.length ?? 0;
      token = page.metadata?.continue || undefined;
    } while (token !== undefined);
    return { unpagedItems, pagedItems, pages };
  } finally {
    http.close();
  }
}

async function listOf(http: RawHttp, path: string): Promise<ListHead> {
  return listBody(await http.get(path), path);
}

function listBody(bytes: Buffer, path: string): ListHead {
  const body = JSON.parse(bytes.toString('utf8')) as ListHead;
  if (typeof body !== 'object' || body === null || !('items' in body))
    throw new Error(`GET ${path} answered something that is not a list`);
  return body;
}
