import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubernetesObject } from '@ops/api';
import { StatusError } from '../../api/status-error.js';
import type { Json } from '../../json/json.js';
import { queryBool } from '../../query/query-bool.js';
import { apiVersionOf, type ResourceType, storageKeyOf } from '../../registry/resource-type.js';
import {
  type ObjectStore,
  type StoreEvent,
  TooOldResourceVersionError,
} from '../../store/object-store.js';
import { toTable } from '../tables/table.js';
import type { TableRequest } from '../tables/table-request.js';
import { listFilter, presentJson } from './list-response.js';
import {
  asPartialObjectMetadata,
  type PartialObjectMetadataForm,
} from './partial-object-metadata.js';
import type { ResourceService } from './resource-service.js';
import { tooLargeResourceVersion } from './too-large-resource-version.js';
import { presentAt } from './version-conversion.js';
import { watchTimeoutMs } from './watch-timeout.js';

/** What {@link serveWatch} needs of the server. */
export interface WatchServer {
  store: ObjectStore;
  resources: ResourceService;
  /** The open watches, so the server can drop or close them all. */
  watches: Set<ActiveWatch>;
  /** How often bookmarks are sent when the client allows them. */
  bookmarkIntervalMs: number;
  /**
   * kube-apiserver's `--min-request-timeout`: a watch without `timeoutSeconds` (or with 0)
   * ends after a random time between this and twice this; see {@link watchTimeoutMs}.
   */
  minRequestTimeoutSeconds: number;
  /**
   * The most bytes a watch may have written but not yet sent to its client; a watcher that
   * falls further behind is closed; see {@link defaultWatchBufferBytes}.
   */
  watchBufferBytes: number;
  /** How long a watch from a resourceVersion the store has not reached waits for it. */
  tooLargeResourceVersionWaitMs: number;
}

/**
 * Default {@link WatchServer.watchBufferBytes}: 16 MiB of events per watcher. kube-apiserver's
 * watch cache gives each watcher a bounded channel and closes a watcher that stays full
 * (staging/src/k8s.io/apiserver/pkg/storage/cacher/cache_watcher.go, `add`: "Forcing ...
 * watcher close due to unresponsiveness"); here the bound is in bytes, so a stalled client
 * costs the server at most this much however large its objects.
 */
export const defaultWatchBufferBytes = 16 * 1024 * 1024;

/** Default {@link WatchServer.tooLargeResourceVersionWaitMs}: the watch cache's 3 s block timeout. */
export const defaultTooLargeResourceVersionWaitMs = 3_000;

/** An open watch, as the server tracks it. */
export interface ActiveWatch {
  response: ServerResponse;
  /** Ends the watch: cleanly (the stream ends) or abruptly (the connection is cut). */
  close(abrupt?: boolean): void;
}

/**
 * Answers a WATCH: the initial state (or the events since `resourceVersion`, or a 410 ERROR
 * event when they are compacted away), then every change that passes the filter, as
 * ADDED/MODIFIED/DELETED lines (a Table per object for `kubectl get -w`); bookmarks when
 * allowed; ends after `timeoutSeconds` (see {@link watchTimeoutMs}), or when either side
 * closes.
 *
 * The initial state is sent, as kube-apiserver 1.37 sends it, for `sendInitialEvents=true`
 * (a WatchList, KEP-3157; the current state whatever `resourceVersion` says) and for a watch
 * without a `resourceVersion` or from `0` unless `sendInitialEvents=false` (which starts from
 * now); its ADDED events end with a BOOKMARK annotated `k8s.io/initial-events-end: "true"`
 * when `allowWatchBookmarks=true`. The parameter combinations kube-apiserver refuses are
 * refused before this is called (422, see `query-options.ts`).
 *
 * A `resourceVersion` newer than the store's waits up to `tooLargeResourceVersionWaitMs`
 * for it, then answers kube's "Too large resource version" ERROR event (504). A watcher
 * whose unsent data exceeds `watchBufferBytes` when a new event arrives is closed by cutting
 * its connection, which frees what was buffered; its client resumes from the last
 * resourceVersion it read, as after any dropped watch.
 *
 * @throws {StatusError} 400 for a malformed `resourceVersion` or `timeoutSeconds`, before
 *   anything is written.
 */
export async function serveWatch(
  req: IncomingMessage,
  res: ServerResponse,
  type: ResourceType,
  namespace: string,
  name: string,
  query: URLSearchParams,
  table: TableRequest | undefined,
  server: WatchServer,
  form?: PartialObjectMetadataForm,
): Promise<void> {
  const filter = listFilter(type, namespace, query);
  if (name)
    filter.fields = [
      ...(filter.fields ?? []),
      { field: 'metadata.name', operator: '=', value: name },
    ];
  const key = storageKeyOf(type);
  const bookmarks = queryBool(query, 'allowWatchBookmarks');
  const rv = query.get('resourceVersion') ?? '';
  const timeoutMs = watchTimeoutMs(query.get('timeoutSeconds'), server.minRequestTimeoutSeconds);
  // kube-apiserver's watch cache: without a resourceVersion (or from "0") a watch starts with
  // the current state unless sendInitialEvents=false says to start from now; from a given
  // resourceVersion it replays the events since, unless sendInitialEvents=true asks for the
  // current state (at least as new as that version) instead. The state's ADDED events end
  // with the annotated bookmark whenever bookmarks are allowed, even for a plain watch.
  const fromStart = rv === '' || rv === '0';
  const initialEvents = query.has('sendInitialEvents')
    ? queryBool(query, 'sendInitialEvents')
    : fromStart;
  const since = Number(rv);
  if (!fromStart && (!Number.isInteger(since) || since < 0))
    throw StatusError.badRequest(
      `resourceVersion: Invalid value: "${rv}": must be a non-negative integer`,
    );
  let tooLarge: StatusError | undefined;
  if (!fromStart && since > server.store.currentRevision()) {
    const reached = await server.store.waitForRevision(since, server.tooLargeResourceVersionWaitMs);
    if (!reached) tooLarge = tooLargeResourceVersion(since, server.store.currentRevision());
  }
  if (res.destroyed) return;
  res.writeHead(200, {
    'Content-Type': 'application/json',
    'Transfer-Encoding': 'chunked',
    'Cache-Control': 'no-cache, private',
  });
  res.flushHeaders();
  if (tooLarge !== undefined) {
    res.end(`{"type":"ERROR","object":${JSON.stringify(tooLarge.toStatus())}}\n`);
    return;
  }
  // Events written in one turn of the event loop leave in one socket write, as
  // kube-apiserver's watch handler flushes only once no more events are queued
  // (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/watch.go): a burst of changes
  // reaches the client in a few large reads instead of one read per event.
  // Every `res.end` below comes after `flush()`: Node 24 sends what a corked response holds
  // after the stream's last chunk if it ends corked.
  let corked = false;
  const flush = () => {
    if (!corked) return;
    corked = false;
    res.uncork();
  };
  const write = (type_: string, objectJson: string) => {
    // As kube-apiserver: a watch asked for a PartialObjectMetadataList cannot encode an
    // event (its object is not a list), so the stream ends at the first one.
    if (form === 'PartialObjectMetadataList') {
      flush();
      if (!res.writableEnded) res.end();
      return;
    }
    if (!corked) {
      corked = true;
      res.cork();
      setImmediate(flush);
    }
    res.write(`{"type":"${type_}","object":${objectJson}}\n`);
  };
  // A CRD's conversion webhook converts each event's object, in order; events wait for the
  // ones before them. When a conversion fails the watch ends, as kube-apiserver ends a watch
  // whose event it cannot encode.
  const converting = type.conversionWebhook !== undefined;
  let queue = Promise.resolve();
  let fail: () => void = () => undefined;
  const later = (send: () => unknown) => {
    if (!converting) {
      send();
      return;
    }
    queue = queue.then(async () => {
      if (res.writableEnded) return;
      try {
        await send();
      } catch {
        fail();
      }
    });
  };
  // As kube-apiserver: the first Table event of a watch defines the columns, later ones do not.
  let columnsSent = false;
  const objectJson = (object: KubernetesObject, json: () => string): string => {
    if (form === 'PartialObjectMetadata')
      return JSON.stringify(asPartialObjectMetadata(presentAt(type, object)));
    if (!table) return presentJson(type, object, json());
    const rows = toTable(
      type,
      [presentAt(type, object)],
      object.metadata?.resourceVersion ?? '',
      {},
      table,
      !columnsSent,
    );
    columnsSent = true;
    return JSON.stringify(rows);
  };
  const send = (kind: string, object: KubernetesObject, json: () => string) => {
    if (!converting) {
      write(kind, objectJson(object, json));
      return;
    }
    later(async () => {
      const served = await server.resources.served(type, object, 'read');
      write(
        kind,
        objectJson(served, () => JSON.stringify(served)),
      );
    });
  };
  const emit = (event: StoreEvent) => {
    const now = server.resources.matches(type, event.current.object, filter);
    const before =
      event.previous !== undefined && server.resources.matches(type, event.previous.object, filter);
    let kind: string | undefined;
    if (event.type === 'DELETED') kind = before ? 'DELETED' : undefined;
    else if (now && before) kind = 'MODIFIED';
    else if (now) kind = 'ADDED';
    else if (before) kind = 'DELETED';
    if (kind !== undefined) send(kind, event.current.object, () => event.current.json());
  };
  const bookmark = (annotations?: Json) => {
    const metadata: Json = { resourceVersion: String(server.store.currentRevision()) };
    if (annotations) metadata.annotations = annotations;
    const json = JSON.stringify(
      form === 'PartialObjectMetadata'
        ? { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata }
        : { kind: type.kind, apiVersion: apiVersionOf(type), metadata },
    );
    later(() => write('BOOKMARK', json));
  };
  let unsubscribe: () => void = () => undefined;
  // Set once the watch is registered; a live event that finds the watcher too far behind
  // closes it (events replayed before that are bounded by the history).
  let overflow: () => void = () => undefined;
  try {
    if (initialEvents) {
      for (const stored of server.store.list(key)) {
        if (server.resources.matches(type, stored.object, filter))
          send('ADDED', stored.object, () => stored.json());
      }
      if (bookmarks) bookmark({ 'k8s.io/initial-events-end': 'true' });
    } else if (!fromStart) {
      for (const event of server.store.eventsSince(key, since)) emit(event);
    }
    unsubscribe = server.store.subscribe(key, (event) => {
      emit(event);
      if (res.writableLength > server.watchBufferBytes) overflow();
    });
  } catch (error) {
    if (!(error instanceof TooOldResourceVersionError)) throw error;
    write(
      'ERROR',
      JSON.stringify(
        StatusError.gone(
          `too old resource version: ${error.requested} (${error.oldest})`,
        ).toStatus(),
      ),
    );
    flush();
    res.end();
    return;
  }
  const timers: NodeJS.Timeout[] = [];
  let closed = false;
  const active: ActiveWatch = {
    response: res,
    close: (abrupt = false) => {
      if (closed) return;
      closed = true;
      unsubscribe();
      for (const timer of timers) clearTimeout(timer);
      server.watches.delete(active);
      // An abrupt close cuts the connection without ending the chunked stream, so clients
      // see a broken watch and never reuse the socket.
      if (abrupt) res.socket?.destroy();
      else if (!res.writableEnded) {
        flush();
        res.end();
      }
    },
  };
  server.watches.add(active);
  overflow = () => active.close(true);
  fail = () => active.close();
  if (bookmarks) {
    timers.push(setInterval(() => bookmark(), server.bookmarkIntervalMs));
    // kube-apiserver's watch cache sends its last bookmark 2 s before the watch's deadline,
    // and none when the watch is shorter than that (cache_watcher.go, nextBookmarkTime).
    if (timeoutMs > 2_000) timers.push(setTimeout(() => bookmark(), timeoutMs - 2_000));
  }
  // After the events still being converted, when a webhook converts them.
  timers.push(setTimeout(() => later(() => active.close()), timeoutMs));
  req.on('close', () => active.close());
  res.on('close', () => active.close());
}
