import { isJsonObject } from '@ops/api';
import { cloneJson, hasKey, type JsonObject, type JsonValue, setKey } from './json-value.js';
import { patchBadRequest, patchResultNotObject } from './patch-error.js';

/**
 * Applies an RFC 7386 JSON merge patch (`application/merge-patch+json`) to `document` as
 * kube-apiserver does, returning a new object; neither input is modified and the result
 * shares nothing with them.
 *
 * Members of `patch` set to `null` are removed; object members merge recursively into object
 * members; anything else (arrays, scalars, objects over non-objects) replaces what was there.
 * `null`s inside a newly added object are dropped, as RFC 7386 requires; arrays are taken
 * verbatim. `null`s already in `document` stay.
 *
 * @throws {StatusError} 400 BadRequest `Invalid JSON Patch` when `patch` is `null` or a
 *   scalar; 422 Invalid on the field `patch` when it is an array, which kube-apiserver
 *   accepts as a merge patch but cannot decode the resulting array into an object.
 */
export function applyMergePatch(
  document: Readonly<Record<string, unknown>>,
  patch: unknown,
): JsonObject {
  const source = cloneJson(patch);
  if (Array.isArray(source)) throw patchResultNotObject(source);
  if (!isJsonObject(source)) throw patchBadRequest('Invalid JSON Patch');
  const target = cloneJson(document);
  return mergeObjects(isJsonObject(target) ? target : {}, source);
}

/** Merges `patch` into `target` in place (both are private copies) and returns `target`. */
function mergeObjects(target: JsonObject, patch: JsonObject): JsonObject {
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) {
      delete target[key];
      continue;
    }
    const current = hasKey(target, key) ? target[key] : undefined;
    setKey(target, key, mergeValue(current, value));
  }
  return target;
}

function mergeValue(current: JsonValue | undefined, patch: JsonValue): JsonValue {
  if (!isJsonObject(patch)) return patch;
  return mergeObjects(isJsonObject(current) ? current : {}, patch);
}
