export type {
  CauseType as FieldErrorType,
  CustomResourceDefinitionObject as CustomResourceDefinition,
  StatusCause,
} from '@ops/api';
export type { Admission, AdmissionAttributes } from './admission/admission.js';
export {
  type FieldError,
  formatFieldError,
} from './api/field-error.js';
export {
  type ResourceRef,
  type Status,
  type StatusDetails,
  StatusError,
  type StatusReason,
} from './api/status-error.js';
export type { AuthenticatedUser, UserInfo } from './auth/index.js';
export {
  type ClusterOptions,
  defaultPodRunDuration,
  parsePodExitCode,
  parsePodRunDuration,
  podExitCodeAnnotation,
  podRunDurationAnnotation,
  SimulatedCluster,
} from './cluster/index.js';
export { ConversionError } from './conversion/conversion-error.js';
export { decodeKubernetesProtobuf, isProtobufContentType } from './protobuf/index.js';
export type { ConversionWebhook, PrinterColumn, ResourceType } from './registry/resource-type.js';
export { ApiServer, type ApiServerOptions } from './server/api-server.js';
export type { FaultRule } from './server/control/faults.js';
export { PortInUseError } from './server/control/port-in-use-error.js';
export { loadServerState, type ServerState, stateFiles } from './server/control/state-directory.js';
export { defaultWatchBufferBytes } from './server/handlers/watch-response.js';
export { maxWatchTimeoutSeconds } from './server/handlers/watch-timeout.js';
export { createServingCertificates, type ServingCertificates } from './tls/certificates.js';
