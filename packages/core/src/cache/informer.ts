import type { KubernetesObject, Selector } from '@ops/api';
import { type Logger, pino } from 'pino';
import { type Clock, realClock } from '../clock/clock.js';
import type { InformerRequestError } from '../errors/informer-request-error.js';
import type { InformerSyncError } from '../errors/informer-sync-error.js';
import {
  apiVersionOfDescriptor,
  type ResourceDescriptor,
  resourcePath,
} from '../kinds/resource-descriptor.js';
import type { KubeTransport, TransportRequest } from '../transport/kube-transport.js';
import { Backoff, type BackoffOptions } from './backoff.js';
import { InformerFailures } from './informer-failures.js';
import { InformerHandlers } from './informer-handlers.js';
import { type ListedObjects, listObjects } from './informer-list.js';
import { InformerObjects } from './informer-objects.js';
import { InformerReader } from './informer-reader.js';
import { InformerStore } from './informer-store.js';
import { describeInformer, labelSelectorQuery, noInformerStats } from './informer-target.js';
import { type WatchOutcome, watchOnce } from './informer-watch.js';
import {
  afterUnfinishedWatchList,
  defaultWatchListBookmarkTimeoutMs,
  watchListQuery,
} from './informer-watch-list.js';
import { informerTransform, informerTransport } from './metadata-only.js';
import { Pause } from './pause.js';
import { StoreChanges } from './store-changes.js';
import { StringInterner } from './string-interner.js';
import { stripManagedFields, type TransformFunc } from './strip-managed-fields.js';
import { SyncWaiters, stoppedBeforeSyncError, syncTimeoutError } from './sync-waiters.js';
import { afterWatch } from './watch-failure.js';
import { WatchLineApplier } from './watch-line-applier.js';
import { watchListOnce } from './watch-list-once.js';

/**
 * What an informer needs of the HTTP layer: {@link KubeTransport}'s `request` and `watch`.
 * A narrower type so tests and benchmarks can wrap or replace the transport.
 */
export type InformerTransport = Pick<KubeTransport, 'request' | 'watch'>;

/**
 * Callbacks for the changes an informer sees. All are optional.
 *
 * Guarantees: called synchronously, in the order the informer applied the changes, after
 * the store was updated (a read from the informer inside a handler sees the new state);
 * for one object, events follow its history (add, updates, delete). `onUpdate` fires only
 * when `metadata.resourceVersion` changed: a relist that finds an object unchanged fires
 * nothing (unlike client-go, which delivers such resync updates). An exception, or a
 * rejected promise, from a handler is logged and does not affect the informer or other
 * handlers.
 *
 * Assumes: handlers do not mutate the objects they receive (they are the cached objects,
 * shared with every other handler and reader) and return quickly (they run on the event
 * loop between watch events): queue work rather than doing it inline.
 */
export interface InformerEventHandlers {
  /**
   * An object appeared: in the initial list, in a later relist, from a watch event, or
   * (synthetically) because the handler was added after the informer had objects.
   * `isInInitialList` is true for objects of the first list and for synthetic adds.
   */
  onAdd?(object: KubernetesObject, isInInitialList: boolean): unknown;
  /** An object changed (its resourceVersion differs). */
  onUpdate?(oldObject: KubernetesObject, newObject: KubernetesObject): unknown;
  /**
   * An object went away. `finalStateUnknown` is true when the deletion was found by a
   * relist rather than seen in a watch event: `object` is then the last state the informer
   * knew, not the state at deletion.
   */
  onDelete?(object: KubernetesObject, finalStateUnknown: boolean): unknown;
}

/** What {@link Informer.addEventHandler} returns. */
export interface EventHandlerRegistration {
  /** Stops delivering events to the handler; a no-op after the first call. */
  remove(): void;
}

/** Settings of an {@link Informer}. */
export interface InformerOptions {
  /** How to reach the API server (usually a {@link KubeTransport}). */
  transport: InformerTransport;
  /** The resource to list and watch. */
  descriptor: ResourceDescriptor;
  /** Only this namespace (all when absent or ``; ignored for cluster-scoped resources). */
  namespace?: string;
  /** Only objects whose labels match (a {@link Selector} or the string form). */
  labelSelector?: Selector | string;
  /** Only objects matching this field selector, e.g. `spec.nodeName=node-1`. */
  fieldSelector?: string;
  /**
   * Only objects in these hash ranges: a server-side shard selector (KEP-5866, kube-apiserver
   * 1.36+ with the `ShardedListAndWatch` gate), e.g. `shardRange(object.metadata.namespace,
   * '0x0000000000000000', '0x8000000000000000')`. A server without the gate ignores it and
   * sends everything. Changed later with {@link Informer.setShardSelector}.
   */
  shardSelector?: string;
  /**
   * Lists and watches metadata only (default false): the API server is asked for
   * `meta.k8s.io/v1` `PartialObjectMetadata` (`Accept:
   * application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1` for lists,
   * `as=PartialObjectMetadata` for watches, plain JSON as the fallback), and the informer
   * holds `PartialObjectMetadata` objects: `metadata` only, under the apiVersion and
   * kind of the resource (as controller-runtime's `OnlyMetadata` watches), for a fraction of
   * the memory of whole objects. The transform still applies (managedFields stripped by
   * default).
   */
  metadataOnly?: boolean;
  /**
   * Objects per LIST page (default 1,000). Pages are pipelined (the next one is received,
   * on the transport's helper thread, while this one is parsed), so smaller pages overlap
   * more; measured with tools/bench against 500, 2,000 and 4,000.
   */
  pageSize?: number;
  /**
   * Applied to each object before it is stored (default: {@link stripManagedFields}, then
   * repeated short strings shared across objects).
   */
  transform?: TransformFunc;
  /**
   * A watch that delivers nothing (no event, no bookmark) for this long is presumed dead
   * and replaced (default {@link defaultSilentWatchTimeoutMs}: twice the one-minute bookmark
   * period of kube-apiserver). Keep it well above the server's bookmark period.
   */
  silentWatchTimeoutMs?: number;
  /**
   * The shortest `timeoutSeconds` asked of a watch (default 300); each watch asks a random
   * value from this to twice this, as client-go's reflector does, so that watches of many
   * clients do not end together.
   */
  minWatchTimeoutSeconds?: number;
  /** Timeout of each LIST request in milliseconds (default 60,000). */
  listTimeoutMs?: number;
  /**
   * Sync by WatchList (a streaming list, KEP-3157) where the server supports it (default
   * true): one WATCH with `sendInitialEvents=true`, whose ADDED events up to the BOOKMARK
   * annotated `k8s.io/initial-events-end` are the state, instead of a paged LIST and then a
   * WATCH. The server streams from its watch cache rather than building list pages in
   * memory. Falls back to the paged LIST as client-go does (see {@link Informer}). `false`
   * always lists.
   */
  watchList?: boolean;
  /**
   * How long a WatchList may deliver nothing before its initial-events-end bookmark before
   * the informer decides the server does not stream lists and lists instead (default
   * {@link defaultWatchListBookmarkTimeoutMs}).
   */
  watchListBookmarkTimeoutMs?: number;
  /** Backoff between failed attempts (default 800 ms doubling to 30 s, jittered). */
  backoff?: BackoffOptions;
  /** Called with each list or watch failure (they are also logged). Exceptions are ignored. */
  onError?: (error: InformerRequestError) => void;
  /** Where problems are logged (default: a silent pino logger). */
  logger?: Logger;
  /** Source of time for backoff, silence detection and sync timeouts (default real time). */
  clock?: Clock;
  /** Source of randomness for jitter and watch timeouts (default `Math.random`). */
  random?: () => number;
}

/** Counters of what an informer did; for metrics and tests. */
export interface InformerStats {
  /** LIST requests sent (each page counts). */
  listRequests: number;
  /** Complete lists applied to the store (the first sync and every relist). */
  lists: number;
  /** WATCH requests sent. */
  watches: number;
  /** Relists caused by 410 Gone on a watch (an expired resourceVersion). */
  goneRelists: number;
  /**
   * Relists after another failed watch: a 404, a 504 ("Too large resource version") or a
   * refused connection; see {@link relistAfterWatchError}.
   */
  errorRelists: number;
  /** Lists restarted because their continue token expired (410). */
  expiredContinues: number;
  /** Watches replaced because they went silent. */
  silentWatches: number;
  /** Failed LIST or WATCH attempts. */
  errors: number;
  /** WatchList requests sent (each is also counted in `watches`). */
  watchLists: number;
  /** WatchLists that ended before their bookmark and were replaced by a paged LIST. */
  watchListFallbacks: number;
}

/** Default {@link InformerOptions.pageSize}. */
export const defaultInformerPageSize = 1000;
/** Default {@link InformerOptions.silentWatchTimeoutMs}: 2 × kube-apiserver's 1-minute bookmark period. */
export const defaultSilentWatchTimeoutMs = 120_000;
/** Default {@link InformerOptions.minWatchTimeoutSeconds} (client-go's 5 minutes). */
export const defaultMinWatchTimeoutSeconds = 300;

/**
 * Lists and watches one resource (optionally one namespace, optionally filtered by label
 * and field selectors) into an in-memory store, and tells handlers about every change: the
 * reflector, store and shared informer of client-go in one.
 *
 * How it runs, once {@link start}ed:
 * - by default a WatchList (see {@link InformerOptions.watchList}): one WATCH with
 *   `sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true` and
 *   no resourceVersion; its events up to the bookmark annotated `k8s.io/initial-events-end`
 *   are collected and stored in one step at that bookmark, which is when the informer is
 *   synced; the same watch then goes on as the WATCH below. The first sync and every relist
 *   use it. Before the bookmark, a 410, a 504 or a 429 backs off and tries again; a 400 or
 *   422 (parameters refused), a clean end, or `watchListBookmarkTimeoutMs` without any line
 *   means the server does not stream lists of this resource: this informer falls back to
 *   the paged LIST below for good; any other failure (a 404, a 403, a 5xx, a cut
 *   connection) falls back to the paged LIST for this sync only (client-go's reflector,
 *   tools/cache/reflector.go);
 * - otherwise a paged LIST (`limit`, `continue`), pipelined: the next page is requested as soon as
 *   the continue token is read and received on the transport's helper thread (the
 *   `offThread` request flag) while this one is parsed (the first page is received on the
 *   event loop, so a list of one page never starts the thread); a 410 on a continue token restarts
 *   the list (a second one in the same list falls back to one unpaged request);
 * - a WATCH from the list's resourceVersion with `allowWatchBookmarks=true` and a random
 *   `timeoutSeconds` of 5–10 minutes, resumed from the last resourceVersion seen (events and
 *   bookmarks advance it) whenever it ends;
 * - a failed LIST or WATCH is retried after a jittered exponential backoff (800 ms to
 *   30 s, starting over after 2 healthy minutes) and reported, never thrown; after a
 *   failed WATCH it relists when the server answered 404 (a kind gone) or 504 ("Too large
 *   resource version", from a server that lost its store) or refused the connection (a
 *   server restarting), so it converges on whatever state the server comes back with;
 *   other failures (429, 500, 503, a watch cut mid-stream) resume from the last
 *   resourceVersion (see {@link relistAfterWatchError});
 * - 410 Gone (HTTP 410 or a watch `ERROR` event with code 410) triggers a relist that
 *   reconciles the store: handlers get add, update and delete events for the differences,
 *   so they converge on the server's state;
 * - a watch silent for longer than `silentWatchTimeoutMs` is closed and reopened; no other
 *   timer ever ends a healthy watch.
 *
 * Guarantees: each list page and each watch line is parsed once, and the parsed object is
 * what is stored (after the transform); no JSON text is kept. Per watch event the work is
 * O(1) in the number of cached objects. After {@link stop} no request is sent and no
 * handler is called.
 *
 * Errors: never throws from the background loop; failures are logged, counted in
 * {@link stats}, kept in {@link lastError} and passed to `onError`.
 */
export class Informer extends InformerReader {
  /** The namespace it is restricted to; `` for all namespaces (or a cluster-scoped kind). */
  readonly namespace: string;
  /** `apiVersion` of the objects (`group/version`, or `v1`). */
  readonly apiVersion: string;
  /** A human description, e.g. `configmaps (v1 ConfigMap) in namespace "default"`. */
  readonly description: string;

  private readonly transport: InformerTransport;
  private readonly path: string;
  private readonly labelSelector: string | undefined;
  private readonly fieldSelector: string | undefined;
  private shardSelector: string | undefined;
  /** Set when the shard selector changed: the next turn of the loop lists afresh. */
  private reselect = false;
  private readonly pageSize: number;
  private readonly silentWatchTimeoutMs: number;
  private readonly minWatchTimeoutSeconds: number;
  private readonly listTimeoutMs: number;
  private readonly watchListBookmarkTimeoutMs: number;
  /** Whether the next sync tries WatchList: the option, until the server shows it lacks it. */
  private useWatchList: boolean;
  private readonly log: Logger;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly backoff: Backoff;
  private readonly objects: InformerObjects;
  /** Whether cached objects share their strings (the default transform; not a custom one). */
  private readonly sharesStrings: boolean;

  private readonly handlers: InformerHandlers;
  private readonly changes: StoreChanges;
  private readonly lines: WatchLineApplier;
  private readonly waiters: SyncWaiters;
  private readonly pause: Pause;
  private started = false;
  private stopped = false;
  private synced = false;
  private loop: Promise<void> | undefined;
  private resourceVersion = '';
  private readonly failures: InformerFailures;
  private listAbort: AbortController | undefined;
  private closeWatch: (() => void) | undefined;
  private readonly counters: InformerStats = noInformerStats();

  /**
   * Builds a stopped informer; nothing is requested before {@link start}.
   *
   * @throws {LabelSelectorError} when `labelSelector` is a string that does not parse.
   * @throws {Error} when `labelSelector` is {@link Selector.nothing}, which has no string
   *   form the API server accepts.
   */
  constructor(options: InformerOptions) {
    // The store's index errors are logged on the informer's logger, made below.
    let log: Logger | undefined;
    super(
      options.descriptor,
      new InformerStore((index, object, error) =>
        log?.error(
          {
            err: error,
            index,
            object: `${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`,
          },
          'index function threw; the object is missing from that index',
        ),
      ),
    );
    this.transport = informerTransport(options.transport, options.metadataOnly);
    this.namespace = options.descriptor.namespaced ? (options.namespace ?? '') : '';
    this.apiVersion = apiVersionOfDescriptor(options.descriptor);
    this.labelSelector = labelSelectorQuery(options.descriptor, options.labelSelector);
    this.fieldSelector = options.fieldSelector || undefined;
    this.shardSelector = options.shardSelector || undefined;
    this.description = describeInformer(
      options.descriptor,
      this.apiVersion,
      this.namespace,
      this.labelSelector,
      this.fieldSelector,
    );
    this.path = resourcePath(options.descriptor, this.namespace);
    this.pageSize = options.pageSize ?? defaultInformerPageSize;
    this.silentWatchTimeoutMs = options.silentWatchTimeoutMs ?? defaultSilentWatchTimeoutMs;
    this.minWatchTimeoutSeconds = options.minWatchTimeoutSeconds ?? defaultMinWatchTimeoutSeconds;
    this.listTimeoutMs = options.listTimeoutMs ?? 60_000;
    this.useWatchList = options.watchList ?? true;
    this.watchListBookmarkTimeoutMs =
      options.watchListBookmarkTimeoutMs ?? defaultWatchListBookmarkTimeoutMs;
    this.log = (options.logger ?? pino({ level: 'silent' })).child({ informer: this.description });
    log = this.log;
    this.handlers = new InformerHandlers(this.log);
    this.failures = new InformerFailures(this.counters, this.log, options.onError);
    // The default keeps memory low: managedFields dropped, and repeated short strings shared
    // between objects — off the sync path for lists (see compact), inline for watch events.
    this.sharesStrings = options.transform === undefined;
    this.objects = new InformerObjects({
      kind: options.descriptor.kind,
      apiVersion: this.apiVersion,
      transform: informerTransform(options, this.apiVersion),
      interner: this.sharesStrings ? new StringInterner() : undefined,
      log: this.log,
      isStopped: () => this.stopped,
    });
    this.clock = options.clock ?? realClock;
    this.random = options.random ?? Math.random;
    this.waiters = new SyncWaiters(this.clock);
    this.pause = new Pause(this.clock);
    this.backoff = new Backoff(options.backoff ?? {}, this.clock, this.random);
    this.changes = new StoreChanges(this.store, this.handlers);
    this.lines = new WatchLineApplier({
      description: this.description,
      log: this.log,
      objects: this.objects,
      changes: this.changes,
      sharesStrings: this.sharesStrings,
      delivered: () => {
        this.failures.last = undefined;
      },
      advance: (resourceVersion) => {
        this.resourceVersion = resourceVersion;
      },
      replace: (items, resourceVersion) => this.replace(items, resourceVersion),
    });
  }

  /**
   * Starts listing and watching in the background. Idempotent.
   *
   * @throws {Error} when the informer was stopped: a stopped informer cannot be restarted;
   *   build a new one.
   */
  start(): void {
    if (this.stopped) {
      throw new Error(
        `the informer for ${this.description} was stopped and cannot be restarted; create a new one`,
      );
    }
    if (this.started) return;
    this.started = true;
    this.loop = this.run().catch((error: unknown) => {
      this.log.error({ err: error }, 'informer loop failed unexpectedly; it has stopped');
    });
  }

  /**
   * Stops for good: closes the watch, aborts a list in flight, cancels any backoff wait and
   * rejects pending {@link waitForSync} calls with an {@link InformerSyncError} (`Stopped`).
   * Resolves once the background loop has exited; from then on no request is sent and no
   * handler called. The store keeps its last contents. Idempotent.
   */
  stop(): Promise<void> {
    if (!this.stopped) {
      this.stopped = true;
      this.listAbort?.abort();
      this.closeWatch?.();
      this.pause.wake();
      this.waiters.rejectAll(stoppedBeforeSyncError(this.description));
    }
    return this.loop ?? Promise.resolve();
  }

  /**
   * Changes the server-side shard selector (undefined: none); when it differs, the watch ends
   * and the informer relists with it (after a list in flight): objects no longer selected are
   * deleted from the store (`onDelete`), newly selected ones added.
   */
  setShardSelector(selector: string | undefined): void {
    if ((selector || undefined) === this.shardSelector) return;
    this.shardSelector = selector || undefined;
    this.reselect = true;
    this.closeWatch?.();
  }

  /** Whether {@link stop} was called. */
  isStopped(): boolean {
    return this.stopped;
  }

  /**
   * Whether the first complete list has been stored. Stays true afterwards, through relists
   * and errors, as client-go's `HasSynced`.
   */
  hasSynced(): boolean {
    return this.synced;
  }

  /**
   * Resolves once the informer has synced (at once if it has).
   *
   * Errors: rejects with an {@link InformerSyncError} naming the resource, with reason
   * `Timeout` after `timeoutMs` (its message includes the last list or watch error, the
   * usual cause), or `Stopped` when the informer is stopped first. Does not start the
   * informer.
   */
  waitForSync(timeoutMs: number): Promise<void> {
    if (this.synced) return Promise.resolve();
    if (this.stopped) {
      return Promise.reject(stoppedBeforeSyncError(this.description));
    }
    return this.waiters.wait(timeoutMs, () =>
      syncTimeoutError(this.description, timeoutMs, this.started, this.failures.last),
    );
  }

  /**
   * The resourceVersion of the latest state seen: set by each complete list and advanced
   * by every watch event and bookmark. `` before the first list.
   */
  get lastSyncResourceVersion(): string {
    return this.resourceVersion;
  }

  /** The last list or watch failure; cleared when a list succeeds or a watch delivers. */
  get lastError(): InformerRequestError | undefined {
    return this.failures.last;
  }

  /** A copy of the counters of what the informer did. */
  stats(): InformerStats {
    return { ...this.counters };
  }

  /**
   * Registers handlers (at any time, even after sync). Objects already cached are first
   * delivered to `onAdd` (synthetic adds, `isInInitialList` true), synchronously, before
   * this returns; every later change follows. See {@link InformerEventHandlers} for the
   * guarantees.
   */
  addEventHandler(handlers: InformerEventHandlers): EventHandlerRegistration {
    return this.handlers.add(handlers, this.store);
  }

  // ---- the loop -------------------------------------------------------------------------

  private async run(): Promise<void> {
    let needList = true;
    // Set after a WatchList failed in a way that lists this sync only.
    let listOnce = false;
    while (!this.stopped) {
      needList ||= this.reselect;
      this.reselect = false;
      let outcome: WatchOutcome;
      if (needList && this.useWatchList && !listOnce) {
        const streamed = await this.watchListOnce();
        if (this.stopped || (streamed.outcome.kind === 'stopped' && !this.reselect)) break;
        if (streamed.outcome.kind === 'stopped') continue;
        if (!streamed.synced) {
          const next = afterUnfinishedWatchList(streamed.outcome, this.watchListBookmarkTimeoutMs);
          if (next.error !== undefined) this.failures.report(next.error);
          if (next.next === 'retry') {
            await this.sleep(this.backoff.next());
            continue;
          }
          this.counters.watchListFallbacks++;
          if (next.unsupported) this.useWatchList = false;
          else listOnce = true;
          this.log.info(
            { reason: next.reason, forGood: next.unsupported },
            'WatchList did not complete; syncing by a paged LIST',
          );
          continue;
        }
        needList = false;
        outcome = streamed.outcome;
      } else {
        if (needList) {
          const listed = await this.listAndReplace();
          if (this.stopped) break;
          if (!listed) {
            await this.sleep(this.backoff.next());
            continue;
          }
          needList = false;
          listOnce = false;
        }
        if (this.reselect) continue;
        outcome = await this.watchOnce();
      }
      if (this.stopped || (outcome.kind === 'stopped' && !this.reselect)) break;
      if (outcome.kind === 'stopped') continue;
      if (
        await afterWatch(outcome, {
          counters: this.counters,
          log: this.log,
          failures: this.failures,
          silentWatchTimeoutMs: this.silentWatchTimeoutMs,
          resourceVersion: this.resourceVersion,
          backOff: () => this.sleep(this.backoff.next()),
        })
      )
        needList = true;
    }
  }

  private sleep(ms: number): Promise<void> {
    return this.stopped ? Promise.resolve() : this.pause.sleep(ms);
  }

  private query(extra: TransportRequest['query']): TransportRequest['query'] {
    const { labelSelector, fieldSelector, shardSelector } = this;
    return { labelSelector, fieldSelector, shardSelector, ...extra };
  }

  /** One complete (paged) list, applied to the store. False when it failed (reported). */
  private async listAndReplace(): Promise<boolean> {
    const abort = new AbortController();
    this.listAbort = abort;
    let listed: ListedObjects | undefined;
    try {
      listed = await listObjects({
        transport: this.transport,
        path: this.path,
        query: (extra) => this.query(extra),
        pageSize: this.pageSize,
        timeoutMs: this.listTimeoutMs,
        signal: abort.signal,
        description: this.description,
        counters: this.counters,
        log: this.log,
        isStopped: () => this.stopped,
        prepareInto: (item, into) => this.objects.prepareInto(item, into),
      });
      if (listed === undefined) return false;
    } catch (error) {
      if (this.stopped) return false;
      this.failures.reportList(error, this.description);
      return false;
    } finally {
      if (this.listAbort === abort) this.listAbort = undefined;
    }
    this.replace(listed.items, listed.resourceVersion);
    this.objects.compact(listed.items);
    return true;
  }

  /**
   * Resolves once the objects of the latest list have been compacted (their repeated strings
   * shared): the informer's memory is then at its steady state. Syncing does not wait for it.
   */
  idle(): Promise<void> {
    return this.objects.idle();
  }

  /** Makes the store equal to a complete list, telling handlers about each difference. */
  private replace(items: KubernetesObject[], resourceVersion: string): void {
    this.changes.replace(items, !this.synced);
    this.resourceVersion = resourceVersion;
    this.failures.last = undefined;
    this.counters.lists++;
    this.log.debug({ objects: this.store.size, resourceVersion }, 'list stored');
    if (!this.synced) {
      this.synced = true;
      this.waiters.resolveAll();
    }
  }

  private watchOnce(): Promise<WatchOutcome> {
    this.counters.watches++;
    return watchOnce({
      transport: this.transport,
      path: this.path,
      query: this.query({
        watch: true,
        resourceVersion: this.resourceVersion || undefined,
        allowWatchBookmarks: true,
        timeoutSeconds: Math.floor(this.minWatchTimeoutSeconds * (1 + this.random())),
      }),
      clock: this.clock,
      silentWatchTimeoutMs: this.silentWatchTimeoutMs,
      description: this.description,
      setClose: (close) => {
        this.closeWatch = close;
      },
      handleLine: (line) => this.lines.apply(line),
    });
  }

  /** One WatchList (see {@link watchListOnce}); the informer is synced if its bookmark came. */
  private watchListOnce(): Promise<{ synced: boolean; outcome: WatchOutcome }> {
    this.counters.watches++;
    this.counters.watchLists++;
    return watchListOnce({
      transport: this.transport,
      path: this.path,
      query: this.query(
        watchListQuery(Math.floor(this.minWatchTimeoutSeconds * (1 + this.random()))),
      ),
      clock: this.clock,
      silentWatchTimeoutMs: this.silentWatchTimeoutMs,
      bookmarkTimeoutMs: this.watchListBookmarkTimeoutMs,
      description: this.description,
      setClose: (close) => {
        this.closeWatch = close;
      },
      lines: this.lines,
    });
  }
}
