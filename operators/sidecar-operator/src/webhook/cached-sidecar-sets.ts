import type { InformerCache } from '@ops/core/cache';
import type { SidecarSet } from '../api/v1alpha1/sidecar-set.js';
import { sidecarSetResource } from '../api/v1alpha1/sidecar-set.js';

/** Where the Pod webhook reads SidecarSets from. */
export interface SidecarSetLister {
  /**
   * Every SidecarSet, as cached: shared objects the caller must not change.
   *
   * @throws {Error} when the SidecarSets cannot be read now (the webhook then fails the
   *   admission, and its failurePolicy decides).
   */
  list(): Promise<readonly SidecarSet[]>;
}

/** How long {@link CachedSidecarSets.list} waits for a cache that has not synced yet. */
export const defaultSyncWaitMs = 2_000;

/**
 * The SidecarSets of the manager's shared informer cache, for the Pod webhook: the webhook
 * answers from memory and never calls the API server while a Pod is being admitted. The
 * informer is the one the controller's `.for(SidecarSet)` uses (one list + watch per
 * process), started by {@link bind}, so the webhook also works on replicas that are not the
 * leader.
 */
export class CachedSidecarSets implements SidecarSetLister {
  private cache: Pick<InformerCache, 'getInformer'> | undefined;

  constructor(private readonly syncWaitMs = defaultSyncWaitMs) {}

  /** Reads from `cache` from now on (the operator's setup calls it with the manager's). */
  bind(cache: Pick<InformerCache, 'getInformer'>): void {
    this.cache = cache;
  }

  /**
   * The cached SidecarSets. Before the informer has synced it waits up to `syncWaitMs` (a
   * Pod admitted right after a start must not miss its sidecars because the cache was still
   * empty), then fails.
   *
   * @throws {Error} before {@link bind}, or when the cache does not sync in time.
   */
  async list(): Promise<readonly SidecarSet[]> {
    if (this.cache === undefined)
      throw new Error(
        'the SidecarSet cache is not bound: call bind(manager.cache) in the operator setup before serving the Pod webhook',
      );
    const informer = this.cache.getInformer(sidecarSetResource.descriptor);
    if (!informer.hasSynced()) await informer.waitForSync(this.syncWaitMs);
    return informer.list() as SidecarSet[];
  }
}
