import type { KubernetesObject } from '@ops/api';
import { isJsonObject, jsonEqual } from '@ops/api';
import jsonPatch from 'fast-json-patch';
import { StatusError } from '../api/status-error.js';
import { WebhookCallError } from './webhook-call-error.js';

type Json = Record<string, unknown>;

const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The result of applying a mutating webhook's patch. */
export interface PatchResult {
  object: KubernetesObject;
  /** Whether the patch changed anything (a patch may rewrite a value to itself). */
  changed: boolean;
}

const goTypeName = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  return typeof value;
};

/**
 * Decodes a mutating webhook's `response.patch` (base64 of a JSON array of RFC 6902
 * operations), as kube-apiserver's `jsonpatch.DecodePatch` does.
 *
 * @throws {WebhookCallError} `received undecodable patch in webhook response: ...` when the
 *   text is not base64, not JSON, or not an array of objects (the failurePolicy decides).
 */
export function decodeWebhookPatch(webhookName: string, patch: string): Json[] {
  const undecodable = (why: string) =>
    new WebhookCallError(webhookName, `received undecodable patch in webhook response: ${why}`);
  if (!base64.test(patch)) throw undecodable('illegal base64 data');
  let operations: unknown;
  try {
    operations = JSON.parse(Buffer.from(patch, 'base64').toString('utf8'));
  } catch (error) {
    throw undecodable(error instanceof Error ? error.message : String(error));
  }
  if (!Array.isArray(operations)) {
    throw undecodable(
      `json: cannot unmarshal ${goTypeName(operations)} into Go value of type jsonpatch.Patch`,
    );
  }
  for (const operation of operations) {
    if (!isJsonObject(operation)) {
      throw undecodable(
        `json: cannot unmarshal ${goTypeName(operation)} into Go value of type jsonpatch.Operation`,
      );
    }
  }
  return operations as Json[];
}

const knownOps = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

const decodeToken = (token: string): string => token.replace(/~1/g, '/').replace(/~0/g, '~');

/** The container a pointer's last token lives in, and that token; undefined when unreachable. */
function locate(document: unknown, pointer: string): { parent: unknown; key: string } | undefined {
  const tokens = pointer.split('/');
  if (tokens.length < 2) return undefined;
  let node: unknown = document;
  for (const token of tokens.slice(1, -1).map(decodeToken)) {
    if (Array.isArray(node)) {
      if (!/^\d+$/.test(token)) return undefined;
      node = node[Number(token)];
    } else if (isJsonObject(node) && Object.hasOwn(node, token)) {
      node = node[token];
    } else {
      return undefined;
    }
    if (node === undefined || node === null || typeof node !== 'object') return undefined;
  }
  return { parent: node, key: decodeToken(tokens[tokens.length - 1] ?? '') };
}

const has = (location: { parent: unknown; key: string }): boolean =>
  Array.isArray(location.parent)
    ? /^\d+$/.test(location.key) && Number(location.key) < location.parent.length
    : isJsonObject(location.parent) && Object.hasOwn(location.parent, location.key);

/** Why `operation` cannot apply to `document`, in the words of kube-apiserver's JSON patch library. */
function describeFailure(document: unknown, operation: Json): string {
  const op = typeof operation.op === 'string' ? operation.op : '';
  const path = typeof operation.path === 'string' ? operation.path : '';
  const from = typeof operation.from === 'string' ? operation.from : '';
  const at = locate(document, path);
  switch (op) {
    case 'add':
      if (at === undefined)
        return `add operation does not apply: doc is missing path: "${path}": missing value`;
      if (Array.isArray(at.parent) && at.key !== '-') {
        return `error in add for path: '${path}': Unable to access invalid index: ${at.key}: invalid index referenced`;
      }
      break;
    case 'remove':
      if (at === undefined)
        return `remove operation does not apply: doc is missing path: "${path}": missing value`;
      if (!has(at)) {
        return Array.isArray(at.parent)
          ? `error in remove for path: '${path}': Unable to access invalid index: ${at.key}: invalid index referenced`
          : `error in remove for path: '${path}': Unable to remove nonexistent key: ${at.key}: missing value`;
      }
      break;
    case 'replace':
      if (at === undefined)
        return `replace operation does not apply: doc is missing path: ${path}: missing value`;
      if (!has(at))
        return `replace operation does not apply: doc is missing key: ${path}: missing value`;
      break;
    case 'move':
    case 'copy': {
      const source = locate(document, from);
      if (source === undefined || !has(source)) {
        return `${op} operation does not apply: doc is missing from path: ${from}: missing value`;
      }
      if (at === undefined) {
        return `${op} operation does not apply: doc is missing destination path: ${path}: missing value`;
      }
      break;
    }
    case 'test':
      if (at === undefined && path !== '')
        return `test operation does not apply: is missing path: ${path}: missing value`;
      return `testing value ${path} failed: test failed`;
    default:
      return `Unexpected kind: ${op}`;
  }
  return `${op} operation does not apply: doc is missing path: ${path}: missing value`;
}

/**
 * Applies a mutating webhook's decoded JSON patch to `object` (undefined on DELETE), as
 * kube-apiserver does, and returns a new object; `object` is not modified. Operations apply
 * in order, all or nothing.
 *
 * @throws {StatusError} 500 `Internal error occurred: admission webhook "<name>" attempted to
 *   modify the object, which is not supported for this operation` for a non-empty patch
 *   without an object; 500 `Internal error occurred: <reason>` when an operation does not
 *   apply (the reason worded as kube-apiserver's JSON patch library words it, e.g.
 *   `add operation does not apply: doc is missing path: "/metadata/labels/a": missing value`);
 *   500 when the result is not an object.
 */
export function applyWebhookPatch(
  webhookName: string,
  object: KubernetesObject | undefined,
  operations: readonly Json[],
): PatchResult | undefined {
  if (operations.length === 0) return undefined;
  if (object === undefined) {
    throw StatusError.internal(
      `admission webhook ${JSON.stringify(webhookName)} attempted to modify the object, which is not supported for this operation`,
    );
  }
  let document: unknown = structuredClone(object);
  for (const operation of operations) {
    if (typeof operation.op !== 'string' || !knownOps.has(operation.op)) {
      throw StatusError.internal(
        `Unexpected kind: ${typeof operation.op === 'string' ? operation.op : ''}`,
      );
    }
    try {
      document = jsonPatch.applyOperation(
        document,
        structuredClone(operation) as unknown as jsonPatch.Operation,
        true,
        true,
      ).newDocument;
    } catch {
      throw StatusError.internal(describeFailure(document, operation));
    }
  }
  if (!isJsonObject(document)) {
    throw StatusError.internal(`couldn't decode the patched object: expected a JSON object`);
  }
  return { object: document as KubernetesObject, changed: !jsonEqual(object, document) };
}
