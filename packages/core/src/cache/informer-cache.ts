import type { KubernetesObject, PartialObjectMetadata } from '@ops/api';
import { type Logger, pino } from 'pino';
import { type Clock, realClock } from '../clock/clock.js';
import type { InformerSyncError } from '../errors/informer-sync-error.js';
import { apiVersionOfDescriptor, type ResourceDescriptor } from '../kinds/resource-descriptor.js';
import type { RestMapper } from '../kinds/rest-mapper.js';
import { CacheOwnWrites, kindKeyOf } from './cache-own-writes.js';
import type { CacheListOptions, CacheReader, OwnWrite } from './cache-reader.js';
import { Informer, type InformerOptions, type InformerTransport } from './informer.js';
import { namespaceIndex, objectKey } from './informer-store.js';
import { OwnWrites } from './own-writes.js';
import { detectResourceVersionOrder, type ResourceVersionOrder } from './resource-version-order.js';

/** Informer settings an {@link InformerCache} applies to every informer it creates. */
export type InformerDefaults = Omit<
  InformerOptions,
  'transport' | 'descriptor' | 'namespace' | 'logger' | 'clock' | 'random'
>;

/** Settings of an {@link InformerCache}. */
export interface InformerCacheOptions {
  /** How informers reach the API server (usually a `KubeTransport`). */
  transport: InformerTransport;
  /** Resolves apiVersion and kind to a resource, for {@link InformerCache.informerFor}. */
  restMapper: RestMapper;
  /** Settings for every informer (page size, transform, silence timeout, backoff ...). */
  informerDefaults?: InformerDefaults;
  /** Where informers log (default: a silent pino logger). */
  logger?: Logger;
  /** Source of time for informers (default real time). */
  clock?: Clock;
  /** Source of randomness for informers (default `Math.random`). */
  random?: () => number;
  /**
   * Read-your-writes (default true): a read of an object this process wrote through the
   * client waits until the cache shows that write (see {@link InformerCache}). False turns
   * it off: reads answer at once with whatever the cache holds.
   */
  readYourWrites?: boolean;
  /**
   * How long a read waits for the cache to show this process's write before it is served by
   * the API server instead (default {@link defaultReadYourWritesTimeoutMs}).
   */
  readYourWritesTimeoutMs?: number;
  /**
   * How resourceVersions compare (default: detected from the server's `/version`, see
   * `resourceVersionOrderOf`): `comparable` lets a newer version show a write, `exact` only
   * the written one.
   */
  resourceVersionOrder?: ResourceVersionOrder;
}

/** Default {@link InformerCacheOptions.readYourWritesTimeoutMs}. */
export const defaultReadYourWritesTimeoutMs = 5_000;

/** Which informer: a resource and a namespace (`` or absent for all namespaces). */
export interface InformerScope {
  /** Restrict the informer to one namespace; ignored for cluster-scoped resources. */
  namespace?: string;
  /**
   * The kind's metadata-only informer (default false), apart from its informer of whole
   * objects: it holds `PartialObjectMetadata` (see `InformerOptions.metadataOnly`) and
   * serves {@link InformerCache.getMetadata} and {@link InformerCache.listMetadata}, never
   * {@link InformerCache.get} or {@link InformerCache.list}.
   */
  metadataOnly?: boolean;
  /**
   * Only objects whose labels match this selector (string form, e.g.
   * `shard.sharding.ops.dev/app=replica-1`): the informer lists and watches with it, so the
   * cache holds only those objects and reads of the kind see only them. A kind and namespace
   * has one informer of whole objects (and one of metadata): asking for it again with another
   * selector throws.
   */
  labelSelector?: string;
  /**
   * The server-side shard selector the informer starts with (a sharded ring's informers; the
   * ring changes it later with `Informer.setShardSelector`). Set only by the first call that
   * creates the informer.
   */
  shardSelector?: string;
}

/** The size of one informer, for the cache's object-count gauge. */
export interface InformerObjectCount {
  apiVersion: string;
  kind: string;
  /** `` for an informer of all namespaces or of a cluster-scoped kind. */
  namespace: string;
  /** Objects cached. */
  count: number;
  /** Whether the informer has synced. */
  synced: boolean;
}

/**
 * The shared informer cache: at most one {@link Informer} per apiVersion, kind and
 * namespace, however many controllers ask, started on first use, and the
 * {@link CacheReader} that serves the client's reads from them.
 *
 * Reading a kind: when the kind has an informer of all namespaces, reads use it; otherwise
 * they use the informers of single namespaces (a list without a namespace is their union).
 * A read of a namespace no informer covers throws rather than answering "nothing".
 *
 * Guarantees: {@link get} and {@link list} return deep copies (`structuredClone`) that the
 * caller may change; `has` is true only once every informer the kind's reads would use has
 * synced. After {@link stop}, every informer is stopped and no informer can be created.
 *
 * Read-your-writes (on by default): the client reports each write it makes of a kind this
 * cache holds ({@link recordWrite}); until an informer shows that write (the object at the
 * written resourceVersion, or at a newer one where resourceVersions are comparable; for a
 * delete, the object gone), {@link awaitOwnWrites} makes the client's reads of it wait, up
 * to `readYourWritesTimeoutMs`, after which the client reads from the API server. So a
 * read through the client never returns an object older than this process's own last write
 * of it. {@link isOwnWriteEvent} tells a controller that an event only shows its own write.
 */
export class InformerCache implements CacheReader {
  private readonly informersByKey = new Map<string, Informer>();
  /** Informer key → its label selector, for informers that have one. */
  private readonly selectors = new Map<string, string>();
  /** `apiVersion\nkind` → namespace → informer. */
  private readonly informersByKind = new Map<string, Map<string, Informer>>();
  private readonly log: Logger;
  private readonly ownWrites: OwnWrites | undefined;
  private readonly own: CacheOwnWrites | undefined;
  private stopped = false;

  constructor(private readonly options: InformerCacheOptions) {
    this.log = options.logger ?? pino({ level: 'silent' });
    if (options.readYourWrites !== false) {
      const order = options.resourceVersionOrder;
      this.ownWrites = new OwnWrites({
        clock: options.clock ?? realClock,
        timeoutMs: options.readYourWritesTimeoutMs ?? defaultReadYourWritesTimeoutMs,
        detectOrder: async () => {
          const detected = order ?? (await detectResourceVersionOrder(options.transport));
          this.log.info(
            { resourceVersionOrder: detected, detected: order === undefined },
            'read-your-writes compares resourceVersions',
          );
          return detected;
        },
      });
      this.own = new CacheOwnWrites(this.ownWrites, (apiVersion, kind, namespace, metadataOnly) => {
        const byNamespace = this.informersByKind.get(kindKeyOf(apiVersion, kind, metadataOnly));
        return byNamespace?.get('') ?? (namespace ? byNamespace?.get(namespace) : undefined);
      });
    }
  }

  /**
   * How read-your-writes compares resourceVersions: `comparable` or `exact`, undefined until
   * the first write was recorded and the server's version read (or when it is off).
   */
  get resourceVersionOrder(): ResourceVersionOrder | undefined {
    return this.ownWrites?.resourceVersionOrder;
  }

  /**
   * The shared informer of a resource (in one namespace, or all), created and started on
   * the first call; every later call with the same apiVersion, kind and namespace returns
   * the same instance.
   *
   * @throws {Error} after {@link stop}.
   */
  getInformer(descriptor: ResourceDescriptor, scope: InformerScope = {}): Informer {
    if (this.stopped) {
      throw new Error(
        `the informer cache was stopped; cannot start an informer for ${descriptor.kind}`,
      );
    }
    const apiVersion = apiVersionOfDescriptor(descriptor);
    const namespace = descriptor.namespaced ? (scope.namespace ?? '') : '';
    const metadataOnly = scope.metadataOnly === true;
    const key = informerKey(apiVersion, descriptor.kind, namespace, metadataOnly);
    let informer = this.informersByKey.get(key);
    const selector = scope.labelSelector ?? '';
    if (informer !== undefined && (this.selectors.get(key) ?? '') !== selectionOf(scope)) {
      throw new Error(
        `the cache already has an informer for ${descriptor.kind} (${apiVersion})${namespace ? ` in namespace "${namespace}"` : ''} with ${describeSelection(this.selectors.get(key) ?? '')}, not ${describeSelection(selectionOf(scope))}; a kind has one informer per namespace, so every watch of it must ask for the same selector (a sharded controller's kinds cannot also be watched unsharded by the same manager)`,
      );
    }
    if (informer === undefined) {
      informer = new Informer({
        ...this.options.informerDefaults,
        ...(metadataOnly ? { metadataOnly } : {}),
        ...(selector ? { labelSelector: selector } : {}),
        ...(scope.shardSelector ? { shardSelector: scope.shardSelector } : {}),
        transport: this.options.transport,
        descriptor,
        namespace,
        logger: this.log,
        clock: this.options.clock ?? realClock,
        ...(this.options.random ? { random: this.options.random } : {}),
      });
      this.informersByKey.set(key, informer);
      if (selectionOf(scope)) this.selectors.set(key, selectionOf(scope));
      const kindKey = kindKeyOf(apiVersion, descriptor.kind, metadataOnly);
      let byNamespace = this.informersByKind.get(kindKey);
      if (byNamespace === undefined) {
        byNamespace = new Map();
        this.informersByKind.set(kindKey, byNamespace);
      }
      byNamespace.set(namespace, informer);
      const ownWrites = this.ownWrites;
      // Each informer shows writes to the reads it serves (whole objects or metadata).
      if (ownWrites !== undefined) {
        const observe = (object: KubernetesObject, removed: boolean) =>
          ownWrites.observe(kindKey, objectKey(object), object, removed);
        informer.addEventHandler({
          onAdd: (object) => observe(object, false),
          onUpdate: (_old, object) => observe(object, false),
          onDelete: (object) => observe(object, true),
        });
      }
      informer.start();
    }
    return informer;
  }

  /**
   * {@link getInformer} for an apiVersion and kind, resolved by the RestMapper.
   *
   * Errors: rejects with the RestMapper's error when the kind is not served, and as
   * {@link getInformer} after {@link stop}.
   */
  async informerFor(
    apiVersion: string,
    kind: string,
    scope: InformerScope = {},
  ): Promise<Informer> {
    const key = informerKey(apiVersion, kind, scope.namespace ?? '', scope.metadataOnly === true);
    const existing = this.informersByKey.get(key);
    if (existing !== undefined && (this.selectors.get(key) ?? '') === selectionOf(scope))
      return existing;
    const descriptor = await this.options.restMapper.resourceFor(apiVersion, kind);
    return this.getInformer(descriptor, scope);
  }

  /**
   * Stops and forgets the informer of a resource and namespace (when its CRD is deleted,
   * for example); a later {@link getInformer} starts a new one. Resolves to whether there
   * was one, once it has stopped.
   */
  async removeInformer(
    descriptor: ResourceDescriptor,
    scope: InformerScope = {},
  ): Promise<boolean> {
    const apiVersion = apiVersionOfDescriptor(descriptor);
    const namespace = descriptor.namespaced ? (scope.namespace ?? '') : '';
    const metadataOnly = scope.metadataOnly === true;
    const key = informerKey(apiVersion, descriptor.kind, namespace, metadataOnly);
    const informer = this.informersByKey.get(key);
    if (informer === undefined) return false;
    this.informersByKey.delete(key);
    this.selectors.delete(key);
    const kindKey = kindKeyOf(apiVersion, descriptor.kind, metadataOnly);
    const byNamespace = this.informersByKind.get(kindKey);
    byNamespace?.delete(namespace);
    if (byNamespace?.size === 0) this.informersByKind.delete(kindKey);
    await informer.stop();
    return true;
  }

  /** Every informer of the cache. */
  informers(): Informer[] {
    return [...this.informersByKey.values()];
  }

  /**
   * Resolves once every informer created so far has synced.
   *
   * Errors: rejects with the {@link InformerSyncError} of the first informer that does not
   * sync within `timeoutMs` (it names the resource) or is stopped.
   */
  async waitForSync(timeoutMs: number): Promise<void> {
    await Promise.all(this.informers().map((informer) => informer.waitForSync(timeoutMs)));
  }

  /** The object count of every informer (for a Prometheus gauge). O(number of informers). */
  objectCounts(): InformerObjectCount[] {
    return this.informers().map((informer) => ({
      apiVersion: informer.apiVersion,
      kind: informer.descriptor.kind,
      namespace: informer.namespace,
      count: informer.objectCount(),
      synced: informer.hasSynced(),
    }));
  }

  /** Stops every informer and refuses new ones; resolves once all have stopped. Idempotent. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.informers().map((informer) => informer.stop()));
  }

  // ---- CacheReader ----------------------------------------------------------------------

  /**
   * Whether reads of the kind are served: true when its all-namespaces informer has synced,
   * or, without one, when it has informers of single namespaces and all have synced.
   */
  has(apiVersion: string, kind: string): boolean {
    return this.synced(kindKeyOf(apiVersion, kind, false));
  }

  private synced(kindKey: string): boolean {
    const byNamespace = this.informersByKind.get(kindKey);
    if (byNamespace === undefined || byNamespace.size === 0) return false;
    const all = byNamespace.get('');
    if (all !== undefined) return all.hasSynced();
    for (const informer of byNamespace.values()) if (!informer.hasSynced()) return false;
    return true;
  }

  /**
   * A deep copy of the cached object, or undefined when the cache does not hold it.
   *
   * @throws {Error} when no informer of the kind covers `namespace` (the answer "absent"
   *   would be a guess); start one with {@link getInformer} or {@link informerFor}.
   */
  get(
    apiVersion: string,
    kind: string,
    namespace: string | undefined,
    name: string,
  ): KubernetesObject | undefined {
    const informer = this.covering(apiVersion, kind, namespace ?? '');
    const object = informer.get(namespace, name);
    return object === undefined ? undefined : structuredClone(object);
  }

  /**
   * Deep copies of the cached objects of the kind that pass every filter given: namespace,
   * label selector and index (`namespace` is a built-in index).
   *
   * @throws {Error} when no informer of the kind covers the namespace asked for (or the kind
   *   has no informer at all), or when the index named does not exist.
   */
  list(apiVersion: string, kind: string, options: CacheListOptions = {}): KubernetesObject[] {
    return this.listOf(apiVersion, kind, options, false);
  }

  /**
   * Whether the kind's metadata-only informers serve reads, as {@link has} for whole objects.
   */
  hasMetadata(apiVersion: string, kind: string): boolean {
    return this.synced(kindKeyOf(apiVersion, kind, true));
  }

  /**
   * A deep copy of the object's `PartialObjectMetadata` from the kind's metadata-only
   * informer (`getInformer(descriptor, { metadataOnly: true })`), or undefined when it does
   * not hold it.
   *
   * @throws {Error} as {@link get}, when no metadata-only informer covers `namespace`.
   */
  getMetadata(
    apiVersion: string,
    kind: string,
    namespace: string | undefined,
    name: string,
  ): PartialObjectMetadata | undefined {
    const informer = this.covering(apiVersion, kind, namespace ?? '', true);
    const object = informer.get(namespace, name);
    return object === undefined ? undefined : (structuredClone(object) as PartialObjectMetadata);
  }

  /**
   * Deep copies of the `PartialObjectMetadata` of the kind's objects from its metadata-only
   * informers, filtered as {@link list} filters.
   *
   * @throws {Error} as {@link list}, for the metadata-only informers.
   */
  listMetadata(
    apiVersion: string,
    kind: string,
    options: CacheListOptions = {},
  ): PartialObjectMetadata[] {
    return this.listOf(apiVersion, kind, options, true) as PartialObjectMetadata[];
  }

  private listOf(
    apiVersion: string,
    kind: string,
    options: CacheListOptions,
    metadataOnly: boolean,
  ): KubernetesObject[] {
    const namespace = options.namespace || undefined;
    const informers = this.readersOf(apiVersion, kind, namespace, metadataOnly);
    const index = options.index;
    const selector = options.labelSelector;
    const out: KubernetesObject[] = [];
    for (const informer of informers) {
      let candidates: KubernetesObject[];
      if (index !== undefined && index.name !== namespaceIndex) {
        if (!informer.hasIndex(index.name)) {
          throw new Error(
            `the ${informer.description} informer has no index "${index.name}"; add it with informer.addIndex("${index.name}", fn) before listing by it`,
          );
        }
        candidates = informer.byIndex(index.name, index.value);
        if (namespace !== undefined && informer.descriptor.namespaced) {
          candidates = candidates.filter((o) => (o.metadata?.namespace ?? '') === namespace);
        }
      } else if (index !== undefined) {
        if (namespace !== undefined && namespace !== index.value) continue;
        candidates = informer.list({ namespace: index.value });
      } else {
        candidates = informer.list(namespace === undefined ? {} : { namespace });
      }
      for (const object of candidates) {
        if (selector !== undefined && !selector.matches(object.metadata?.labels)) continue;
        out.push(structuredClone(object));
      }
    }
    return out;
  }

  // ---- read-your-writes ----------------------------------------------------------------

  /**
   * Records a write of this process (the client calls it after each successful write) so
   * that reads wait for the cache to show it. Ignored when read-your-writes is off or no
   * informer of the kind covers the object's namespace.
   */
  recordWrite(write: OwnWrite): void {
    this.own?.recordWrite(write);
  }

  /** Notes a write about to be sent by `writer` (see {@link CacheReader.beginWrite}). */
  beginWrite(
    write: Pick<OwnWrite, 'apiVersion' | 'kind' | 'namespace' | 'name'> & { writer: string },
  ): (resourceVersion?: string) => void {
    return this.own?.beginWrite(write) ?? (() => undefined);
  }

  /**
   * When `writer` has writes of the event's `object` sent but not answered yet (the event
   * came first), resolves once they are answered to whether one of them wrote `object`'s
   * resourceVersion; undefined when it has none in flight (the manager tells a controller's
   * own write from an event that raced ahead of its answer with it).
   */
  ownWriteInFlight(
    writer: string,
    apiVersion: string,
    kind: string,
    object: KubernetesObject,
  ): Promise<boolean> | undefined {
    return this.own?.ownWriteInFlight(writer, apiVersion, kind, object);
  }

  /**
   * Resolves true once the cache shows this process's recorded writes of the object
   * (`name` given) or of the kind's objects in `namespace` (all namespaces when undefined):
   * its informers of whole objects, or with `metadataOnly` its metadata-only ones; at once
   * when none is pending; false when one is not shown within `readYourWritesTimeoutMs` (read
   * from the API server then). True when it is off.
   */
  async awaitOwnWrites(
    apiVersion: string,
    kind: string,
    namespace: string | undefined,
    name?: string,
    metadataOnly = false,
  ): Promise<boolean> {
    return this.own?.awaitOwnWrites(apiVersion, kind, namespace, name, metadataOnly) ?? true;
  }

  /**
   * Whether an event's `object` of the kind only shows a write that `writer` (a controller,
   * see `runAsWriter`) made itself, so the manager does not reconcile it again. Only valid
   * inside the informer's event handlers (the record is dropped once the event is handled).
   */
  isOwnWriteEvent(
    writer: string,
    apiVersion: string,
    kind: string,
    object: KubernetesObject,
  ): boolean {
    return this.own?.isOwnWriteEvent(writer, apiVersion, kind, object) ?? false;
  }

  /** The informer that holds `namespace` of the kind (its metadata-only one with `metadataOnly`). */
  private covering(
    apiVersion: string,
    kind: string,
    namespace: string,
    metadataOnly = false,
  ): Informer {
    const byNamespace = this.informersByKind.get(kindKeyOf(apiVersion, kind, metadataOnly));
    const informer = byNamespace?.get('') ?? (namespace ? byNamespace?.get(namespace) : undefined);
    if (informer === undefined)
      throw notCovered(apiVersion, kind, namespace, byNamespace, metadataOnly);
    return informer;
  }

  /** The informers a read of the kind (in `namespace`, or all) uses. */
  private readersOf(
    apiVersion: string,
    kind: string,
    namespace: string | undefined,
    metadataOnly: boolean,
  ): Informer[] {
    if (namespace !== undefined) return [this.covering(apiVersion, kind, namespace, metadataOnly)];
    const byNamespace = this.informersByKind.get(kindKeyOf(apiVersion, kind, metadataOnly));
    if (byNamespace === undefined || byNamespace.size === 0) {
      throw notCovered(apiVersion, kind, '', byNamespace, metadataOnly);
    }
    const all = byNamespace.get('');
    return all !== undefined ? [all] : [...byNamespace.values()];
  }
}

function informerKey(
  apiVersion: string,
  kind: string,
  namespace: string,
  metadataOnly: boolean,
): string {
  return `${kindKeyOf(apiVersion, kind, metadataOnly)}\n${namespace}`;
}

/** Why a read of the kind finds no informer covering the namespace, and what to do. */
function notCovered(
  apiVersion: string,
  kind: string,
  namespace: string,
  byNamespace: Map<string, Informer> | undefined,
  metadataOnly = false,
): Error {
  const what = metadataOnly ? 'metadata-only informer' : 'informer';
  if (byNamespace === undefined || byNamespace.size === 0) {
    return new Error(
      `the cache has no ${what} for ${kind} (${apiVersion}); start one with informerFor("${apiVersion}", "${kind}"${metadataOnly ? ', { metadataOnly: true }' : ''}) and wait for it to sync (${metadataOnly ? 'hasMetadata' : 'has'}() tells whether reads are served)`,
    );
  }
  return new Error(
    `the cache has no ${what} for ${kind} (${apiVersion}) covering namespace "${namespace}" (it watches namespaces ${[...byNamespace.keys()].map((n) => `"${n}"`).join(', ')}); start one for that namespace or for all namespaces`,
  );
}

/** Marks a selection that a server-side shard selector narrows (whatever the selector now). */
const sharded = '\u0000sharded';

/**
 * What an informer of `scope` selects, as one comparable string: its label selector, marked
 * when a server-side shard selector narrows it (the selector itself changes as its ring does).
 */
function selectionOf(scope: InformerScope): string {
  return (scope.labelSelector ?? '') + (scope.shardSelector !== undefined ? sharded : '');
}

/** {@link selectionOf}'s string in words, for an error message. */
function describeSelection(selection: string): string {
  const labels = selection.replace(sharded, '');
  return `label selector "${labels}"${selection.endsWith(sharded) ? ' and a server-side shard selector' : ''}`;
}
