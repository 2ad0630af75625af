import { isJsonObject } from '@ops/api';

type Json = Record<string, unknown>;

/**
 * Writes every field of `desired` onto `target` and returns `target`: objects are merged field
 * by field, arrays of the same length item by item, anything else (and arrays whose length
 * changed) replaced by a copy of `desired`'s value. A field `desired` sets to `undefined` is
 * removed. Fields only `target` has are kept: those the API server defaulted
 * (`imagePullPolicy`, `terminationMessagePath`, a volume's `defaultMode` ...), so a live
 * object overlaid with what the operator wants is unchanged exactly when the operator's fields
 * already have its values, and an update is only sent when one of them differs.
 */
export function overlay<T extends object>(target: T, desired: object): T {
  const into = target as Json;
  for (const [key, value] of Object.entries(desired)) {
    if (value === undefined) {
      delete into[key];
      continue;
    }
    const current = into[key];
    if (isJsonObject(value) && isJsonObject(current)) {
      overlay(current, value);
    } else if (Array.isArray(value) && Array.isArray(current) && value.length === current.length) {
      value.forEach((item, index) => {
        const present: unknown = current[index];
        current[index] =
          isJsonObject(item) && isJsonObject(present)
            ? overlay(present, item)
            : structuredClone(item);
      });
    } else {
      into[key] = structuredClone(value);
    }
  }
  return target;
}
