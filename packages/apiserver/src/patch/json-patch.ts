import { isJsonObject } from '@ops/api';
import jsonPatch from 'fast-json-patch';
import { StatusError } from '../api/status-error.js';
import { cloneJson, type JsonObject } from './json-value.js';
import {
  goJsonTypeName,
  patchBadRequest,
  patchRejected,
  patchResultNotObject,
} from './patch-error.js';

/** The most operations kube-apiserver accepts in one JSON patch. */
export const maxJsonPatchOperations = 10_000;

const knownOps = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

/**
 * Applies an RFC 6902 JSON patch (`application/json-patch+json`) to `document` as
 * kube-apiserver does, returning a new object; neither `document` nor `operations` is
 * modified, and the result shares nothing with them.
 *
 * `operations` is the decoded request body. The answers follow kube-apiserver's:
 * - `null` is an empty patch: the result is a copy of `document`;
 * - a body that is not an array, or an array item that is neither an object nor `null`, cannot
 *   be decoded: 400 BadRequest with Go's decoding error
 *   (`json: cannot unmarshal object into Go value of type jsonpatch.Patch`);
 * - more than {@link maxJsonPatchOperations} operations: 413 RequestEntityTooLarge;
 * - an operation that cannot be applied (a failed `test`, a missing path or `from`, an index
 *   out of range, an unknown or missing `op`, a missing `path`): 422 Invalid with the generic
 *   message `the server rejected our request due to an error in our request`, since
 *   kube-apiserver does not pass the reason on;
 * - a patch that replaces the whole document with something other than an object: 422
 *   Invalid on the field `patch`.
 *
 * Operations apply in order and all or nothing.
 *
 * @throws {StatusError} as listed; never any other error for any JSON input.
 */
export function applyJsonPatch(
  document: Readonly<Record<string, unknown>>,
  operations: unknown,
): JsonObject {
  const target = cloneJson(document);
  if (operations === null || operations === undefined) {
    return isJsonObject(target) ? target : {};
  }
  const ops = cloneJson(operations);
  if (!Array.isArray(ops)) {
    throw patchBadRequest(
      `json: cannot unmarshal ${goJsonTypeName(ops)} into Go value of type jsonpatch.Patch`,
    );
  }
  for (const op of ops) {
    if (op !== null && !isJsonObject(op)) {
      throw patchBadRequest(
        `json: cannot unmarshal ${goJsonTypeName(op)} into Go value of type jsonpatch.Operation`,
      );
    }
  }
  if (ops.length > maxJsonPatchOperations) {
    throw new StatusError(
      413,
      'RequestEntityTooLarge',
      `Request entity too large: The allowed maximum operations in a JSON patch is ${maxJsonPatchOperations}, got ${ops.length}`,
    );
  }
  // fast-json-patch also knows an internal `_get` op that kube-apiserver rejects.
  for (const op of ops) {
    if (!isJsonObject(op) || typeof op.op !== 'string' || !knownOps.has(op.op)) {
      throw patchRejected();
    }
  }
  let result: unknown;
  try {
    // Validation on: missing paths and failed tests throw instead of being skipped. The
    // document is our own copy, so it may be modified in place.
    result = jsonPatch.applyPatch(
      target,
      ops as unknown as jsonPatch.Operation[],
      true,
      true,
    ).newDocument;
  } catch (error) {
    if (error instanceof Error) throw patchRejected();
    throw error;
  }
  if (!isJsonObject<JsonObject>(result)) throw patchResultNotObject(cloneJson(result));
  return result;
}
