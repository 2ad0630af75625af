import protobuf from 'protobufjs/light.js';
import { rootMessageOf } from './kind-registry.js';
import { protobufMagic } from './kubernetes-protobuf.js';
import {
  fieldMessage,
  isInline,
  jsonNameOf,
  messageName,
  messageType,
  wellKnownOf,
} from './kubernetes-protos.js';

/**
 * Test support, not exported from the package: protobuf bytes for tests, written with
 * protobufjs from the same vendored definitions the decoder reads. `WireWriter` lays out
 * fields by hand (for bytes a typed encoder would never write); `encodeKubernetesProtobuf`
 * turns the JSON form of an object back into its protobuf (the inverse of the Kubernetes JSON
 * rules) and lets protobufjs encode it. Both trust their input and throw plain Errors on values
 * that do not fit.
 */
export class WireWriter {
  private readonly writer = protobuf.Writer.create();

  bytesField(field: number, bytes: Uint8Array | readonly number[]): this {
    this.writer.uint32((field << 3) | 2).bytes(Uint8Array.from(bytes));
    return this;
  }

  stringField(field: number, text: string): this {
    this.writer.uint32((field << 3) | 2).string(text);
    return this;
  }

  varintField(field: number, value: bigint | number): this {
    this.writer.uint32(field << 3).uint64(BigInt.asUintN(64, BigInt(value)).toString());
    return this;
  }

  finish(): Buffer {
    return Buffer.from(this.writer.finish());
  }
}

const durationUnits: Record<string, bigint> = {
  h: 3_600_000_000_000n,
  m: 60_000_000_000n,
  s: 1_000_000_000n,
  ms: 1_000_000n,
  µs: 1000n,
  ns: 1n,
};

/** Parses a Go duration string made of whole numbers (`1h2m3s`, `250ms`) into nanoseconds. */
const parseDuration = (text: string): bigint => {
  const negative = text.startsWith('-');
  let total = 0n;
  for (const match of (negative ? text.slice(1) : text).matchAll(/(\d+)(h|ms|m|s|µs|ns)/g)) {
    total += BigInt(match[1] ?? '0') * (durationUnits[match[2] ?? ''] ?? 0n);
  }
  return negative ? -total : total;
};

/** The protobufjs plain object of a message from its Kubernetes JSON form. */
const toPlain = (value: unknown, type: protobuf.Type): Record<string, unknown> => {
  switch (wellKnownOf(type)) {
    case 'Time':
    case 'MicroTime': {
      if (value === null) return {};
      const ms = Date.parse(String(value));
      const micros = /\.(\d{6})Z$/.exec(String(value))?.[1];
      return {
        seconds: Math.floor(ms / 1000),
        ...(micros ? { nanos: Number(micros) * 1000 } : {}),
      };
    }
    case 'Duration':
      return { duration: parseDuration(String(value)).toString() };
    case 'Quantity':
      return { string: String(value) };
    case 'IntOrString':
      return typeof value === 'number'
        ? { type: 0, intVal: value, strVal: '' }
        : { type: 1, intVal: 0, strVal: String(value) };
    case 'RawExtension':
    case 'FieldsV1': {
      const [field] = type.fieldsArray;
      if (field === undefined) throw new Error(`${messageName(type)} has no field`);
      return value === null ? {} : { [field.name]: Buffer.from(JSON.stringify(value)) };
    }
    case 'StringList':
      return { items: value ?? [] };
    case undefined:
      break;
  }
  const object = value as Record<string, unknown>;
  const plain: Record<string, unknown> = {};
  for (const field of type.fieldsArray) {
    const message = fieldMessage(field);
    if (isInline(field) && message !== undefined) {
      const owned = message.fieldsArray.some(
        (f) => isInline(f) || object[jsonNameOf(f)] !== undefined,
      );
      if (owned) plain[field.name] = toPlain(object, message);
      continue;
    }
    const v = object[jsonNameOf(field)];
    if (v === undefined) continue;
    const convert = (item: unknown): unknown =>
      message === undefined ? item : toPlain(item, message);
    if (field.map) {
      plain[field.name] = Object.fromEntries(
        Object.entries(v as Record<string, unknown>).map(([k, item]) => [k, convert(item)]),
      );
    } else if (field.repeated) {
      plain[field.name] = (v as unknown[]).map(convert);
    } else {
      plain[field.name] = convert(v);
    }
  }
  return plain;
};

/** Encodes the JSON form of a message (`k8s.io.api.core.v1.Pod`) with protobufjs. */
export const encodeMessage = (value: Record<string, unknown>, message: string): Uint8Array => {
  const type = messageType(message);
  if (type === undefined) throw new Error(`no message ${message}`);
  return type.encode(type.fromObject(toPlain(value, type))).finish();
};

/**
 * Encodes `{kind, apiVersion, ...fields}` as a Kubernetes protobuf body: the `k8s\x00` magic and
 * a `runtime.Unknown` envelope around the object's proto2 bytes, its message found from
 * apiVersion and kind as the decoder finds it.
 */
export const encodeKubernetesProtobuf = (object: Record<string, unknown>): Buffer => {
  const { kind, apiVersion, ...fields } = object;
  const root = rootMessageOf(String(apiVersion), String(kind));
  if (root === undefined) throw new Error(`no message for ${String(apiVersion)} ${String(kind)}`);
  // runtime.Unknown's JSON form: TypeMeta inline, then raw and the two content fields.
  const unknown = {
    apiVersion: String(apiVersion),
    kind: String(kind),
    raw: encodeMessage(fields, messageName(root)),
    contentEncoding: '',
    contentType: '',
  };
  const envelope = encodeMessage(unknown, 'k8s.io.apimachinery.pkg.runtime.Unknown');
  return Buffer.concat([protobufMagic, envelope]);
};
