import type { KubernetesObject, PartialObjectMetadata, Selector } from '@ops/api';

/** Filters of a cached list. */
export interface CacheListOptions {
  /** Only objects in this namespace (all namespaces when absent). */
  namespace?: string;
  /** Only objects whose labels match. */
  labelSelector?: Selector;
  /** Only objects whose index `name` holds `value` (see the cache's field indexes). */
  index?: { name: string; value: string };
}

/** A write this process made through the client, as the client reports it to the cache. */
export interface OwnWrite {
  apiVersion: string;
  kind: string;
  /** `` for a cluster-scoped object. */
  namespace: string;
  name: string;
  /** The resourceVersion of the object as the write's answer gave it. */
  resourceVersion: string;
  /** Whether the write was a delete. */
  deleted: boolean;
  /** The controller whose reconcile made the write (see `runAsWriter`), if any. */
  writer?: string;
}

/**
 * Reads served from the shared informer cache. The client uses it for kinds that are cached,
 * so reconcilers read without calling the API server.
 *
 * Contract: objects returned are deep copies the caller may change; `has` is true only for
 * kinds whose informer has synced (a read before that would see a partial world).
 */
export interface CacheReader {
  has(apiVersion: string, kind: string): boolean;
  get(
    apiVersion: string,
    kind: string,
    namespace: string | undefined,
    name: string,
  ): KubernetesObject | undefined;
  list(apiVersion: string, kind: string, options?: CacheListOptions): KubernetesObject[];
  /**
   * Read-your-writes, optional: the client reports each of its writes of a cached kind, so
   * that reads can wait for the cache to show them.
   */
  recordWrite?(write: OwnWrite): void;
  /**
   * Read-your-writes, optional: the client reports a write it is about to send (its object
   * named, by a controller's reconcile), and calls the function returned with the answer's
   * resourceVersion (undefined when the write failed), so an event that shows the write
   * before its answer arrived can still be told to be the writer's own.
   */
  beginWrite?(
    write: Pick<OwnWrite, 'apiVersion' | 'kind' | 'namespace' | 'name'> & { writer: string },
  ): (resourceVersion?: string) => void;
  /**
   * Read-your-writes, optional: resolves true once the cache shows every write recorded for
   * the object `name` (or, without a name, for every object of the kind in `namespace`, or
   * in all namespaces when undefined); false when it does not within its bound, and the read
   * must go to the API server instead. With `metadataOnly`, the writes as the metadata reads
   * below would show them.
   */
  awaitOwnWrites?(
    apiVersion: string,
    kind: string,
    namespace: string | undefined,
    name?: string,
    metadataOnly?: boolean,
  ): Promise<boolean>;
  /**
   * Metadata reads, optional: whether the kind is cached metadata-only (its metadata-only
   * informers synced), so that {@link getMetadata} and {@link listMetadata} serve it.
   */
  hasMetadata?(apiVersion: string, kind: string): boolean;
  /** A copy of the object's `PartialObjectMetadata`, or undefined when it is not cached. */
  getMetadata?(
    apiVersion: string,
    kind: string,
    namespace: string | undefined,
    name: string,
  ): PartialObjectMetadata | undefined;
  /** Copies of the `PartialObjectMetadata` of the kind's cached objects that pass the filters. */
  listMetadata?(
    apiVersion: string,
    kind: string,
    options?: CacheListOptions,
  ): PartialObjectMetadata[];
}
