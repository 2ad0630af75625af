import type { JSONSchemaProps } from '@ops/api';
import {
  type CompiledValidationRules,
  compileValidationRules,
} from './compile-validation-rules.js';

const compiled = new WeakMap<JSONSchemaProps, CompiledValidationRules>();

/**
 * The compiled rules of `schema`, compiled on first use and kept as long as the schema object
 * lives (a registered CRD version keeps its schema object until the CRD changes), so requests
 * pay for evaluation only. A memo, not configuration: it holds nothing but compiled copies.
 */
export function validationRulesOf(schema: JSONSchemaProps): CompiledValidationRules {
  let rules = compiled.get(schema);
  if (rules === undefined) {
    rules = compileValidationRules(schema);
    compiled.set(schema, rules);
  }
  return rules;
}
