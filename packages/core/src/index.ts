export { LabelSelectorError } from './errors/label-selector-error.js';
export {
  OwnerReferenceError,
  type OwnerReferenceErrorReason,
} from './errors/owner-reference-error.js';
export type {
  KubernetesObject,
  LabelSelector,
  LabelSelectorRequirement,
  ObjectMeta,
  OwnerReference,
} from './meta/kubernetes-object.js';
export {
  createLabelRequirement,
  formatLabelRequirement,
  type LabelOperator,
  type LabelRequirement,
  matchesLabelRequirement,
} from './meta/label-requirement.js';
export {
  labelSelectorFromObject,
  labelSelectorToString,
  matchesLabelSelector,
  Selector,
} from './meta/label-selector.js';
export {
  getControllerOf,
  groupOf,
  hasOwnerReference,
  isControlledBy,
  removeOwnerReference,
  setControllerReference,
  setOwnerReference,
  type WithOwners,
} from './meta/owner-reference.js';
export { parseLabelSelector } from './meta/parse-label-selector.js';
export {
  validateDns1123Label,
  validateDns1123Subdomain,
  validateLabelValue,
  validateQualifiedName,
} from './meta/validation.js';
export * from './queue/index.js';
export * from './webhook/index.js';
