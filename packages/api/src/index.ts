export type { OperationType, RuleWithOperations, ScopeType } from './admissionregistration.js';
export type {
  ConversionWebhookClientConfig,
  CustomResourceConversion,
  CustomResourceDefinitionObject,
  CustomResourceDefinitionVersion,
  CustomResourceSubresources,
  JSONSchemaProps,
  PrinterColumn,
  PrinterColumnType,
  ScaleSubresource,
  SelectableField,
  ValidationRule,
} from './apiextensions.js';
export type { UserInfo } from './authentication.js';
export {
  type BuiltInConditionInput,
  type Condition,
  type ConditionInput,
  type ConditionStatus,
  type ConditionUpdate,
  findStatusCondition,
  formatRfc3339Seconds,
  isStatusConditionFalse,
  isStatusConditionPresentAndEqual,
  isStatusConditionTrue,
  type ObjectWithConditions,
  removeStatusCondition,
  type SetBuiltInConditionOptions,
  type SetStatusConditionOptions,
  setBuiltInCondition,
  setCondition,
  setStatusCondition,
  validateCondition,
  validateConditionReason,
  validateConditionType,
} from './conditions.js';
export {
  type ConversionRequest,
  type ConversionResponse,
  type ConversionReview,
  conversionReviewApiVersion,
} from './conversion-review.js';
export type { DeleteOptions, DeletionPropagation, Preconditions } from './delete-options.js';
export { ConditionError, type ConditionField } from './errors/condition-error.js';
export { FieldSelectorError } from './errors/field-selector-error.js';
export { LabelSelectorError } from './errors/label-selector-error.js';
export {
  OwnerReferenceError,
  type OwnerReferenceErrorReason,
} from './errors/owner-reference-error.js';
export { UnsupportedNodeError } from './errors/unsupported-node-error.js';
export {
  escapeFieldSelectorValue,
  type FieldRequirement,
  matchesFieldSelector,
  parseFieldSelector,
} from './field-selector.js';
export { isJsonObject, jsonEqual } from './json.js';
export type {
  KubernetesObject,
  LabelSelector,
  LabelSelectorRequirement,
  ObjectMeta,
  OwnerReference,
  PartialObjectMetadata,
} from './kubernetes-object.js';
export {
  createLabelRequirement,
  formatLabelRequirement,
  type LabelOperator,
  type LabelRequirement,
  matchesLabelRequirement,
} from './label-requirement.js';
export {
  labelSelectorFromObject,
  labelSelectorToString,
  matchesLabelSelector,
  Selector,
} from './label-selector.js';
export {
  getControllerOf,
  groupOf,
  hasOwnerReference,
  isControlledBy,
  removeOwnerReference,
  setControllerReference,
  setOwnerReference,
  type WithOwners,
} from './owner-reference.js';
export { parseLabelSelector } from './parse-label-selector.js';
export { type PatchType, patchContentTypes } from './patch-type.js';
export type { AggregationRule, ClusterRole, PolicyRule } from './rbac.js';
export type {
  CauseType,
  Status,
  StatusCause,
  StatusDetails,
  StatusReason,
} from './status.js';
export {
  validateDns1123Label,
  validateDns1123Subdomain,
  validateLabelValue,
  validateQualifiedName,
} from './validation.js';
export type { WatchEvent, WatchEventType } from './watch-event.js';
