import type { KubernetesObject } from '@ops/api';
import { isJsonObject } from '@ops/api';
import type { FieldError } from '../api/field-error.js';

/** The most data a ConfigMap or a Secret may hold: 1 MiB (`core.MaxSecretSize`). */
export const maxDataBytes = 1024 * 1024;

const stringBytes = (value: unknown) => Buffer.byteLength(String(value));
const base64Bytes = (value: unknown) => Buffer.from(String(value), 'base64').length;

function total(values: unknown, size: (value: unknown) => number): number {
  if (!isJsonObject(values)) return 0;
  let sum = 0;
  for (const value of Object.values(values)) sum += size(value);
  return sum;
}

const tooLong = (field: string): FieldError => ({
  type: 'FieldValueTooLong',
  field,
  detail: `may not be more than ${maxDataBytes} bytes`,
});

/**
 * kube's `ValidateConfigMap` size rule (pkg/apis/core/validation): the values of `data`
 * (UTF-8 bytes) and `binaryData` (decoded bytes) together may not exceed 1 MiB; the error is on
 * the whole object, which kube prints as the field `[]`.
 */
export function configMapSizeErrors(object: KubernetesObject): FieldError[] {
  const bytes = total(object.data, stringBytes) + total(object.binaryData, base64Bytes);
  return bytes > maxDataBytes ? [tooLong('[]')] : [];
}

/**
 * kube's `ValidateSecret` size rule: the decoded values of `data` (with `stringData` already
 * merged in) may not exceed 1 MiB; the error names the field `data`.
 */
export function secretSizeErrors(object: KubernetesObject): FieldError[] {
  return total(object.data, base64Bytes) > maxDataBytes ? [tooLong('data')] : [];
}
