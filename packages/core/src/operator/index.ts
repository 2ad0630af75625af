export { OperatorFlagError } from '../errors/operator-flag-error.js';
export {
  createCertificateAuthority,
  issueServingCertificate,
  type KeyPair,
} from '../tls/certificate-authority.js';
export { parseBindAddress } from './bind-address.js';
export { controllerKindsOf } from './controller-kinds-of.js';
export {
  certificateNamesOf,
  type OperatorContext,
  type OperatorDefinition,
} from './operator-definition.js';
export {
  type LogFormat,
  logFormats,
  logLevels,
  type OperatorFlags,
  operatorUsage,
  parseOperatorFlags,
  type WebhookCertMode,
} from './operator-flags.js';
export { type OperatorLoggerOptions, operatorLogger, resolveLogFormat } from './operator-logger.js';
export { type OperatorIo, runOperator } from './run-operator.js';
export {
  type SelfManagedCertificateRbac,
  selfManagedCertificateRbac,
  selfManagedCertificateRules,
} from './self-managed-certificate-rbac.js';
export {
  type SelfManagedCertificateNames,
  type SelfManagedCertificateOptions,
  SelfManagedCertificates,
} from './self-managed-certificates.js';
