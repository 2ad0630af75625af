/**
 * CEL validation rules (`x-kubernetes-validations`) of CRD schemas: compiled when a CRD is
 * written, evaluated on every write of its custom resources.
 */

export { compileValidationRules } from './compile-validation-rules.js';
export { crdValidationRuleErrors } from './crd-validation-rule-errors.js';
export { validateCelRules } from './validate-cel-rules.js';
export { validationRulesOf } from './validation-rules-of.js';
