/**
 * `@ops/core`: what an operator author writes an operator with. Define a custom resource
 * (`defineCustomResource`, TypeBox schemas and `ConditionsSchema`), a controller and its
 * reconciler (`Manager`, `Reconciler`, `withFinalizer`, `setCondition`), the entry point
 * (`runOperator`), the client (`Client` and its `Reader`, `Writer`, `StatusWriter` parts,
 * typed by `objectKind` and resource definitions), events, and the errors to catch.
 *
 * Everything else lives on a subpath named after its concept: `@ops/core/cache`, `/client`, `/clock`,
 * `/controller`, `/crd`, `/events`, `/health`, `/manager`, `/meta`, `/metrics`, `/operator`,
 * `/queue` and `/webhook` (see the package README). test/root-entry.test.ts pins this list.
 * The shared API types (object metadata, conditions, owner references, Status) are
 * `@ops/api`'s, re-exported.
 */

// First: refuses an unsupported Node.js before a dependency fails there obscurely.
import '@ops/api/require-supported-node';

export type {
  KubernetesObject,
  LabelSelector,
  ObjectMeta,
  OwnerReference,
  PatchType,
  PrinterColumn,
  Status,
  StatusCause,
  StatusDetails,
} from '@ops/api';
export {
  type Condition,
  ConditionError,
  type ConditionStatus,
  type ConditionUpdate,
  findStatusCondition,
  getControllerOf,
  isControlledBy,
  isStatusConditionFalse,
  isStatusConditionTrue,
  OwnerReferenceError,
  removeStatusCondition,
  setCondition,
  setControllerReference,
  setOwnerReference,
} from '@ops/api';
export {
  ignoreNotFound,
  isAlreadyExists,
  isConflict,
  isForbidden,
  isInvalid,
  isNotFound,
} from './client/api-error-helpers.js';
export {
  type ClusterRole,
  type ClusterRoleBinding,
  type ConfigMap,
  type CronJob,
  clusterRoleBindings,
  clusterRoles,
  configMaps,
  cronJobs,
  type DaemonSet,
  type Deployment,
  daemonSets,
  deployments,
  type EndpointSlice,
  type Endpoints,
  type Event,
  endpointSlices,
  endpoints,
  events,
  type HorizontalPodAutoscaler,
  horizontalPodAutoscalers,
  type Ingress,
  type IngressClass,
  ingressClasses,
  ingresses,
  type Job,
  jobs,
  type Lease,
  leases,
  type MutatingWebhookConfiguration,
  mutatingWebhookConfigurations,
  type Namespace,
  type NetworkPolicy,
  type Node,
  namespaces,
  networkPolicies,
  nodes,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type Pod,
  type PodDisruptionBudget,
  persistentVolumeClaims,
  persistentVolumes,
  podDisruptionBudgets,
  pods,
  type ReplicaSet,
  type Role,
  type RoleBinding,
  replicaSets,
  roleBindings,
  roles,
  type Secret,
  type Service,
  type ServiceAccount,
  type StatefulSet,
  type StorageClass,
  secrets,
  serviceAccounts,
  services,
  statefulSets,
  storageClasses,
  type ValidatingWebhookConfiguration,
  validatingWebhookConfigurations,
} from './client/built-in-kinds.js';
export {
  type CallOptions,
  Client,
  type ClientDeleteOptions,
  type ClientOptions,
  type DeleteOptions,
  type ListOptions,
  type ObjectList,
  type ObjectRef,
  type PatchOptions,
  type WriteOptions,
} from './client/client.js';
export { createOrUpdate, type OperationResult } from './client/create-or-update.js';
export { loadKubeConfig } from './client/load-kube-config.js';
export type { Reader } from './client/reader.js';
export { retryOnConflict } from './client/retry-on-conflict.js';
export type { StatusWriter } from './client/status-writer.js';
export type { Writer } from './client/writer.js';
export type { ControllerBuilder } from './controller/controller-builder.js';
export type { Predicate } from './controller/predicates.js';
export type {
  ReconcileContext,
  Reconciler,
  Request,
  Result,
} from './controller/reconcile.js';
export { type FinalizerHandlers, withFinalizer } from './controller/with-finalizer.js';
export {
  type CustomResource,
  type CustomResourceDefinition,
  type CustomResourceOptions,
  defineCustomResource,
} from './crd/custom-resource.js';
export {
  EmbeddedResource,
  IntOrString,
  PreserveUnknownFields,
  type TEmbeddedResource,
  type TIntOrString,
  type TUnknownObject,
} from './crd/kubernetes-schema-types.js';
export {
  type KindResource,
  type ObjectKind,
  type ObjectOf,
  objectKind,
  type ResourceKind,
} from './crd/object-kind.js';
export type { PolicyRule } from './crd/policy-rule.js';
export { ApiError, type ApiErrorReason } from './errors/api-error.js';
export { FinalizerError, type FinalizerErrorReason } from './errors/finalizer-error.js';
export { TerminalError } from './errors/terminal-error.js';
export type { EventType } from './events/core-event.js';
export type { EventRecorder } from './events/event-recorder.js';
export { Manager, type ManagerOptions } from './manager/manager.js';
export { ConditionSchema, ConditionsSchema } from './meta/condition-schema.js';
export { addFinalizer, hasFinalizer, removeFinalizer } from './meta/finalizers.js';
export type { OperatorContext, OperatorDefinition } from './operator/operator-definition.js';
export { runOperator } from './operator/run-operator.js';
