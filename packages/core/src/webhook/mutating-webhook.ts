import { isJsonObject, type KubernetesObject } from '@ops/api';
import jsonPatch from 'fast-json-patch';
import {
  type AdmissionHandler,
  admissionAllowed,
  admissionErrored,
  admissionPatched,
  type JsonPatchOperation,
} from './admission-handler.js';
import { toWebhookRequest, type WebhookRequest } from './webhook-request.js';

/**
 * A defaulting function: gets a private deep copy of the admitted object, changes it (in
 * place or not) and returns the object as it should be stored.
 */
export type Mutator<T extends object> = (obj: T, request: WebhookRequest) => T | Promise<T>;

/**
 * An {@link AdmissionHandler} for a mutating webhook built from `fn`.
 *
 * - CREATE and UPDATE: `fn` gets a deep copy of `request.object` typed as `T` (not checked
 *   at run time: validate it in `fn` if you cannot trust the webhook configuration's rules).
 *   The server compares `request.object` with what `fn` returns, after a JSON round trip
 *   (so `undefined` fields are removed and `Date`s become strings), with `fast-json-patch`'s
 *   `compare`, and answers `allowed: true` with the RFC 6902 operations base64-encoded in
 *   `patch` and `patchType: 'JSONPatch'`. No difference gives a plain allow without a patch.
 * - DELETE and CONNECT: allowed without calling `fn` (there is no object to default, as in
 *   controller-runtime's `CustomDefaulter`); register a raw {@link AdmissionHandler} to act
 *   on them.
 * - `request.warn(message)` adds a warning to the response.
 * - If `fn` throws, the server denies the request with code 500 and the error's message; if
 *   it returns something that is not an object, the request is denied with code 500 too.
 * - A request without `object` on CREATE or UPDATE is denied with code 400.
 */
export function mutatingWebhook<T extends object = KubernetesObject>(
  fn: Mutator<T>,
): AdmissionHandler {
  return async (admissionRequest) => {
    const { operation } = admissionRequest;
    if (operation === 'DELETE' || operation === 'CONNECT') return admissionAllowed();
    const original = admissionRequest.object;
    if (!isJsonObject(original)) {
      return admissionErrored(
        400,
        `AdmissionReview request.object must be an object for a ${operation} request; got ${describe(original)}`,
      );
    }
    const { request, warnings } = toWebhookRequest(admissionRequest);
    const result: unknown = await fn(structuredClone(original) as unknown as T, request);
    if (!isJsonObject(result)) {
      return admissionErrored(
        500,
        `mutating webhook function returned ${describe(result)}; return the (changed) object it was given`,
      );
    }
    const changed = JSON.parse(JSON.stringify(result)) as object;
    const operations: JsonPatchOperation[] = jsonPatch.compare(original, changed);
    return admissionPatched(operations, warnings);
  };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object'
    ? 'an object'
    : String(value === undefined ? 'undefined' : typeof value);
}
