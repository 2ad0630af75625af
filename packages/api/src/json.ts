/**
 * The two JSON helpers every package needs, declared once: what the Kubernetes API's JSON
 * bodies are checked and compared with.
 */

/**
 * Whether `value` is a JSON object: not null, not an array, of type `object`. Holds for any
 * such object (a class instance too); it does not check the members, so `T` (by default
 * `Record<string, unknown>`) is only the caller's view of them, as after `JSON.parse`.
 */
export function isJsonObject<T extends object = Record<string, unknown>>(
  value: unknown,
): value is T {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Deep equality of JSON values as Kubernetes compares them after decoding: object key order is
 * ignored, a member whose value is `undefined` counts as absent (as `JSON.stringify` drops it),
 * arrays compare in order, and numbers compare by value, a `bigint` equal to the `number` of
 * the same value (Go decodes int64 and float64 alike). Other values compare with `===`.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'number' || typeof a === 'bigint') {
    return (typeof b === 'number' || typeof b === 'bigint') && Number(a) === Number(b);
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, index) => jsonEqual(item, b[index]));
  }
  if (isJsonObject(a)) {
    if (!isJsonObject(b)) return false;
    const keys = Object.keys(a).filter((key) => a[key] !== undefined);
    const otherKeys = Object.keys(b).filter((key) => b[key] !== undefined);
    if (keys.length !== otherKeys.length) return false;
    return keys.every((key) => b[key] !== undefined && jsonEqual(a[key], b[key]));
  }
  return false;
}
