import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubernetesObject } from '@ops/api';
import { StatusError } from '../api/status-error.js';
import type { Json } from '../cluster/json.js';
import { queryBool } from '../query/query-bool.js';
import { apiVersionOf, type ResourceType, storageKeyOf } from '../registry/resource-type.js';
import {
  type ObjectStore,
  type StoreEvent,
  TooOldResourceVersionError,
} from '../store/object-store.js';
import { listFilter, presentJson } from './list-response.js';
import type { ResourceService } from './resource-service.js';
import { toTable } from './table.js';

/** What {@link serveWatch} needs of the server. */
export interface WatchServer {
  store: ObjectStore;
  resources: ResourceService;
  /** The open watches, so the server can drop or close them all. */
  watches: Set<ActiveWatch>;
  /** How often bookmarks are sent when the client allows them. */
  bookmarkIntervalMs: number;
  /** `timeoutSeconds` when the client sends none. */
  defaultWatchTimeoutSeconds: number;
}

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
 * allowed; ends after `timeoutSeconds`, or when either side closes.
 */
export function serveWatch(
  req: IncomingMessage,
  res: ServerResponse,
  type: ResourceType,
  namespace: string,
  name: string,
  query: URLSearchParams,
  table: boolean,
  server: WatchServer,
): void {
  const filter = listFilter(type, namespace, query);
  if (name)
    filter.fields = [
      ...(filter.fields ?? []),
      { field: 'metadata.name', operator: '=', value: name },
    ];
  const key = storageKeyOf(type);
  const bookmarks = queryBool(query, 'allowWatchBookmarks');
  const rv = query.get('resourceVersion') ?? '';
  const sendInitial = queryBool(query, 'sendInitialEvents');
  const timeoutSeconds = Number(query.get('timeoutSeconds') ?? server.defaultWatchTimeoutSeconds);
  res.writeHead(200, {
    'Content-Type': 'application/json',
    'Transfer-Encoding': 'chunked',
    'Cache-Control': 'no-cache, private',
  });
  res.flushHeaders();
  const write = (type_: string, objectJson: string) => {
    res.write(`{"type":"${type_}","object":${objectJson}}\n`);
  };
  const objectJson = (object: KubernetesObject, json: () => string): string =>
    table
      ? JSON.stringify(
          toTable(
            type,
            [server.resources.present(type, object)],
            object.metadata?.resourceVersion ?? '',
          ),
        )
      : presentJson(server.resources, type, object, json());
  const emit = (event: StoreEvent) => {
    const now = server.resources.matches(type, event.current.object, filter);
    const before =
      event.previous !== undefined && server.resources.matches(type, event.previous.object, filter);
    let kind: string | undefined;
    if (event.type === 'DELETED') kind = before ? 'DELETED' : undefined;
    else if (now && before) kind = 'MODIFIED';
    else if (now) kind = 'ADDED';
    else if (before) kind = 'DELETED';
    if (kind !== undefined)
      write(
        kind,
        objectJson(event.current.object, () => event.current.json()),
      );
  };
  const bookmark = (annotations?: Json) => {
    const metadata: Json = { resourceVersion: String(server.store.currentRevision()) };
    if (annotations) metadata.annotations = annotations;
    write(
      'BOOKMARK',
      JSON.stringify({ kind: type.kind, apiVersion: apiVersionOf(type), metadata }),
    );
  };
  let unsubscribe: () => void = () => undefined;
  try {
    if (rv === '' || rv === '0' || sendInitial) {
      const initial =
        sendInitial && rv !== '' && rv !== '0'
          ? server.store.eventsSince(key, Number(rv))
          : undefined;
      if (initial !== undefined) {
        for (const event of initial) emit(event);
      } else {
        for (const stored of server.store.list(key)) {
          if (server.resources.matches(type, stored.object, filter))
            write(
              'ADDED',
              objectJson(stored.object, () => stored.json()),
            );
        }
      }
      if (sendInitial && bookmarks) bookmark({ 'k8s.io/initial-events-end': 'true' });
    } else {
      const since = Number(rv);
      if (!Number.isInteger(since) || since < 0)
        throw StatusError.badRequest(
          `resourceVersion: Invalid value: "${rv}": must be a non-negative integer`,
        );
      for (const event of server.store.eventsSince(key, since)) emit(event);
    }
    unsubscribe = server.store.subscribe(key, emit);
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
      else if (!res.writableEnded) res.end();
    },
  };
  server.watches.add(active);
  if (bookmarks) timers.push(setInterval(() => bookmark(), server.bookmarkIntervalMs));
  timers.push(
    setTimeout(() => {
      if (bookmarks) bookmark();
      active.close();
    }, Math.max(0, timeoutSeconds) * 1000),
  );
  req.on('close', () => active.close());
  res.on('close', () => active.close());
}
