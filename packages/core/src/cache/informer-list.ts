import type { KubernetesObject } from '@ops/api';
import type { Logger } from 'pino';
import type { TransportRequest } from '../client/kube-transport.js';
import { InformerRequestError } from '../errors/informer-request-error.js';
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
  metadata?: { resourceVersion?: string; continue?: string };
  items?: KubernetesObject[] | null;
}

/**
 * One complete LIST of a collection, paged (`limit`, `continue`) and pipelined: the
 * continue token is read from the head of a page's text, so the next page is requested (and
 * received on the transport's helper thread; the first page, with nothing to overlap, is
 * received on this one) while this one is parsed. A continue token
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
  // Pages are pipelined: the continue token comes in the list's metadata, ahead of its
  // items, so the next page is requested before this one is parsed.
  const fetchPage = (token: string | undefined) => {
    options.counters.listRequests++;
    return options.transport.request({
      method: 'GET',
      path: options.path,
      query: options.query({ limit: paged ? options.pageSize : undefined, continue: token }),
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      // Continue pages are received on the transport's helper thread while this thread
      // parses the page before. The first page is received here: a list that fits one page
      // (most informers' lists) never starts the thread, which costs a fresh process about
      // as much CPU as it saves on this one (see tools/bench/README.md, issue #17).
      offThread: token !== undefined,
    });
  };
  let pending: ReturnType<typeof fetchPage> | undefined;
  for (;;) {
    const response = await (pending ?? fetchPage(continueToken));
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
    const peeked = paged && response.status === 200 ? peekContinueToken(response.text) : undefined;
    const prefetched = peeked === undefined ? undefined : fetchPage(peeked);
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
    if (continueToken === undefined) break;
    if (prefetched !== undefined && peeked === continueToken) pending = prefetched;
  }
  return { items, resourceVersion };
}

/**
 * The continue token of a list response, read from the text before it is parsed: list
 * metadata comes before the items (kube-apiserver and the local server both write it
 * first). Undefined when it is not found in the head of the body; the caller then simply
 * waits for the parse.
 */
function peekContinueToken(text: string): string | undefined {
  const head = text.slice(0, 4096);
  const items = head.indexOf('"items":');
  const match = /"continue":"([A-Za-z0-9_\-=+/.]+)"/.exec(head);
  if (match === null || (items !== -1 && match.index > items)) return undefined;
  return match[1];
}
