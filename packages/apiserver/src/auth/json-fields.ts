import { isJsonObject } from '@ops/api';
/**
 * Defensive readers for plain-JSON objects that may be malformed. Internal to the auth module:
 * each returns an empty value instead of throwing when a field is missing or mistyped.
 */

/** `value` if it is a string, else `''`. */
export function stringField(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The strings of `value` if it is an array (other elements dropped), else `[]`. */
export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item) => typeof item === 'string') : [];
}

/** The object elements of `value` if it is an array, else `[]`. */
export function recordList(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isJsonObject) : [];
}

/** `metadata.name` of an object, or `''`. */
export function objectName(object: unknown): string {
  return isJsonObject(object) && isJsonObject(object.metadata)
    ? stringField(object.metadata.name)
    : '';
}

/** `metadata.namespace` of an object, or `''`. */
export function objectNamespace(object: unknown): string {
  return isJsonObject(object) && isJsonObject(object.metadata)
    ? stringField(object.metadata.namespace)
    : '';
}

/** `metadata.labels` of an object, keeping only string values; undefined when absent. */
export function objectLabels(object: unknown): Record<string, string> | undefined {
  if (!isJsonObject(object) || !isJsonObject(object.metadata)) return undefined;
  const labels = object.metadata.labels;
  if (!isJsonObject(labels)) return undefined;
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(labels)) {
    if (typeof value === 'string') result[key] = value;
  }
  return result;
}
