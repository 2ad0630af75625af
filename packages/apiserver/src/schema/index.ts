/**
 * The CRD structural-schema module of the local API server: what kube-apiserver's
 * apiextensions code does to custom resources and to the schemas of CRD versions. Pure
 * functions over plain JSON; nothing here performs I/O or throws on bad input.
 *
 * The order kube-apiserver applies them to an incoming custom resource:
 * `pruneUnknownFields` → `dropNullsForNonNullable` → `applyDefaults` → `validateCustomResource`
 * → `validateCelRules` (with `validationRulesOf` the schema's compiled CEL rules).
 */

export type { JSONSchemaProps, ValidationRule } from '@ops/api';
export { applyDefaults } from './apply-defaults.js';
export {
  compileValidationRules,
  crdValidationRuleErrors,
  validateCelRules,
  validationRulesOf,
} from './cel/index.js';
export { dropNullsForNonNullable } from './drop-nulls.js';
export { validateEmbeddedResources } from './embedded-resources.js';
export { validateListTypes } from './list-types.js';
export { pruneUnknownFields } from './prune-unknown-fields.js';
export { validateCustomResource } from './validate-custom-resource.js';
export { validateStructuralSchema } from './validate-structural-schema.js';
