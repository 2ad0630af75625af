export type {
  CauseType as FieldErrorType,
  Status as AdmissionStatus,
  StatusCause as AdmissionStatusCause,
  StatusDetails as AdmissionStatusDetails,
  UserInfo,
} from '@ops/api';
export {
  WebhookCertificateError,
  type WebhookCertificateErrorReason,
} from '../errors/webhook-certificate-error.js';
export { WebhookDeclarationError } from '../errors/webhook-declaration-error.js';
export {
  WebhookServerError,
  type WebhookServerErrorReason,
} from '../errors/webhook-server-error.js';
export {
  CertWatcher,
  type CertWatcherOptions,
  type ServingCertificate,
} from '../tls/cert-watcher.js';
export {
  type AdmissionHandler,
  type AdmissionResult,
  admissionAllowed,
  admissionDenied,
  admissionErrored,
  admissionPatched,
  type JsonPatchOperation,
} from './admission-handler.js';
export {
  type AdmissionOperation,
  type AdmissionRequest,
  type AdmissionResponse,
  type AdmissionReview,
  admissionOperations,
  admissionReviewApiVersion,
  type GroupVersionKind,
  type GroupVersionResource,
} from './admission-review.js';
export {
  ConversionWebhook,
  conversionFailure,
  type ParsedConversionReview,
  parseConversionReview,
} from './conversion-webhook.js';
export { type FieldError, fieldErrorsToCauses, formatFieldErrors } from './field-error.js';
export { type Mutator, mutatingWebhook } from './mutating-webhook.js';
export { type ParsedAdmissionReview, parseAdmissionReview } from './parse-admission-review.js';
export {
  type ValidatingWebhookOptions,
  type Validator,
  validatingWebhook,
} from './validating-webhook.js';
export {
  checkWebhookDeclarations,
  defaultWebhookConfigurationNames,
  defaultWebhookService,
  defineWebhook,
  isWebhookDeclaration,
  type WebhookConfigurationObject,
  type WebhookConfigurationOptions,
  type WebhookDeclaration,
  type WebhookRule,
  type WebhookSpec,
  type WebhookType,
  webhookConfigurations,
} from './webhook-declaration.js';
export type { WebhookRequest } from './webhook-request.js';
export {
  defaultCertDir,
  defaultMaxRequestBytes,
  defaultWebhookPort,
  WebhookServer,
  type WebhookServerOptions,
} from './webhook-server.js';
