import { isJsonObject, jsonEqual } from '@ops/api';
import type { FieldError } from '../../api/field-error.js';
import { validationRulesOf } from './validation-rules-of.js';

/**
 * The errors that make kube-apiserver reject a CRD for its versions' CEL rules (compilation
 * errors, non-bool rules, bad `messageExpression`, `fieldPath`, `reason`, `optionalOldSelf`),
 * at kube-apiserver's paths: `spec.validation.openAPIV3Schema...` when every version has the
 * same schema (kube-apiserver validates its internal CRD, where such a schema is hoisted to
 * `spec.validation`), else `spec.versions[i].schema.openAPIV3Schema...`. Never throws;
 * malformed versions are left to the CRD's other checks.
 */
export function crdValidationRuleErrors(versions: readonly unknown[]): FieldError[] {
  const schemas = versions.map((version) =>
    isJsonObject(version) &&
    isJsonObject(version.schema) &&
    isJsonObject(version.schema.openAPIV3Schema)
      ? version.schema.openAPIV3Schema
      : undefined,
  );
  const first = schemas[0];
  const shared = first !== undefined && schemas.every((schema) => jsonEqual(schema, first));
  const errors: FieldError[] = [];
  schemas.forEach((schema, index) => {
    if (schema === undefined || (shared && index > 0)) return;
    const at = shared
      ? 'spec.validation.openAPIV3Schema'
      : `spec.versions[${index}].schema.openAPIV3Schema`;
    for (const { within, ...problem } of validationRulesOf(schema).problems) {
      const detail =
        within === undefined
          ? problem.detail
          : `oldSelf cannot be used on the uncorrelatable portion of the schema within ${at}.${within}`;
      errors.push({ ...problem, field: `${at}.${problem.field}`, ...(detail ? { detail } : {}) });
    }
  });
  return errors;
}
