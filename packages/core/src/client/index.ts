export type { Status, StatusCause, StatusDetails } from '@ops/api';
// Declared in @ops/api; exported here as before, the comparison createOrUpdate makes.
// Declared in @ops/api; exported here as before.
export {
  type FieldRequirement,
  jsonEqual,
  matchesFieldSelector,
  type PatchType,
  parseFieldSelector,
  patchContentTypes,
} from '@ops/api';
export {
  type KindResource,
  type ObjectKind,
  type ObjectOf,
  objectKind,
  type ResourceKind,
} from '../crd/object-kind.js';
export { ApiError, type ApiErrorReason } from '../errors/api-error.js';
export { BodyTooLongError } from '../errors/body-too-long-error.js';
export { KubeConfigError, type KubeConfigErrorReason } from '../errors/kube-config-error.js';
export { NoKindMatchError } from '../errors/no-kind-match-error.js';
export {
  apiVersionOfDescriptor,
  parseApiVersion,
  type ResourceDescriptor,
  resourcePath,
} from '../kinds/resource-descriptor.js';
export type { RestMapper } from '../kinds/rest-mapper.js';
export {
  KubeTransport,
  parseBody,
  type TransportRequest,
  type TransportResponse,
  type WatchConnection,
  type WatchHandlers,
} from '../transport/kube-transport.js';
export {
  type ApiRequestContext,
  apiErrorFromFailure,
  apiErrorFromResponse,
  reasonForCode,
  unexpectedResponseError,
} from './api-error-from-response.js';
export {
  ignoreNotFound,
  isAlreadyExists,
  isConflict,
  isConnectionFailed,
  isForbidden,
  isGone,
  isInvalid,
  isNotFound,
  isTooManyRequests,
  isUnauthorized,
} from './api-error-helpers.js';
export * from './built-in-kinds.js';
export {
  type CallOptions,
  Client,
  type ClientDeleteOptions,
  type ClientOptions,
  type ClientRequestInfo,
  type ClientVerb,
  type DeleteAllOfOptions,
  type DeleteOptions,
  type ListOptions,
  type ObjectList,
  type ObjectRef,
  type PatchOptions,
  type WriteOptions,
} from './client.js';
export {
  type CreateOrUpdateClient,
  createOrUpdate,
  type OperationResult,
} from './create-or-update.js';
export { DiscoveryRestMapper } from './discovery-rest-mapper.js';
export {
  type FieldSelectorInput,
  fieldSelectorRequirements,
  fieldSelectorToString,
} from './field-selector.js';
export {
  defaultServiceAccountDir,
  type LoadKubeConfigOptions,
  loadKubeConfig,
} from './load-kube-config.js';
export type { Reader } from './reader.js';
export {
  defaultRetry,
  type RetryBackoff,
  type RetryOptions,
  retryOnConflict,
  retryOnError,
} from './retry-on-conflict.js';
export type { StatusWriter } from './status-writer.js';
export {
  type MigrateStorageVersionOptions,
  migrateStorageVersion,
  type StorageVersionMigrationMethod,
  type StorageVersionMigrationResult,
} from './storage-version-migration.js';
export type { Writer } from './writer.js';
