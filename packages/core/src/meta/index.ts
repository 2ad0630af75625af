export { ConditionError, type ConditionField } from '../errors/condition-error.js';
export { FinalizerError, type FinalizerErrorReason } from '../errors/finalizer-error.js';
export { LabelSelectorError } from '../errors/label-selector-error.js';
export {
  OwnerReferenceError,
  type OwnerReferenceErrorReason,
} from '../errors/owner-reference-error.js';
export { type ConditionObject, ConditionSchema, ConditionsSchema } from './condition-schema.js';
export {
  type Condition,
  type ConditionInput,
  type ConditionStatus,
  findStatusCondition,
  formatRfc3339Seconds,
  isStatusConditionFalse,
  isStatusConditionPresentAndEqual,
  isStatusConditionTrue,
  removeStatusCondition,
  type SetStatusConditionOptions,
  setStatusCondition,
  validateCondition,
  validateConditionReason,
  validateConditionType,
} from './conditions.js';
export {
  addFinalizer,
  addFinalizerPatch,
  checkFinalizerName,
  type FinalizerPatchOperation,
  type FinalizerPatchOptions,
  hasFinalizer,
  removeFinalizer,
  removeFinalizerPatch,
  validateFinalizerName,
} from './finalizers.js';
export type {
  KubernetesObject,
  LabelSelector,
  LabelSelectorRequirement,
  ObjectMeta,
  OwnerReference,
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
export { type ConditionUpdate, type ObjectWithConditions, setCondition } from './set-condition.js';
export {
  validateDns1123Label,
  validateDns1123Subdomain,
  validateLabelValue,
  validateQualifiedName,
} from './validation.js';
