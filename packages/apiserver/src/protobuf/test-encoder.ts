import { messageSchemas } from './kind-registry.js';
import { protobufMagic } from './kubernetes-protobuf.js';
import type { MessageSchema, ScalarType, ValueType, WellKnownType } from './message-schema.js';

/**
 * Test support, not exported from the package: a protobuf writer and an encoder that turns the
 * JSON form of an object back into Kubernetes protobuf through the same schema tables the
 * decoder reads, so tests can round-trip objects. It writes every field present in the JSON,
 * zero values included, in field-number order; it trusts its input and throws plain Errors on
 * values that do not fit the schema.
 */
export class WireWriter {
  private readonly chunks: number[] = [];

  varint(value: bigint | number): this {
    let v = BigInt.asUintN(64, BigInt(value));
    while (v >= 0x80n) {
      this.chunks.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    this.chunks.push(Number(v));
    return this;
  }

  key(field: number, wireType: number): this {
    return this.varint((field << 3) | wireType);
  }

  raw(bytes: Uint8Array | readonly number[]): this {
    for (const byte of bytes) this.chunks.push(byte);
    return this;
  }

  bytesField(field: number, bytes: Uint8Array | readonly number[]): this {
    return this.key(field, 2).varint(bytes.length).raw(bytes);
  }

  stringField(field: number, text: string): this {
    return this.bytesField(field, Buffer.from(text, 'utf8'));
  }

  varintField(field: number, value: bigint | number): this {
    return this.key(field, 0).varint(value);
  }

  finish(): Buffer {
    return Buffer.from(this.chunks);
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

const encodeWellKnown = (value: unknown, type: WellKnownType): Buffer => {
  const w = new WireWriter();
  switch (type) {
    case 'Time':
    case 'MicroTime': {
      if (value === null) return w.finish();
      const ms = Date.parse(String(value));
      const micros = /\.(\d{6})Z$/.exec(String(value))?.[1];
      w.varintField(1, BigInt(Math.floor(ms / 1000)));
      if (micros) w.varintField(2, Number(micros) * 1000);
      return w.finish();
    }
    case 'Duration':
      return w.varintField(1, parseDuration(String(value))).finish();
    case 'Quantity':
      return w.stringField(1, String(value)).finish();
    case 'IntOrString':
      return typeof value === 'number'
        ? w.varintField(1, 0).varintField(2, value).stringField(3, '').finish()
        : w.varintField(1, 1).varintField(2, 0).stringField(3, String(value)).finish();
    case 'RawExtension':
    case 'FieldsV1':
      return value === null ? w.finish() : w.stringField(1, JSON.stringify(value)).finish();
    case 'StringList':
      for (const item of (value ?? []) as string[]) w.stringField(1, item);
      return w.finish();
  }
};

const writeScalar = (w: WireWriter, field: number, scalar: ScalarType, value: unknown): void => {
  switch (scalar) {
    case 'string':
      w.stringField(field, String(value));
      return;
    case 'bytes':
      w.bytesField(field, Buffer.from(String(value), 'base64'));
      return;
    case 'bool':
      w.varintField(field, value ? 1 : 0);
      return;
    case 'double': {
      const b = Buffer.alloc(8);
      b.writeDoubleLE(Number(value));
      w.key(field, 1).raw(b);
      return;
    }
    case 'float': {
      const b = Buffer.alloc(4);
      b.writeFloatLE(Number(value));
      w.key(field, 5).raw(b);
      return;
    }
    default:
      w.varintField(field, BigInt(Number(value)));
  }
};

const schemaOf = (name: string): MessageSchema => {
  const schema = messageSchemas().get(name);
  if (!schema) throw new Error(`no schema ${name}`);
  return schema;
};

const writeValue = (w: WireWriter, field: number, type: ValueType, value: unknown): void => {
  if (type.kind === 'scalar') writeScalar(w, field, type.scalar, value);
  else if (type.kind === 'wellKnown') w.bytesField(field, encodeWellKnown(value, type.wellKnown));
  else w.bytesField(field, encodeMessage(value as Record<string, unknown>, schemaOf(type.message)));
};

/** Encodes the JSON form of a message through its schema (see the class comment above). */
export const encodeMessage = (value: Record<string, unknown>, schema: MessageSchema): Buffer => {
  const w = new WireWriter();
  const fields = [...schema.fields.values()].sort((a, b) => a.number - b.number);
  for (const field of fields) {
    if (field.inline && field.value.kind === 'message') {
      const inner = schemaOf(field.value.message);
      const owned = [...inner.fields.values()].some((f) => f.inline || value[f.json] !== undefined);
      if (owned) w.bytesField(field.number, encodeMessage(value, inner));
      continue;
    }
    const v = value[field.json];
    if (v === undefined) continue;
    if (field.map) {
      for (const [k, item] of Object.entries(v as Record<string, unknown>)) {
        const entry = new WireWriter().stringField(1, k);
        writeValue(entry, 2, field.value, item);
        w.bytesField(field.number, entry.finish());
      }
    } else if (field.repeated) {
      for (const item of v as unknown[]) writeValue(w, field.number, field.value, item);
    } else {
      writeValue(w, field.number, field.value, v);
    }
  }
  return w.finish();
};

/**
 * Encodes `{kind, apiVersion, ...fields}` as a Kubernetes protobuf body: the `k8s\x00` magic and
 * a `runtime.Unknown` envelope around the object's proto2 bytes.
 */
export const encodeKubernetesProtobuf = (
  object: Record<string, unknown>,
  rootMessage: string,
): Buffer => {
  const { kind, apiVersion, ...fields } = object;
  const raw = encodeMessage(fields, schemaOf(rootMessage));
  const typeMeta = new WireWriter()
    .stringField(1, String(apiVersion))
    .stringField(2, String(kind))
    .finish();
  const envelope = new WireWriter()
    .bytesField(1, typeMeta)
    .bytesField(2, raw)
    .stringField(3, '')
    .stringField(4, '')
    .finish();
  return Buffer.concat([protobufMagic, envelope]);
};
