import type { KubernetesObject } from '@ops/api';
import type { Logger } from 'pino';
import { InformerRequestError } from '../errors/informer-request-error.js';
import type { TransportRequest } from '../transport/kube-transport.js';
import type { InformerStats, InformerTransport } from './informer.js';
import { informerStatusError } from './informer-status-error.js';

/** What {@link listObjects} needs of its informer. */
export interface ListObjectsOptions {
  transport: InformerTransport;
  /** The collection's path, e.g. `/api/v1/namespaces/default/configmaps`. */
  path: string;
  /** The query of a request: the informer's selectors plus `extra`. */
  query: (extra: TransportRequest['query']) => TransportRequest['query'];
  /** Objects per page. */
  pageSize: number;
  /** Timeout of each page's request, in ms. */
  timeoutMs: number;
  /** Aborts the request in flight (the informer stops). */
  signal: AbortSignal;
  /** The resource, for error messages. */
  description: string;
  /** `listRequests` and `expiredContinues` are counted here. */
  counters: InformerStats;
  log: Logger;
  isStopped: () => boolean;
  /** Completes, transforms and appends one parsed item to the list's objects. */
  prepareInto: (item: KubernetesObject, into: KubernetesObject[]) => void;
}

/** A complete list: every object (prepared) and the list's resourceVersion. */
export interface ListedObjects {
  items: KubernetesObject[];
  resourceVersion: string;
}

interface ListBody {
  metadata?: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  items?: KubernetesObject[] | null;
}

/**
 * One complete LIST of a collection, paged (`limit`, `continue`) and pipelined: the
 * continue token is read from the head of a page's text, so the next page is requested (and
 * received on the transport's helper thread) while this one is parsed. The thread is only
 * asked for continue pages, and only once a page says at least two more follow (or does not
 * say how many): starting it costs a fresh process 20-40 ms of CPU, which a list of one or
 * two pages never wins back. A continue token
 * that expires (410) restarts the list; the second time in one list it falls back to one
 * unpaged request, as client-go's pager does. Each page is parsed once.
 *
 * Resolves with undefined when the informer was stopped meanwhile.
 *
 * @throws {InformerRequestError} when a page fails or is not JSON.
 */
export async function listObjects(options: ListObjectsOptions): Promise<ListedObjects | undefined> {
  const items: KubernetesObject[] = [];
  let resourceVersion = '';
  let continueToken: string | undefined;
  let paged = true;
  let expired = 0;
  // Whether continue pages go to the helper thread; decided by the first page that says
  // (through `remainingItemCount`) that at least two more follow, then kept for the list.
  let offThread = false;
  // Pages are pipelined: the continue token comes in the list's metadata, ahead of its
  // items, so the next page is requested before this one is parsed.
  const fetchPage = (token: string | undefined, remaining: number | undefined) => {
    if (token !== undefined && !offThread)
      offThread = remaining === undefined || remaining > options.pageSize;
    options.counters.listRequests++;
    return options.transport.request({
      method: 'GET',
      path: options.path,
      query: options.query({ limit: paged ? options.pageSize : undefined, continue: token }),
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      // Received on the transport's helper thread while this thread parses the page before
      // (see `offThread` above); the first page has nothing to overlap with.
      offThread: token !== undefined && offThread,
    });
  };
  let pending: ReturnType<typeof fetchPage> | undefined;
  let remaining: number | undefined;
  for (;;) {
    const response = await (pending ?? fetchPage(continueToken, remaining));
    pending = undefined;
    if (options.isStopped()) return undefined;
    if (response.status === 410 && continueToken !== undefined) {
      // The continue token expired mid-list: start over; the second time in one list,
      // fall back to one unpaged request (client-go's pager does the same).
      expired++;
      options.counters.expiredContinues++;
      options.log.info({ expired }, 'continue token expired (410); restarting the list');
      items.length = 0;
      continueToken = undefined;
      if (expired >= 2) paged = false;
      continue;
    }
    if (response.status !== 200)
      throw informerStatusError('list', response.status, response.text, options.description);
    const peeked = paged && response.status === 200 ? peekListHead(response.text) : undefined;
    const prefetched =
      peeked === undefined ? undefined : fetchPage(peeked.continue, peeked.remainingItemCount);
    // A prefetch that turns out unused must not surface as an unhandled rejection.
    prefetched?.catch(() => undefined);
    // Let the prefetch go out before this thread is busy parsing: the transport applies
    // credentials asynchronously, so the request is only sent a few ticks from now.
    if (prefetched !== undefined) await new Promise<void>((resolve) => setImmediate(resolve));
    let body: ListBody;
    try {
      body = JSON.parse(response.text) as ListBody;
    } catch (error) {
      throw new InformerRequestError(
        `list of ${options.description} answered with a body that is not JSON`,
        'list',
        options.description,
        undefined,
        { cause: error },
      );
    }
    const page = body.items;
    if (page) for (const item of page) options.prepareInto(item, items);
    resourceVersion = body.metadata?.resourceVersion ?? '';
    continueToken = body.metadata?.continue || undefined;
    remaining = body.metadata?.remainingItemCount;
    if (continueToken === undefined) break;
    if (prefetched !== undefined && peeked?.continue === continueToken) pending = prefetched;
  }
  return { items, resourceVersion };
}

/**
 * The continue token and `remainingItemCount` (when the server sends one) of a list
 * response, read from the text before it is parsed: list metadata comes before the items
 * (kube-apiserver and the local server both write it first). Undefined when no token is
 * found in the head of the body; the caller then simply waits for the parse.
 */
function peekListHead(
  text: string,
): { continue: string; remainingItemCount: number | undefined } | undefined {
  const head = text.slice(0, 4096);
  const items = head.indexOf('"items":');
  const before = items === -1 ? head : head.slice(0, items);
  const token = /"continue":"([A-Za-z0-9_\-=+/.]+)"/.exec(before)?.[1];
  if (token === undefined) return undefined;
  const count = /"remainingItemCount":(\d+)/.exec(before)?.[1];
  return { continue: token, remainingItemCount: count === undefined ? undefined : Number(count) };
}
