import {
  type ObjectMeta,
  validateDns1123Label,
  validateDns1123Subdomain,
  validateLabelValue,
  validateQualifiedName,
} from '@ops/api';
import type { FieldError } from '../api/field-error.js';
import type { ResourceType } from '../registry/resource-type.js';

const nameAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

/** The random suffix kube-apiserver appends to `generateName` (5 characters). */
export function generateNameSuffix(random: () => number = Math.random): string {
  let suffix = '';
  for (let i = 0; i < 5; i++)
    suffix += nameAlphabet.charAt(Math.floor(random() * nameAlphabet.length));
  return suffix;
}

/** Kinds whose names must be DNS-1123 labels rather than subdomains. */
const labelNamed = new Set(['/namespaces', '/services']);

/**
 * apimachinery's `ValidateLabels`: each key a qualified name, each value a string and a valid
 * label value; errors at `field` (`metadata.labels`).
 */
export function labelErrors(labels: Record<string, unknown>, field: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const [key, value] of Object.entries(labels)) {
    for (const detail of validateQualifiedName(key)) {
      errors.push({ type: 'FieldValueInvalid', field, value: key, detail });
    }
    if (typeof value !== 'string') {
      errors.push({
        type: 'FieldValueTypeInvalid',
        field: `${field}[${key}]`,
        value,
        detail: 'must be a string',
      });
      continue;
    }
    for (const detail of validateLabelValue(value)) {
      errors.push({ type: 'FieldValueInvalid', field, value, detail });
    }
  }
  return errors;
}

/**
 * apimachinery's `ValidateAnnotations`: each key a qualified name (case-insensitively), at
 * most 256 KiB of keys and values; errors at `field` (`metadata.annotations`).
 */
export function annotationErrors(
  annotations: Record<string, unknown>,
  field: string,
): FieldError[] {
  const errors: FieldError[] = [];
  let annotationBytes = 0;
  for (const [key, value] of Object.entries(annotations)) {
    for (const detail of validateQualifiedName(key.toLowerCase())) {
      errors.push({ type: 'FieldValueInvalid', field, value: key, detail });
    }
    annotationBytes += key.length + String(value).length;
  }
  if (annotationBytes > 256 * 1024) {
    errors.push({ type: 'FieldValueTooLong', field, detail: 'must have at most 262144 bytes' });
  }
  return errors;
}

/** The checks kube-apiserver makes on `metadata` of any object. */
export function validateObjectMeta(type: ResourceType, meta: ObjectMeta): FieldError[] {
  const errors: FieldError[] = [];
  const name = meta.name ?? '';
  if (name === '') {
    errors.push({
      type: 'FieldValueRequired',
      field: 'metadata.name',
      detail: 'name or generateName is required',
    });
  } else {
    const problems = labelNamed.has(`${type.group}/${type.plural}`)
      ? validateDns1123Label(name)
      : type.group === 'rbac.authorization.k8s.io'
        ? validatePathSegment(name)
        : validateDns1123Subdomain(name);
    for (const detail of problems)
      errors.push({ type: 'FieldValueInvalid', field: 'metadata.name', value: name, detail });
  }
  errors.push(...labelErrors(meta.labels ?? {}, 'metadata.labels'));
  errors.push(...annotationErrors(meta.annotations ?? {}, 'metadata.annotations'));
  (meta.finalizers ?? []).forEach((finalizer, index) => {
    for (const detail of validateQualifiedName(finalizer)) {
      errors.push({
        type: 'FieldValueInvalid',
        field: `metadata.finalizers[${index}]`,
        value: finalizer,
        detail,
      });
    }
  });
  const references = meta.ownerReferences ?? [];
  let controllers = 0;
  references.forEach((ref, index) => {
    const path = `metadata.ownerReferences[${index}]`;
    if (!ref.apiVersion)
      errors.push({
        type: 'FieldValueInvalid',
        field: `${path}.apiVersion`,
        value: ref.apiVersion ?? '',
        detail: 'version must not be empty',
      });
    if (!ref.kind)
      errors.push({
        type: 'FieldValueInvalid',
        field: `${path}.kind`,
        value: ref.kind ?? '',
        detail: 'kind must not be empty',
      });
    if (!ref.name)
      errors.push({
        type: 'FieldValueInvalid',
        field: `${path}.name`,
        value: ref.name ?? '',
        detail: 'name must not be empty',
      });
    if (!ref.uid)
      errors.push({
        type: 'FieldValueInvalid',
        field: `${path}.uid`,
        value: ref.uid ?? '',
        detail: 'uid must not be empty',
      });
    if (ref.controller === true) controllers++;
  });
  if (controllers > 1) {
    errors.push({
      type: 'FieldValueInvalid',
      field: 'metadata.ownerReferences',
      value: references
        .filter((r) => r.controller)
        .map((r) => `${r.kind}/${r.name}`)
        .join(', '),
      detail: 'Only one reference can have Controller set to true',
    });
  }
  return errors;
}

function validatePathSegment(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  if (name.includes('/')) return ["may not contain '/'"];
  if (name.includes('%')) return ["may not contain '%'"];
  return [];
}
