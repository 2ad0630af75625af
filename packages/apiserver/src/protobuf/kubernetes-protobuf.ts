import { StatusError } from '../api/status-error.js';
import { decodeMessage } from './decode-message.js';
import { rootMessageOf } from './kind-registry.js';
import { messageType } from './kubernetes-protos.js';
import { UndecodableError } from './undecodable-error.js';
import { WireFormatError } from './wire-format-error.js';

/** The media type of Kubernetes protobuf bodies. */
export const protobufMediaType = 'application/vnd.kubernetes.protobuf';

/** The 4 bytes every Kubernetes protobuf body starts with: `k8s\x00`. */
export const protobufMagic: Uint8Array = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

const sendJson = 'send the request body as JSON instead (Content-Type: application/json)';

/**
 * True when a Content-Type header names Kubernetes protobuf (`application/vnd.kubernetes.protobuf`,
 * any case, any parameters). Does not throw.
 */
export const isProtobufContentType = (contentType: string): boolean =>
  (contentType.split(';')[0] ?? '').trim().toLowerCase() === protobufMediaType;

/** The `runtime.Unknown` envelope of a Kubernetes protobuf body. */
interface Envelope {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
  contentEncoding: string;
  contentType: string;
}

const readEnvelope = (bytes: Uint8Array): Envelope => {
  const unknown = messageType('k8s.io.apimachinery.pkg.runtime.Unknown');
  if (unknown === undefined) throw new Error('the vendored protos lack runtime.Unknown');
  // runtime.Unknown's Go JSON: TypeMeta inline, `raw` (json:"-", decoded as base64 bytes).
  const { apiVersion, kind, raw, contentEncoding, contentType } = decodeMessage(bytes, unknown);
  return {
    apiVersion: typeof apiVersion === 'string' ? apiVersion : '',
    kind: typeof kind === 'string' ? kind : '',
    raw: typeof raw === 'string' ? Buffer.from(raw, 'base64') : new Uint8Array(0),
    contentEncoding: typeof contentEncoding === 'string' ? contentEncoding : '',
    contentType: typeof contentType === 'string' ? contentType : '',
  };
};

const badRequest = (message: string): StatusError =>
  StatusError.badRequest(`cannot decode the protobuf request body: ${message}; ${sendJson}`);

const describe = (error: unknown): string => {
  if (WireFormatError.isInstance(error)) return `malformed protobuf: ${error.message}`;
  if (UndecodableError.isInstance(error)) return error.message;
  return `unexpected decoder failure: ${error instanceof Error ? error.message : String(error)}`;
};

/**
 * Decodes a Kubernetes protobuf request body (`k8s\x00` + `runtime.Unknown` wrapping the proto2
 * encoding of a typed object) into the JSON object the same Go client sends when it speaks JSON:
 * `kind` and `apiVersion` from the envelope, then the object's fields as Go's encoding/json
 * writes them (zero scalars of `omitempty` fields dropped; pointer and non-`omitempty` scalars
 * kept when present; messages present on the wire kept, an empty `Time` as `null`; `bytes` as
 * base64; Quantity, IntOrString, Time, MicroTime, Duration, RawExtension and FieldsV1 in their
 * JSON forms). Empty repeated and map fields are absent from the wire and from the result (Go
 * would write `null` for the few without `omitempty`; the API server treats both alike).
 *
 * Supports the kinds of `knownKinds()` (what kubectl's typed clients send: create
 * configmap/secret/namespace/serviceaccount/deployment/service/job/cronjob/role/clusterrole/
 * rolebinding/clusterrolebinding/quota/priorityclass/pdb/ingress/token, auth can-i, run,
 * expose, and `DeleteOptions`/`Eviction`).
 *
 * Never returns an object that differs from what the client meant: anything it cannot decode
 * faithfully throws {@link StatusError} 400 BadRequest whose message says what (unknown
 * apiVersion/kind, unknown field number and the message holding it, wrong wire type, truncated
 * or malformed bytes, invalid UTF-8, an int64 beyond ±2^53-1, a non-JSON RawExtension, a
 * compressed envelope) and asks the client to send JSON instead. Throws nothing else.
 */
export const decodeKubernetesProtobuf = (body: Buffer): Record<string, unknown> => {
  if (body.length < protobufMagic.length || !protobufMagic.every((byte, i) => body[i] === byte)) {
    throw badRequest('the body does not start with the Kubernetes protobuf prefix "k8s\\x00"');
  }
  let envelope: Envelope;
  try {
    envelope = readEnvelope(body.subarray(protobufMagic.length));
  } catch (error) {
    throw badRequest(`the runtime.Unknown envelope is invalid: ${describe(error)}`);
  }
  const { apiVersion, kind } = envelope;
  if (!kind || !apiVersion) {
    throw badRequest(`the envelope names no ${kind ? 'apiVersion' : 'kind'}`);
  }
  const subject = `${kind} (apiVersion ${apiVersion})`;
  if (envelope.contentEncoding !== '') {
    throw badRequest(
      `${subject} has content encoding "${envelope.contentEncoding}", which this server does not support`,
    );
  }
  if (envelope.contentType !== '' && envelope.contentType !== protobufMediaType) {
    throw badRequest(
      `${subject} is wrapped with content type "${envelope.contentType}", expected ${protobufMediaType}`,
    );
  }
  const root = rootMessageOf(apiVersion, kind);
  if (root === undefined) {
    throw badRequest(`this server has no protobuf schema for ${subject}`);
  }
  try {
    return { kind, apiVersion, ...decodeMessage(envelope.raw, root) };
  } catch (error) {
    throw badRequest(`${subject}: ${describe(error)}`);
  }
};
