import type { KubernetesObject, Selector, Status, WatchEvent } from '@ops/api';
import { parseLabelSelector } from '@ops/api';
import { type Logger, pino } from 'pino';
import type { KubeTransport, TransportRequest, WatchConnection } from '../client/kube-transport.js';
import {
  apiVersionOfDescriptor,
  type ResourceDescriptor,
  resourcePath,
} from '../client/resource-descriptor.js';
import { type Clock, realClock, type TimerHandle } from '../clock/clock.js';
import { InformerRequestError } from '../errors/informer-request-error.js';
import { InformerSyncError } from '../errors/informer-sync-error.js';
import { Backoff, type BackoffOptions } from './backoff.js';
import { type IndexFunc, InformerStore } from './informer-store.js';
import { StringInterner } from './string-interner.js';
import { stripManagedFields, type TransformFunc } from './strip-managed-fields.js';

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
  /** Lists restarted because their continue token expired (410). */
  expiredContinues: number;
  /** Watches replaced because they went silent. */
  silentWatches: number;
  /** Failed LIST or WATCH attempts. */
  errors: number;
}

/** Default {@link InformerOptions.pageSize}. */
export const defaultInformerPageSize = 1000;
/** Default {@link InformerOptions.silentWatchTimeoutMs}: 2 × kube-apiserver's 1-minute bookmark period. */
export const defaultSilentWatchTimeoutMs = 120_000;
/** Default {@link InformerOptions.minWatchTimeoutSeconds} (client-go's 5 minutes). */
export const defaultMinWatchTimeoutSeconds = 300;

/** A clean watch end this soon after it started, having delivered nothing, counts as a failure. */
const shortWatchMs = 1_000;

interface ListBody {
  metadata?: { resourceVersion?: string; continue?: string };
  items?: KubernetesObject[] | null;
}

/** A watch line as read: any field may be missing; an `ERROR` event's object is a Status. */
type WatchLine = Partial<
  WatchEvent<KubernetesObject & Pick<Status, 'code' | 'message' | 'reason'>>
>;

type WatchOutcome =
  | { kind: 'ended' }
  | { kind: 'gone'; reason: string }
  | { kind: 'silent'; lines: number }
  | { kind: 'error'; error: InformerRequestError }
  | { kind: 'stopped' };

interface SyncWaiter {
  resolve(): void;
  reject(error: Error): void;
  timer: TimerHandle;
}

type Handlers = readonly InformerEventHandlers[];

/**
 * Lists and watches one resource (optionally one namespace, optionally filtered by label
 * and field selectors) into an in-memory store, and tells handlers about every change: the
 * reflector, store and shared informer of client-go in one.
 *
 * How it runs, once {@link start}ed:
 * - a paged LIST (`limit`, `continue`), pipelined: the next page is requested as soon as
 *   the continue token is read and received on the transport's helper thread (the
 *   `offThread` request flag) while this one is parsed; a 410 on a continue token restarts
 *   the list (a second one in the same list falls back to one unpaged request);
 * - a WATCH from the list's resourceVersion with `allowWatchBookmarks=true` and a random
 *   `timeoutSeconds` of 5–10 minutes, resumed from the last resourceVersion seen (events and
 *   bookmarks advance it) whenever it ends;
 * - a failed LIST or WATCH is retried after a jittered exponential backoff (800 ms to
 *   30 s, starting over after 2 healthy minutes); a 404 (the kind is not served, say its CRD
 *   is gone) is retried the same way and reported, never thrown;
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
export class Informer {
  /** The resource this informer lists and watches. */
  readonly descriptor: ResourceDescriptor;
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
  private readonly pageSize: number;
  private readonly transform: TransformFunc;
  private readonly interner: StringInterner | undefined;
  private compaction: Promise<void> = Promise.resolve();
  private readonly silentWatchTimeoutMs: number;
  private readonly minWatchTimeoutSeconds: number;
  private readonly listTimeoutMs: number;
  private readonly onError: ((error: InformerRequestError) => void) | undefined;
  private readonly log: Logger;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly backoff: Backoff;
  private readonly store: InformerStore;

  private handlers: Handlers = [];
  private readonly waiters = new Set<SyncWaiter>();
  private started = false;
  private stopped = false;
  private synced = false;
  private loop: Promise<void> | undefined;
  private resourceVersion = '';
  private error: InformerRequestError | undefined;
  private listAbort: AbortController | undefined;
  private closeWatch: (() => void) | undefined;
  private wake: (() => void) | undefined;
  private readonly counters: InformerStats = {
    listRequests: 0,
    lists: 0,
    watches: 0,
    goneRelists: 0,
    expiredContinues: 0,
    silentWatches: 0,
    errors: 0,
  };

  /**
   * Builds a stopped informer; nothing is requested before {@link start}.
   *
   * @throws {LabelSelectorError} when `labelSelector` is a string that does not parse.
   * @throws {Error} when `labelSelector` is {@link Selector.nothing}, which has no string
   *   form the API server accepts.
   */
  constructor(options: InformerOptions) {
    this.transport = options.transport;
    this.descriptor = options.descriptor;
    this.namespace = options.descriptor.namespaced ? (options.namespace ?? '') : '';
    this.apiVersion = apiVersionOfDescriptor(options.descriptor);
    const selector =
      typeof options.labelSelector === 'string'
        ? parseLabelSelector(options.labelSelector)
        : options.labelSelector;
    if (selector?.isNothing()) {
      throw new Error(
        `the label selector of the ${options.descriptor.plural} informer selects nothing; pass Selector.everything (or no selector) to watch every object`,
      );
    }
    this.labelSelector =
      selector === undefined || selector.isEverything() ? undefined : selector.toString();
    this.fieldSelector = options.fieldSelector || undefined;
    this.description = describe(
      options.descriptor,
      this.apiVersion,
      this.namespace,
      this.labelSelector,
      this.fieldSelector,
    );
    this.path = resourcePath(options.descriptor, this.namespace);
    this.pageSize = options.pageSize ?? defaultInformerPageSize;
    // The default keeps memory low: managedFields dropped, and repeated short strings shared
    // between objects — off the sync path for lists (see compact), inline for watch events.
    this.transform = options.transform ?? stripManagedFields;
    this.interner = options.transform ? undefined : new StringInterner();
    this.silentWatchTimeoutMs = options.silentWatchTimeoutMs ?? defaultSilentWatchTimeoutMs;
    this.minWatchTimeoutSeconds = options.minWatchTimeoutSeconds ?? defaultMinWatchTimeoutSeconds;
    this.listTimeoutMs = options.listTimeoutMs ?? 60_000;
    this.onError = options.onError;
    this.log = (options.logger ?? pino({ level: 'silent' })).child({ informer: this.description });
    this.clock = options.clock ?? realClock;
    this.random = options.random ?? Math.random;
    this.backoff = new Backoff(options.backoff ?? {}, this.clock, this.random);
    this.store = new InformerStore((index, object, error) =>
      this.log.error(
        {
          err: error,
          index,
          object: `${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`,
        },
        'index function threw; the object is missing from that index',
      ),
    );
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
      this.wake?.();
      const error = new InformerSyncError(
        `the informer for ${this.description} was stopped before it synced`,
        'Stopped',
        this.description,
      );
      for (const waiter of this.waiters) {
        this.clock.clearTimeout(waiter.timer);
        waiter.reject(error);
      }
      this.waiters.clear();
    }
    return this.loop ?? Promise.resolve();
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
      return Promise.reject(
        new InformerSyncError(
          `the informer for ${this.description} was stopped before it synced`,
          'Stopped',
          this.description,
        ),
      );
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: SyncWaiter = {
        resolve,
        reject,
        timer: this.clock.setTimeout(() => {
          this.waiters.delete(waiter);
          reject(this.syncTimeoutError(timeoutMs));
        }, timeoutMs),
      };
      this.waiters.add(waiter);
    });
  }

  private syncTimeoutError(timeoutMs: number): InformerSyncError {
    const cause = this.error;
    const why = !this.started
      ? ': it was never started (call start(), or read through InformerCache which starts it)'
      : cause !== undefined
        ? `; last error: ${cause.message}`
        : '; the first list has not completed (is the API server slow or the list very large?)';
    const hint =
      cause?.status === 404
        ? '; check that the API server serves this resource (is its CRD installed?)'
        : cause?.status === 401 || cause?.status === 403
          ? '; check that the user may list and watch this resource'
          : '';
    return new InformerSyncError(
      `the informer for ${this.description} did not sync within ${timeoutMs} ms${why}${hint}`,
      'Timeout',
      this.description,
      { cause },
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
    return this.error;
  }

  /** A copy of the counters of what the informer did. */
  stats(): InformerStats {
    return { ...this.counters };
  }

  /** How many objects are cached (for the cache's object-count gauge). O(1). */
  objectCount(): number {
    return this.store.size;
  }

  /**
   * The cached object `namespace/name` (namespace `` or omitted for cluster-scoped), by
   * reference: do not mutate it.
   */
  get(namespace: string | undefined, name: string): KubernetesObject | undefined {
    return this.store.get(this.descriptor.namespaced ? (namespace ?? '') : '', name);
  }

  /** The cached object of a `namespace/name` key, by reference: do not mutate it. */
  getByKey(key: string): KubernetesObject | undefined {
    return this.store.getByKey(key);
  }

  /** The keys (`namespace/name`, or `name`) of every cached object. O(n). */
  keys(): string[] {
    return this.store.keys();
  }

  /**
   * The cached objects, optionally of one namespace and matching a label selector, by
   * reference: do not mutate them. O(n) (O(objects in the namespace) with `namespace`).
   */
  list(options: { namespace?: string; labelSelector?: Selector } = {}): KubernetesObject[] {
    const objects =
      options.namespace !== undefined && this.descriptor.namespaced
        ? this.store.listNamespace(options.namespace)
        : this.store.list();
    const selector = options.labelSelector;
    if (selector === undefined || selector.isEverything()) return objects;
    return objects.filter((object) => selector.matches(object.metadata?.labels));
  }

  /**
   * Adds a field index (before or after start): `fn` gives the values an object is found
   * under with {@link byIndex}. The built-in `namespace` index always exists.
   *
   * @throws {Error} when an index of that name exists.
   */
  addIndex(name: string, fn: IndexFunc): void {
    this.store.addIndex(name, fn);
  }

  /** Whether an index of that name exists. */
  hasIndex(name: string): boolean {
    return this.store.hasIndex(name);
  }

  /**
   * The cached objects whose index `name` holds `value`, by reference: do not mutate them.
   *
   * @throws {Error} when there is no index of that name.
   */
  byIndex(name: string, value: string): KubernetesObject[] {
    return this.store.byIndex(name, value);
  }

  /**
   * Registers handlers (at any time, even after sync). Objects already cached are first
   * delivered to `onAdd` (synthetic adds, `isInInitialList` true), synchronously, before
   * this returns; every later change follows. See {@link InformerEventHandlers} for the
   * guarantees.
   */
  addEventHandler(handlers: InformerEventHandlers): EventHandlerRegistration {
    if (handlers.onAdd !== undefined && this.store.size > 0) {
      this.store.forEach((object) => {
        this.call(handlers, 'onAdd', object, true);
      });
    }
    this.handlers = [...this.handlers, handlers];
    return {
      remove: () => {
        this.handlers = this.handlers.filter((h) => h !== handlers);
      },
    };
  }

  // ---- the loop -------------------------------------------------------------------------

  private async run(): Promise<void> {
    let needList = true;
    while (!this.stopped) {
      if (needList) {
        const listed = await this.listAndReplace();
        if (this.stopped) break;
        if (!listed) {
          await this.sleep(this.backoff.next());
          continue;
        }
        needList = false;
      }
      const outcome = await this.watchOnce();
      if (this.stopped || outcome.kind === 'stopped') break;
      switch (outcome.kind) {
        case 'ended':
          this.log.debug({ resourceVersion: this.resourceVersion }, 'watch ended; watching again');
          break;
        case 'gone':
          this.counters.goneRelists++;
          this.log.info(
            { reason: outcome.reason },
            'resourceVersion expired (410 Gone); relisting',
          );
          needList = true;
          break;
        case 'silent':
          this.counters.silentWatches++;
          this.log.warn(
            { silentMs: this.silentWatchTimeoutMs, resourceVersion: this.resourceVersion },
            'watch went silent (no event or bookmark); reconnecting',
          );
          // A watch that never delivered anything may be a server that accepts and hangs:
          // back off before trying again.
          if (outcome.lines === 0) await this.sleep(this.backoff.next());
          break;
        case 'error':
          this.report(outcome.error);
          if (outcome.error.status === 404) needList = true;
          await this.sleep(this.backoff.next());
          break;
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const handle = this.clock.setTimeout(() => {
        this.wake = undefined;
        resolve();
      }, ms);
      this.wake = () => {
        this.clock.clearTimeout(handle);
        this.wake = undefined;
        resolve();
      };
    });
  }

  private report(error: InformerRequestError): void {
    this.error = error;
    this.counters.errors++;
    this.log.warn(
      { err: error, status: error.status },
      `${error.verb} failed; retrying with backoff`,
    );
    if (this.onError !== undefined) {
      try {
        this.onError(error);
      } catch (handlerError) {
        this.log.error({ err: handlerError }, 'onError handler threw');
      }
    }
  }

  private query(extra: TransportRequest['query']): TransportRequest['query'] {
    return { labelSelector: this.labelSelector, fieldSelector: this.fieldSelector, ...extra };
  }

  /** One complete (paged) list, applied to the store. False when it failed (reported). */
  private async listAndReplace(): Promise<boolean> {
    const abort = new AbortController();
    this.listAbort = abort;
    const items: KubernetesObject[] = [];
    let resourceVersion = '';
    let continueToken: string | undefined;
    let paged = true;
    let expired = 0;
    // Pages are pipelined: the continue token comes in the list's metadata, ahead of its
    // items, so the next page is requested before this one is parsed.
    const fetchPage = (token: string | undefined) => {
      this.counters.listRequests++;
      return this.transport.request({
        method: 'GET',
        path: this.path,
        query: this.query({ limit: paged ? this.pageSize : undefined, continue: token }),
        signal: abort.signal,
        timeoutMs: this.listTimeoutMs,
        // Received on the transport's helper thread: this thread parses the page before.
        offThread: true,
      });
    };
    let pending: ReturnType<typeof fetchPage> | undefined;
    try {
      for (;;) {
        const response = await (pending ?? fetchPage(continueToken));
        pending = undefined;
        if (this.stopped) return false;
        if (response.status === 410 && continueToken !== undefined) {
          // The continue token expired mid-list: start over; the second time in one list,
          // fall back to one unpaged request (client-go's pager does the same).
          expired++;
          this.counters.expiredContinues++;
          this.log.info({ expired }, 'continue token expired (410); restarting the list');
          items.length = 0;
          continueToken = undefined;
          if (expired >= 2) paged = false;
          continue;
        }
        if (response.status !== 200) throw this.statusError('list', response.status, response.text);
        const peeked =
          paged && response.status === 200 ? peekContinueToken(response.text) : undefined;
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
            `list of ${this.description} answered with a body that is not JSON`,
            'list',
            this.description,
            undefined,
            { cause: error },
          );
        }
        const page = body.items;
        if (page) for (const item of page) this.prepareInto(item, items);
        resourceVersion = body.metadata?.resourceVersion ?? '';
        continueToken = body.metadata?.continue || undefined;
        if (continueToken === undefined) break;
        if (prefetched !== undefined && peeked === continueToken) pending = prefetched;
      }
    } catch (error) {
      if (this.stopped) return false;
      this.report(
        InformerRequestError.isInstance(error)
          ? error
          : new InformerRequestError(
              `list of ${this.description} failed: ${(error as Error).message}`,
              'list',
              this.description,
              undefined,
              { cause: error },
            ),
      );
      return false;
    } finally {
      if (this.listAbort === abort) this.listAbort = undefined;
    }
    this.replace(items, resourceVersion);
    this.compact(items);
    return true;
  }

  /**
   * Shares repeated strings of freshly listed objects in small steps after the list is
   * stored, so syncing does not wait for it. Values never change (equal strings replace equal
   * strings), so readers and handlers holding these objects see nothing.
   */
  private compact(objects: KubernetesObject[]): void {
    const interner = this.interner;
    if (interner === undefined || objects.length === 0) return;
    this.compaction = new Promise((resolve) => {
      let next = 0;
      const step = () => {
        if (this.stopped) return resolve();
        const end = Math.min(objects.length, next + 500);
        for (; next < end; next++) interner.intern(objects[next]);
        if (next < objects.length) setImmediate(step);
        else resolve();
      };
      setImmediate(step);
    });
  }

  /**
   * Resolves once the objects of the latest list have been compacted (their repeated strings
   * shared): the informer's memory is then at its steady state. Syncing does not wait for it.
   */
  idle(): Promise<void> {
    return this.compaction;
  }

  private statusError(verb: 'list' | 'watch', status: number, text: string): InformerRequestError {
    let message = text.length > 300 ? `${text.slice(0, 300)}…` : text;
    try {
      const parsed = JSON.parse(text) as { message?: unknown };
      if (typeof parsed.message === 'string') message = parsed.message;
    } catch {
      // not a Status object: keep the text
    }
    const hint =
      status === 404
        ? ' (the server does not serve this resource: is its CRD installed?)'
        : status === 403
          ? ` (the user may not ${verb} this resource: check its RBAC)`
          : '';
    return new InformerRequestError(
      `${verb} of ${this.description} answered ${status}: ${message}${hint}`,
      verb,
      this.description,
      status,
    );
  }

  /** A watched object with its repeated strings shared (when the default transform is on). */
  private interned(object: KubernetesObject | undefined): KubernetesObject | undefined {
    return object !== undefined && this.interner !== undefined
      ? this.interner.intern(object)
      : object;
  }

  /** Completes and transforms a freshly parsed object and appends it to `into`. */
  private prepareInto(item: KubernetesObject, into: KubernetesObject[]): void {
    const prepared = this.prepare(item);
    if (prepared !== undefined) into.push(prepared);
  }

  private prepare(item: KubernetesObject | undefined): KubernetesObject | undefined {
    if (typeof item !== 'object' || item === null || typeof item.metadata?.name !== 'string') {
      this.log.warn('ignoring an object without metadata.name');
      return undefined;
    }
    // Real API servers omit apiVersion and kind from list items; restore them so every
    // cached object says what it is.
    if (item.kind === undefined) item.kind = this.descriptor.kind;
    if (item.apiVersion === undefined) item.apiVersion = this.apiVersion;
    try {
      return this.transform(item);
    } catch (error) {
      this.log.error({ err: error }, 'transform threw; storing the object untransformed');
      return item;
    }
  }

  /** Makes the store equal to a complete list, telling handlers about each difference. */
  private replace(items: KubernetesObject[], resourceVersion: string): void {
    const initial = !this.synced;
    const store = this.store;
    if (store.size === 0) {
      for (const object of items) {
        const old = store.upsert(object);
        // Duplicates in one list should not happen; treat a second copy as an update.
        if (old === undefined) this.emitAdd(object, initial);
        else if (old.metadata?.resourceVersion !== object.metadata?.resourceVersion) {
          this.emitUpdate(old, object);
        }
      }
    } else {
      const listed = new Map<string, Set<string>>();
      for (const object of items) {
        const namespace = object.metadata?.namespace ?? '';
        const name = object.metadata?.name ?? '';
        let names = listed.get(namespace);
        if (names === undefined) {
          names = new Set();
          listed.set(namespace, names);
        }
        names.add(name);
        const old = store.get(namespace, name);
        if (old === undefined) {
          store.upsert(object);
          this.emitAdd(object, initial);
        } else if (old.metadata?.resourceVersion !== object.metadata?.resourceVersion) {
          store.upsert(object);
          this.emitUpdate(old, object);
        }
      }
      const gone: KubernetesObject[] = [];
      store.forEach((object) => {
        if (!listed.get(object.metadata?.namespace ?? '')?.has(object.metadata?.name ?? '')) {
          gone.push(object);
        }
      });
      for (const object of gone) {
        store.remove(object.metadata?.namespace ?? '', object.metadata?.name ?? '');
        this.emitDelete(object, true);
      }
    }
    this.resourceVersion = resourceVersion;
    this.error = undefined;
    this.counters.lists++;
    this.log.debug({ objects: store.size, resourceVersion }, 'list stored');
    if (!this.synced) {
      this.synced = true;
      for (const waiter of this.waiters) {
        this.clock.clearTimeout(waiter.timer);
        waiter.resolve();
      }
      this.waiters.clear();
    }
  }

  private watchOnce(): Promise<WatchOutcome> {
    this.counters.watches++;
    const timeoutSeconds = Math.floor(this.minWatchTimeoutSeconds * (1 + this.random()));
    const startedAt = this.clock.now();
    let lastActivity = startedAt;
    let lines = 0;
    let settled = false;
    let connection: WatchConnection | undefined;
    let silenceTimer: TimerHandle | undefined;

    return new Promise<WatchOutcome>((resolve) => {
      const finish = (outcome: WatchOutcome) => {
        if (settled) return;
        settled = true;
        if (silenceTimer !== undefined) this.clock.clearTimeout(silenceTimer);
        this.closeWatch = undefined;
        connection?.close();
        resolve(outcome);
      };
      this.closeWatch = () => finish({ kind: 'stopped' });

      // The silence check re-arms itself rather than being reset on every line, so a busy
      // watch costs one clock read per event and no timer churn.
      const checkSilence = () => {
        silenceTimer = undefined;
        if (settled) return;
        const idle = this.clock.now() - lastActivity;
        if (idle >= this.silentWatchTimeoutMs) finish({ kind: 'silent', lines });
        else silenceTimer = this.clock.setTimeout(checkSilence, this.silentWatchTimeoutMs - idle);
      };
      silenceTimer = this.clock.setTimeout(checkSilence, this.silentWatchTimeoutMs);

      const onLine = (line: string) => {
        if (settled) return;
        lastActivity = this.clock.now();
        lines++;
        const outcome = this.handleLine(line);
        if (outcome !== undefined) finish(outcome);
      };
      const onDone = (error?: Error) => {
        if (settled) return;
        if (error !== undefined) {
          const status = (error as Error & { status?: number }).status;
          if (status === 410) {
            finish({ kind: 'gone', reason: error.message });
            return;
          }
          finish({
            kind: 'error',
            error:
              status !== undefined
                ? this.statusError(
                    'watch',
                    status,
                    error.message.replace(/^watch \S+ answered \d+: /, ''),
                  )
                : new InformerRequestError(
                    `watch of ${this.description} failed: ${error.message}`,
                    'watch',
                    this.description,
                    undefined,
                    { cause: error },
                  ),
          });
          return;
        }
        if (lines === 0 && this.clock.now() - startedAt < shortWatchMs) {
          finish({
            kind: 'error',
            error: new InformerRequestError(
              `watch of ${this.description} ended at once without delivering anything`,
              'watch',
              this.description,
              undefined,
            ),
          });
          return;
        }
        finish({ kind: 'ended' });
      };

      this.transport
        .watch(
          this.path,
          this.query({
            watch: true,
            resourceVersion: this.resourceVersion || undefined,
            allowWatchBookmarks: true,
            timeoutSeconds,
          }),
          { onLine, onDone },
        )
        .then(
          (opened) => {
            if (settled) opened.close();
            else connection = opened;
          },
          (error: unknown) =>
            finish({
              kind: 'error',
              error: new InformerRequestError(
                `watch of ${this.description} could not start: ${(error as Error).message}`,
                'watch',
                this.description,
                undefined,
                { cause: error },
              ),
            }),
        );
    });
  }

  /** Applies one watch line; returns an outcome when the watch must end. */
  private handleLine(line: string): WatchOutcome | undefined {
    let event: WatchLine;
    try {
      event = JSON.parse(line) as WatchLine;
    } catch (error) {
      return {
        kind: 'error',
        error: new InformerRequestError(
          `watch of ${this.description} sent a line that is not JSON`,
          'watch',
          this.description,
          undefined,
          { cause: error },
        ),
      };
    }
    const object = event.object;
    switch (event.type) {
      case 'ADDED':
      case 'MODIFIED': {
        this.error = undefined;
        const prepared = this.interned(this.prepare(object));
        if (prepared === undefined) return undefined;
        const metadata = prepared.metadata;
        const resourceVersion = metadata?.resourceVersion;
        if (resourceVersion) this.resourceVersion = resourceVersion;
        const old = this.store.get(metadata?.namespace ?? '', metadata?.name ?? '');
        if (old === undefined) {
          this.store.upsert(prepared);
          this.emitAdd(prepared, false);
        } else if (old.metadata?.resourceVersion !== resourceVersion) {
          this.store.upsert(prepared);
          this.emitUpdate(old, prepared);
        }
        return undefined;
      }
      case 'DELETED': {
        this.error = undefined;
        const prepared = this.interned(this.prepare(object));
        if (prepared === undefined) return undefined;
        const metadata = prepared.metadata;
        if (metadata?.resourceVersion) this.resourceVersion = metadata.resourceVersion;
        const old = this.store.remove(metadata?.namespace ?? '', metadata?.name ?? '');
        if (old !== undefined) this.emitDelete(prepared, false);
        return undefined;
      }
      case 'BOOKMARK': {
        const resourceVersion = object?.metadata?.resourceVersion;
        if (resourceVersion) this.resourceVersion = resourceVersion;
        return undefined;
      }
      case 'ERROR': {
        const code = typeof object?.code === 'number' ? object.code : undefined;
        const message = typeof object?.message === 'string' ? object.message : line;
        if (code === 410 || object?.reason === 'Expired' || object?.reason === 'Gone') {
          return { kind: 'gone', reason: message };
        }
        return {
          kind: 'error',
          error: new InformerRequestError(
            `watch of ${this.description} reported an error${code === undefined ? '' : ` (${code})`}: ${message}`,
            'watch',
            this.description,
            code,
          ),
        };
      }
      default:
        this.log.warn({ type: event.type }, 'ignoring a watch event of unknown type');
        return undefined;
    }
  }

  // ---- handlers -------------------------------------------------------------------------

  private emitAdd(object: KubernetesObject, isInInitialList: boolean): void {
    for (const handlers of this.handlers) {
      if (handlers.onAdd !== undefined) this.call(handlers, 'onAdd', object, isInInitialList);
    }
  }

  private emitUpdate(oldObject: KubernetesObject, newObject: KubernetesObject): void {
    for (const handlers of this.handlers) {
      if (handlers.onUpdate !== undefined) this.call(handlers, 'onUpdate', oldObject, newObject);
    }
  }

  private emitDelete(object: KubernetesObject, finalStateUnknown: boolean): void {
    for (const handlers of this.handlers) {
      if (handlers.onDelete !== undefined)
        this.call(handlers, 'onDelete', object, finalStateUnknown);
    }
  }

  private call(
    handlers: InformerEventHandlers,
    event: 'onAdd' | 'onUpdate' | 'onDelete',
    first: KubernetesObject,
    second: KubernetesObject | boolean,
  ): void {
    try {
      const result: unknown =
        event === 'onUpdate'
          ? handlers.onUpdate?.(first, second as KubernetesObject)
          : event === 'onAdd'
            ? handlers.onAdd?.(first, second as boolean)
            : handlers.onDelete?.(first, second as boolean);
      if (isThenable(result)) {
        result.then(undefined, (error: unknown) => this.handlerFailed(event, first, error));
      }
    } catch (error) {
      this.handlerFailed(event, first, error);
    }
  }

  private handlerFailed(event: string, object: KubernetesObject, error: unknown): void {
    this.log.error(
      {
        err: error,
        event,
        object: `${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`,
      },
      'event handler threw; the informer carries on',
    );
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

function describe(
  descriptor: ResourceDescriptor,
  apiVersion: string,
  namespace: string,
  labelSelector: string | undefined,
  fieldSelector: string | undefined,
): string {
  const resource = descriptor.group
    ? `${descriptor.plural}.${descriptor.group}`
    : descriptor.plural;
  let out = `${resource} (${apiVersion} ${descriptor.kind})`;
  if (namespace) out += ` in namespace "${namespace}"`;
  if (labelSelector) out += ` with labels "${labelSelector}"`;
  if (fieldSelector) out += ` with fields "${fieldSelector}"`;
  return out;
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
