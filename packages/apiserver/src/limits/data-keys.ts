import type { KubernetesObject } from '@ops/api';
import { isJsonObject } from '@ops/api';
import type { FieldError } from '../api/field-error.js';

/** The longest key of a ConfigMap or a Secret, in bytes (`DNS1123SubdomainMaxLength`). */
export const maxDataKeyBytes = 253;

const keyPattern = /^[-._a-zA-Z0-9]+$/;
const keyPatternMessage =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

/**
 * Why `key` cannot name a ConfigMap or Secret entry, in apimachinery's words
 * (`validation.IsConfigMapKey`): more than 253 bytes, a character outside `[-._a-zA-Z0-9]`
 * (so no `/`, which would step out of the directory a volume mounts), or `.`, `..` or a `..`
 * prefix. Empty when the key is valid.
 */
export function configMapKeyProblems(key: string): string[] {
  const problems: string[] = [];
  if (Buffer.byteLength(key) > maxDataKeyBytes)
    problems.push(`must be no more than ${maxDataKeyBytes} characters`);
  if (!keyPattern.test(key)) problems.push(keyPatternMessage);
  if (key === '.') problems.push("must not be '.'");
  else if (key === '..') problems.push("must not be '..'");
  else if (key.startsWith('..')) problems.push("must not start with '..'");
  return problems;
}

const keysOf = (values: unknown): string[] => (isJsonObject(values) ? Object.keys(values) : []);

const invalidKeys = (field: string, keys: readonly string[]): FieldError[] =>
  keys.flatMap((key) =>
    configMapKeyProblems(key).map(
      (detail): FieldError => ({
        type: 'FieldValueInvalid',
        field: `${field}[${key}]`,
        value: key,
        detail,
      }),
    ),
  );

/**
 * kube's `ValidateConfigMap` key rules: every key of `data` and of `binaryData` must be a
 * valid config key (`data[a/b]: Invalid value: "a/b": a valid config key must consist of
 * ...`), and no key may be in both (`data[k]: Invalid value: "k": duplicate of key present in
 * binaryData`). Errors in kube's order: each data key's, then binaryData's.
 */
export function configMapKeyErrors(object: KubernetesObject): FieldError[] {
  const binary = new Set(keysOf(object.binaryData));
  return [
    ...keysOf(object.data).flatMap((key) => [
      ...invalidKeys('data', [key]),
      ...(binary.has(key)
        ? [
            {
              type: 'FieldValueInvalid' as const,
              field: `data[${key}]`,
              value: key,
              detail: 'duplicate of key present in binaryData',
            },
          ]
        : []),
    ]),
    ...invalidKeys('binaryData', [...binary]),
  ];
}

/**
 * kube's `ValidateSecret` key rule: every key of `data` must be a valid config key. Runs after
 * `stringData` is merged into `data` (as kube's conversion does), so a bad `stringData` key
 * is reported at `data[key]`, as kube-apiserver reports it.
 */
export function secretKeyErrors(object: KubernetesObject): FieldError[] {
  return invalidKeys('data', keysOf(object.data));
}
