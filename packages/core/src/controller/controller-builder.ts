import type { KubernetesObject, PartialObjectMetadata } from '@ops/api';
import type { Informer } from '../cache/informer.js';
import type { ObjectOf } from '../crd/object-kind.js';
import type { ControllerKinds, KindRef } from '../crd/owner-reference-permissions.js';
import type { RateLimiter } from '../queue/rate-limiter.js';
import type { Controller, ControllerOptions } from './controller.js';
import {
  type EventHandler,
  enqueueForObject,
  enqueueForOwner,
  enqueueMapped,
} from './event-handlers.js';
import type { Predicate } from './predicates.js';
import type { Reconciler, Request } from './reconcile.js';

/** One watched kind of a controller: where events come from and how they map to requests. */
export interface WatchSpec {
  kind: KindRef;
  handler: EventHandler;
  predicates: Predicate[];
  /** Restrict the watch to one namespace (default: the manager's cache scope). */
  namespace?: string;
  /** Watch metadata only (`OnlyMetadata`): the kind's metadata-only informer. */
  onlyMetadata?: boolean;
  /** What declared the watch: `for()`, `owns()` or `watches()`. */
  source?: 'for' | 'owns' | 'watches';
  /** Only objects matching this label selector (a sharded controller's share). */
  labelSelector?: string;
  /**
   * The sharding ring that picks this watch's selector when the manager starts (a controller
   * sharded `by: 'namespace'`: a server-side shard selector, or the shard label).
   */
  shardedBy?: string;
}

/** What the builder needs from the manager. */
export interface ControllerHost {
  /** The shared informer of a kind (started on first use). */
  informerFor(
    apiVersion: string,
    kind: string,
    scope?: { namespace?: string; metadataOnly?: boolean; labelSelector?: string },
  ): Promise<Informer>;
  /**
   * Creates the controller with the manager's metrics and logger, and registers it; `kinds`
   * records what it was built from (for `Manager.controllerKinds`).
   */
  registerController(
    options: Omit<ControllerOptions, 'metrics' | 'workqueueMetrics' | 'logger'>,
    watches: WatchSpec[],
    kinds: ControllerKinds,
    sharding?: ShardingOptions,
  ): Controller;
}

/**
 * Sharding of one controller across the replicas of an operator (see the README's
 * "Sharding"): each replica holds a Lease in the ring, objects of the `for` kind are assigned
 * to replicas by consistent hashing through a label, and each replica watches, caches and
 * reconciles only its own objects and their children.
 */
export interface ShardingOptions {
  /**
   * The ring's name (default: the controller's name): a DNS label of at most 50
   * characters; it names the Leases (`<ring>-<identity>`, `<ring>-sharder`) and the labels
   * (`shard.sharding.ops.dev/<ring>`, `drain.sharding.ops.dev/<ring>`).
   */
  ring?: string;
  /**
   * What objects are hashed by (default `name`):
   * - `name`: their namespace and name. The ring's sharder assigns each object (and its
   *   children) through the shard label, with a drain handshake per moved object.
   * - `namespace`: their namespace, so a namespace's objects, children included, share a
   *   replica (spread the objects over namespaces, or one replica does all the work; the
   *   `for()` kind must be namespaced). Where the API server filters lists and watches by
   *   server-side shard selectors (KEP-5866: kube-apiserver 1.36+ with the
   *   `ShardedListAndWatch` feature gate, detected when the manager starts), each replica's
   *   informers select its hash ranges there and no object is labelled: a membership change
   *   moves ranges, in generations every live replica acknowledges first. Elsewhere the
   *   labels, as with `name`.
   */
  by?: 'name' | 'namespace';
}

/** Options of {@link ControllerBuilder.withOptions}: see {@link ControllerOptions}. */
export interface BuilderOptions {
  maxConcurrentReconciles?: number;
  rateLimiter?: RateLimiter<string>;
  /** Default true: the priority queue; false: the FIFO queue. */
  usePriorityQueue?: boolean;
  /** controller-runtime's `ReconciliationTimeout`, in milliseconds (default: none). */
  reconciliationTimeoutMs?: number;
  /**
   * Shard this controller across the operator's replicas (default: not sharded, every
   * replica that runs controllers reconciles every object); see {@link ShardingOptions}.
   */
  sharding?: ShardingOptions;
}

/**
 * The predicates of one watched kind, typed for its objects, as the controller holds them
 * (for any object): the watch of a kind only delivers objects of that kind, so each predicate
 * only ever sees the type it declared.
 */
function anyObjectPredicates<T extends KubernetesObject>(
  predicates: Predicate<T>[] | undefined,
): Predicate[] {
  return (predicates ?? []) as Predicate[];
}

/**
 * Builds a controller the way controller-runtime's builder does:
 *
 * ```ts
 * manager.controller('application')
 *   .for(Application, { predicates: [generationChanged] })
 *   .owns(deployments)
 *   .watches(configMaps, (configMap) => [...])
 *   .withOptions({ maxConcurrentReconciles: 4 })
 *   .complete(reconcile);
 * ```
 *
 * `for` is required and names the reconciled kind; `owns` enqueues the controlling owner of
 * the owned kind's objects; `watches` enqueues whatever the map function returns. A kind is
 * any `{ apiVersion, kind }`; a typed one (a built-in kind such as `deployments`, a
 * `defineCustomResource` definition, an `objectKind<T>`) types the objects its predicates and
 * map function receive (`ObjectOf<kind>`), an untyped one gives them as `KubernetesObject`.
 *
 * @throws {Error} from `complete` when `for` was not called, or called twice.
 */
export class ControllerBuilder {
  private forKind: WatchSpec | undefined;
  private readonly watched: WatchSpec[] = [];
  /** Owned kinds: their handler needs the `for` kind, known only at `complete`. */
  private readonly owned: Array<{
    kind: KindRef;
    predicates: Predicate[];
    onlyController: boolean;
    onlyMetadata: boolean;
  }> = [];
  private options: BuilderOptions = {};

  constructor(
    private readonly host: ControllerHost,
    private name?: string,
  ) {}

  /** The kind this controller reconciles; each of its events enqueues the object itself. */
  for<K extends KindRef>(
    kind: K,
    options: { predicates?: Predicate<ObjectOf<K>>[]; namespace?: string } = {},
  ): this {
    if (this.forKind !== undefined)
      throw new Error(
        `for() was already called with ${this.forKind.kind.kind}; a controller reconciles one kind`,
      );
    this.forKind = {
      kind: { apiVersion: kind.apiVersion, kind: kind.kind },
      handler: enqueueForObject,
      source: 'for',
      predicates: anyObjectPredicates(options.predicates),
      ...(options.namespace ? { namespace: options.namespace } : {}),
    };
    return this;
  }

  /**
   * A kind this controller creates and owns (controller owner references): its events
   * enqueue the owning object of the `for` kind. With `onlyMetadata: true` (controller-runtime's
   * `builder.OnlyMetadata`) the kind is watched by metadata only: its objects are cached as
   * `PartialObjectMetadata` (read them with `cache.getMetadata` / `listMetadata`), for a
   * fraction of the memory; predicates then see `PartialObjectMetadata`.
   */
  owns<K extends KindRef>(
    kind: K,
    options: {
      predicates?: Predicate<ObjectOf<K>>[];
      onlyController?: boolean;
      onlyMetadata?: false;
    },
  ): this;
  owns<K extends KindRef>(
    kind: K,
    options: {
      predicates?: Predicate<PartialObjectMetadata>[];
      onlyController?: boolean;
      onlyMetadata: true;
    },
  ): this;
  owns<K extends KindRef>(kind: K): this;
  owns<K extends KindRef>(
    kind: K,
    options: {
      predicates?: Predicate<ObjectOf<K>>[] | Predicate<PartialObjectMetadata>[];
      onlyController?: boolean;
      onlyMetadata?: boolean;
    } = {},
  ): this {
    this.owned.push({
      kind: { apiVersion: kind.apiVersion, kind: kind.kind },
      predicates: (options.predicates ?? []) as Predicate[],
      onlyController: options.onlyController ?? true,
      onlyMetadata: options.onlyMetadata === true,
    });
    return this;
  }

  /**
   * Any other kind: `map` turns each of its objects into the requests to reconcile. With
   * `onlyMetadata: true` the kind is watched by metadata only (see {@link owns}) and `map`
   * and the predicates receive `PartialObjectMetadata`.
   */
  watches<K extends KindRef>(
    kind: K,
    map: (object: ObjectOf<K>) => Request[],
    options?: { predicates?: Predicate<ObjectOf<K>>[]; namespace?: string; onlyMetadata?: false },
  ): this;
  watches<K extends KindRef>(
    kind: K,
    map: (object: PartialObjectMetadata) => Request[],
    options: {
      predicates?: Predicate<PartialObjectMetadata>[];
      namespace?: string;
      onlyMetadata: true;
    },
  ): this;
  watches<K extends KindRef>(
    kind: K,
    map: ((object: ObjectOf<K>) => Request[]) | ((object: PartialObjectMetadata) => Request[]),
    options: {
      predicates?: Predicate<ObjectOf<K>>[] | Predicate<PartialObjectMetadata>[];
      namespace?: string;
      onlyMetadata?: boolean;
    } = {},
  ): this {
    this.watched.push({
      kind: { apiVersion: kind.apiVersion, kind: kind.kind },
      // The watch of `kind` only delivers objects of `kind` (or their metadata, with
      // onlyMetadata): the map sees what it declared.
      handler: enqueueMapped(map as (object: KubernetesObject) => Request[]),
      source: 'watches',
      predicates: (options.predicates ?? []) as Predicate[],
      ...(options.namespace ? { namespace: options.namespace } : {}),
      ...(options.onlyMetadata ? { onlyMetadata: true } : {}),
    });
    return this;
  }

  /** Names the controller (default: the lower-cased kind of `for`). */
  named(name: string): this {
    this.name = name;
    return this;
  }

  withOptions(options: BuilderOptions): this {
    this.options = { ...this.options, ...options };
    return this;
  }

  /** Creates the controller and registers it with the manager; it starts with the manager. */
  complete(reconciler: Reconciler): Controller {
    const primary = this.forKind;
    if (primary === undefined)
      throw new Error(
        'call for(kind) before complete(): a controller must name the kind it reconciles',
      );
    const owned: WatchSpec[] = this.owned.map((entry) => ({
      kind: entry.kind,
      ...(entry.onlyMetadata ? { onlyMetadata: true } : {}),
      source: 'owns' as const,
      predicates: entry.predicates,
      handler: enqueueForOwner(primary.kind.apiVersion, primary.kind.kind, {
        onlyController: entry.onlyController,
      }),
    }));
    const watches = [...owned, ...this.watched];
    const name = this.name ?? primary.kind.kind.toLowerCase();
    return this.host.registerController(
      {
        name,
        reconciler,
        ...(this.options.maxConcurrentReconciles !== undefined
          ? { maxConcurrentReconciles: this.options.maxConcurrentReconciles }
          : {}),
        ...(this.options.rateLimiter !== undefined
          ? { rateLimiter: this.options.rateLimiter }
          : {}),
        ...(this.options.usePriorityQueue !== undefined
          ? { usePriorityQueue: this.options.usePriorityQueue }
          : {}),
        ...(this.options.reconciliationTimeoutMs !== undefined
          ? { reconciliationTimeoutMs: this.options.reconciliationTimeoutMs }
          : {}),
      },
      [primary, ...watches],
      {
        name,
        for: { ...primary.kind },
        owns: this.owned.map((entry) => ({
          kind: { ...entry.kind },
          onlyController: entry.onlyController,
        })),
      },
      this.options.sharding,
    );
  }
}
