import type { KubernetesObject, Selector } from '@ops/api';

/** Filters of a cached list. */
export interface CacheListOptions {
  /** Only objects in this namespace (all namespaces when absent). */
  namespace?: string;
  /** Only objects whose labels match. */
  labelSelector?: Selector;
  /** Only objects whose index `name` holds `value` (see the cache's field indexes). */
  index?: { name: string; value: string };
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
}
