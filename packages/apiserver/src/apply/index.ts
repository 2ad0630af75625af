/**
 * Server-side apply and managed fields, as kube-apiserver keeps them: field sets and their
 * fieldsV1 encoding, the structured merge of an applied configuration over the schema's list
 * and map types, ownership on every write and conflicts between managers.
 */

export { checkAppliedConfiguration } from './applied-configuration.js';
export { applyConflictError, type FieldConflict } from './apply-conflict.js';
export { type Comparison, compareValues } from './compare-values.js';
export { emptyObjectOf } from './empty-object.js';
export {
  type AppliedConfiguration,
  applyConfiguration,
  type FieldManagerScope,
  updateManagedFields,
} from './field-manager.js';
export { type FieldPath, FieldSet, formatFieldPath, type PathElement } from './field-set.js';
export {
  type ApplyListType,
  type ApplyMapType,
  customResourceType,
  type FieldType,
  fieldTypeFromSchema,
  fieldTypeFromStrategicSchema,
  objectMetaType,
} from './field-type.js';
export {
  conflictsAllowedByLastApplied,
  kubectlManager,
  lastAppliedAnnotation,
  withLastApplied,
} from './last-applied.js';
export { listItemElement } from './list-item-element.js';
export { ListItemError } from './list-item-error.js';
export {
  decodeManagedFields,
  encodeManagedFields,
  type ManagedFieldsEntry,
  type ManagerEntry,
  managerKey,
} from './managed-fields.js';
export { managerName, type WriterIdentity } from './manager-name.js';
export { mergeValues } from './merge-values.js';
export { patchOptionsInvalid } from './patch-options-invalid.js';
export { pruneAppliedFields } from './prune-applied-fields.js';
export {
  applyToObject,
  fieldTypeOf,
  managedFieldsOnWrite,
  type WriteScope,
  writeScopeOf,
} from './resource-field-manager.js';
export { serverSetFieldsOf } from './server-set-fields.js';
export { toFieldSet } from './to-field-set.js';
