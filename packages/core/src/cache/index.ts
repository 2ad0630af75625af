export { InformerRequestError } from '../errors/informer-request-error.js';
export { InformerSyncError, type InformerSyncErrorReason } from '../errors/informer-sync-error.js';
export {
  Backoff,
  type BackoffOptions,
  defaultBackoffInitialMs,
  defaultBackoffMaxMs,
  defaultBackoffResetAfterMs,
} from './backoff.js';
export type { CacheListOptions, CacheReader, OwnWrite } from './cache-reader.js';
export {
  defaultInformerPageSize,
  defaultMinWatchTimeoutSeconds,
  defaultSilentWatchTimeoutMs,
  type EventHandlerRegistration,
  Informer,
  type InformerEventHandlers,
  type InformerOptions,
  type InformerStats,
  type InformerTransport,
} from './informer.js';
export {
  defaultReadYourWritesTimeoutMs,
  InformerCache,
  type InformerCacheOptions,
  type InformerDefaults,
  type InformerObjectCount,
  type InformerScope,
} from './informer-cache.js';
export {
  type IndexFunc,
  InformerStore,
  namespaceIndex,
  objectKey,
  splitObjectKey,
} from './informer-store.js';
export {
  defaultWatchListBookmarkTimeoutMs,
  initialEventsEndAnnotation,
} from './informer-watch-list.js';
export {
  compareResourceVersions,
  detectResourceVersionOrder,
  firstComparableMinor,
  type ResourceVersionOrder,
  resourceVersionOrderOf,
} from './resource-version-order.js';
export { stripManagedFields, type TransformFunc } from './strip-managed-fields.js';
export { currentWriter, runAsWriter } from './write-origin.js';
