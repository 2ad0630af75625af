import { formatGoDuration, formatGoTime } from './go-time-format.js';
import type {
  FieldSchema,
  MessageSchema,
  ScalarType,
  ValueType,
  WellKnownType,
} from './message-schema.js';
import { UndecodableError } from './undecodable-error.js';
import { WireReader, WireType } from './wire-reader.js';

/** Looks up a message schema by name. */
export type SchemaLookup = (name: string) => MessageSchema | undefined;

const utf8 = new TextDecoder('utf-8', { fatal: true });
const maxDepth = 64;

const decodeString = (bytes: Uint8Array, where: string): string => {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new UndecodableError(`${where} is not valid UTF-8`);
  }
};

const toSafeNumber = (value: bigint, where: string): number => {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new UndecodableError(
      `${where} = ${value} is beyond the integers JSON numbers hold exactly (±2^53-1)`,
    );
  }
  return Number(value);
};

const isPackable = (scalar: ScalarType): boolean => scalar !== 'string' && scalar !== 'bytes';

const expectedWireType = (scalar: ScalarType): number => {
  switch (scalar) {
    case 'string':
    case 'bytes':
      return WireType.lengthDelimited;
    case 'double':
      return WireType.fixed64;
    case 'float':
      return WireType.fixed32;
    default:
      return WireType.varint;
  }
};

/** Reads one scalar of the given type, its wire type already checked. */
const readScalar = (
  reader: WireReader,
  scalar: ScalarType,
  where: string,
): string | number | boolean => {
  switch (scalar) {
    case 'string':
      return decodeString(reader.readBytes(), where);
    case 'bytes':
      return Buffer.from(reader.readBytes()).toString('base64');
    case 'bool':
      return reader.readVarint() !== 0n;
    case 'int32':
      return Number(BigInt.asIntN(32, reader.readVarint()));
    case 'uint32':
      return Number(BigInt.asUintN(32, reader.readVarint()));
    case 'int64':
      return toSafeNumber(BigInt.asIntN(64, reader.readVarint()), where);
    case 'uint64':
      return toSafeNumber(reader.readVarint(), where);
    case 'double':
      return finite(reader.readDouble(), where);
    case 'float':
      return finite(reader.readFloat(), where);
  }
};

const finite = (value: number, where: string): number => {
  if (!Number.isFinite(value))
    throw new UndecodableError(`${where} is ${value}, which JSON cannot hold`);
  return value;
};

const isZero = (value: unknown): boolean => value === '' || value === 0 || value === false;

/** Decodes the fields of a message embedded in `bytes`, by field number, into a handler. */
const forEachField = (
  bytes: Uint8Array,
  where: string,
  onField: (field: number, wireType: number, reader: WireReader) => boolean,
): void => {
  const reader = new WireReader(bytes);
  while (!reader.done) {
    const { field, wireType } = reader.readKey();
    if (!onField(field, wireType, reader)) {
      throw new UndecodableError(
        `${where} has field number ${field}, which this server does not know`,
      );
    }
  }
};

const requireWireType = (actual: number, expected: number, where: string): void => {
  if (actual !== expected) {
    throw new UndecodableError(`${where} has wire type ${actual}, expected ${expected}`);
  }
};

const parseJson = (bytes: Uint8Array, where: string): unknown => {
  const text = decodeString(bytes, where);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new UndecodableError(`${where} does not hold JSON`);
  }
};

/** Decodes one of the {@link WellKnownType} messages into its JSON value. */
const decodeWellKnown = (bytes: Uint8Array, type: WellKnownType, where: string): unknown => {
  switch (type) {
    case 'Time':
    case 'MicroTime': {
      if (bytes.length === 0) return null;
      let seconds = 0n;
      let nanos = 0;
      forEachField(bytes, where, (field, wireType, reader) => {
        if (field !== 1 && field !== 2) return false;
        requireWireType(wireType, WireType.varint, `${where}.${field}`);
        if (field === 1) seconds = BigInt.asIntN(64, reader.readVarint());
        else nanos = Number(BigInt.asIntN(32, reader.readVarint()));
        return true;
      });
      const text = formatGoTime(seconds, nanos, type === 'MicroTime');
      if (text === undefined) {
        throw new UndecodableError(
          `${where} (seconds ${seconds}, nanos ${nanos}) is not a time between years 1 and 9999`,
        );
      }
      return text;
    }
    case 'Duration': {
      let nanoseconds = 0n;
      forEachField(bytes, where, (field, wireType, reader) => {
        if (field !== 1) return false;
        requireWireType(wireType, WireType.varint, `${where}.${field}`);
        nanoseconds = BigInt.asIntN(64, reader.readVarint());
        return true;
      });
      return formatGoDuration(nanoseconds);
    }
    case 'Quantity': {
      let text: string | undefined;
      forEachField(bytes, where, (field, wireType, reader) => {
        if (field !== 1) return false;
        requireWireType(wireType, WireType.lengthDelimited, `${where}.${field}`);
        text = decodeString(reader.readBytes(), where);
        return true;
      });
      if (text === '') throw new UndecodableError(`${where} is an empty quantity string`);
      return text ?? '0';
    }
    case 'IntOrString': {
      let kind = 0n;
      let intVal = 0;
      let strVal = '';
      forEachField(bytes, where, (field, wireType, reader) => {
        if (field === 3) {
          requireWireType(wireType, WireType.lengthDelimited, `${where}.${field}`);
          strVal = decodeString(reader.readBytes(), where);
          return true;
        }
        if (field !== 1 && field !== 2) return false;
        requireWireType(wireType, WireType.varint, `${where}.${field}`);
        if (field === 1) kind = BigInt.asIntN(64, reader.readVarint());
        else intVal = Number(BigInt.asIntN(32, reader.readVarint()));
        return true;
      });
      if (kind === 0n) return intVal;
      if (kind === 1n) return strVal;
      throw new UndecodableError(
        `${where} has IntOrString type ${kind}, expected 0 (int) or 1 (string)`,
      );
    }
    case 'RawExtension':
    case 'FieldsV1': {
      let raw: Uint8Array | undefined;
      forEachField(bytes, where, (field, wireType, reader) => {
        if (field !== 1) return false;
        requireWireType(wireType, WireType.lengthDelimited, `${where}.${field}`);
        raw = reader.readBytes();
        return true;
      });
      return raw === undefined ? null : parseJson(raw, where);
    }
    case 'StringList': {
      const items: string[] = [];
      forEachField(bytes, where, (field, wireType, reader) => {
        if (field !== 1) return false;
        requireWireType(wireType, WireType.lengthDelimited, `${where}.${field}`);
        items.push(decodeString(reader.readBytes(), where));
        return true;
      });
      return items.length === 0 ? null : items;
    }
  }
};

/**
 * Decodes proto2 wire bytes of messages described by schemas into the JSON Go's encoding/json
 * produces for the typed Go object. Throws {@link UndecodableError} or {@link WireFormatError}
 * from `./wire-format-error.js` (never another error) for input it cannot decode faithfully.
 */
export class MessageDecoder {
  constructor(private readonly lookup: SchemaLookup) {}

  /** Decodes a whole message into a new object. */
  decode(bytes: Uint8Array, schema: MessageSchema): Record<string, unknown> {
    return this.decodeNew(bytes, schema, schema.name, 0);
  }

  private decodeNew(
    bytes: Uint8Array,
    schema: MessageSchema,
    where: string,
    depth: number,
  ): Record<string, unknown> {
    const target: Record<string, unknown> = {};
    this.decodeInto(bytes, schema, target, where, depth);
    return target;
  }

  private decodeInto(
    bytes: Uint8Array,
    schema: MessageSchema,
    target: Record<string, unknown>,
    where: string,
    depth: number,
  ): void {
    if (depth > maxDepth)
      throw new UndecodableError(`${where} nests messages deeper than ${maxDepth}`);
    forEachField(bytes, `message ${schema.name}`, (number, wireType, reader) => {
      const field = schema.fields.get(number);
      if (field === undefined) return false;
      this.decodeField(reader, wireType, field, target, `${where}.${field.json}`, depth);
      return true;
    });
  }

  private decodeField(
    reader: WireReader,
    wireType: number,
    field: FieldSchema,
    target: Record<string, unknown>,
    where: string,
    depth: number,
  ): void {
    const { value } = field;
    if (field.map) {
      requireWireType(wireType, WireType.lengthDelimited, where);
      const [key, entry] = this.decodeMapEntry(reader.readBytes(), value, where, depth);
      const map = this.container(target, field.json, where, false) as Record<string, unknown>;
      Object.defineProperty(map, key, {
        value: entry,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      return;
    }
    if (value.kind === 'scalar') {
      const expected = expectedWireType(value.scalar);
      if (field.repeated && wireType === WireType.lengthDelimited && isPackable(value.scalar)) {
        const packed = reader.readBytes();
        const inner = new WireReader(packed);
        const list = this.container(target, field.json, where, true) as unknown[];
        while (!inner.done) list.push(readScalar(inner, value.scalar, where));
        return;
      }
      requireWireType(wireType, expected, where);
      const scalar = readScalar(reader, value.scalar, where);
      if (field.repeated) {
        (this.container(target, field.json, where, true) as unknown[]).push(scalar);
      } else if (isZero(scalar) && !field.keepEmpty) {
        delete target[field.json];
      } else {
        target[field.json] = scalar;
      }
      return;
    }
    requireWireType(wireType, WireType.lengthDelimited, where);
    const bytes = reader.readBytes();
    if (value.kind === 'wellKnown') {
      const decoded = decodeWellKnown(bytes, value.wellKnown, where);
      if (field.repeated)
        (this.container(target, field.json, where, true) as unknown[]).push(decoded);
      else target[field.json] = decoded;
      return;
    }
    const schema = this.schemaOf(value.message);
    if (field.repeated) {
      const item = this.decodeNew(bytes, schema, where, depth + 1);
      (this.container(target, field.json, where, true) as unknown[]).push(item);
      return;
    }
    if (field.inline) {
      this.decodeInto(bytes, schema, target, where, depth + 1);
      return;
    }
    // A singular message seen twice merges, as proto2 and gogo-generated Go code do.
    const existing = target[field.json];
    const object =
      typeof existing === 'object' && existing !== null && !Array.isArray(existing)
        ? (existing as Record<string, unknown>)
        : {};
    this.decodeInto(bytes, schema, object, where, depth + 1);
    target[field.json] = object;
  }

  private decodeMapEntry(
    bytes: Uint8Array,
    value: ValueType,
    where: string,
    depth: number,
  ): [string, unknown] {
    let key = '';
    let entry: unknown;
    forEachField(bytes, `${where} map entry`, (number, wireType, reader) => {
      if (number === 1) {
        requireWireType(wireType, WireType.lengthDelimited, `${where} map key`);
        key = decodeString(reader.readBytes(), `${where} map key`);
        return true;
      }
      if (number !== 2) return false;
      if (value.kind === 'scalar') {
        requireWireType(wireType, expectedWireType(value.scalar), `${where} map value`);
        entry = readScalar(reader, value.scalar, `${where} map value`);
        return true;
      }
      requireWireType(wireType, WireType.lengthDelimited, `${where} map value`);
      const bytes = reader.readBytes();
      entry =
        value.kind === 'wellKnown'
          ? decodeWellKnown(bytes, value.wellKnown, `${where}[${key}]`)
          : this.decodeNew(bytes, this.schemaOf(value.message), `${where}[${key}]`, depth + 1);
      return true;
    });
    if (entry === undefined) entry = this.zeroOf(value, where, depth);
    return [key, entry];
  }

  private zeroOf(value: ValueType, where: string, depth: number): unknown {
    switch (value.kind) {
      case 'scalar':
        return value.scalar === 'bool'
          ? false
          : value.scalar === 'string' || value.scalar === 'bytes'
            ? ''
            : 0;
      case 'wellKnown':
        return decodeWellKnown(new Uint8Array(0), value.wellKnown, where);
      case 'message':
        return this.decodeNew(new Uint8Array(0), this.schemaOf(value.message), where, depth + 1);
    }
  }

  private schemaOf(name: string): MessageSchema {
    const schema = this.lookup(name);
    if (schema === undefined) throw new UndecodableError(`message ${name} has no schema`);
    return schema;
  }

  private container(
    target: Record<string, unknown>,
    key: string,
    where: string,
    array: boolean,
  ): unknown {
    const existing = target[key];
    if (existing !== undefined) {
      if (Array.isArray(existing) !== array)
        throw new UndecodableError(`${where} clashes with another field`);
      return existing;
    }
    const created = array ? [] : {};
    target[key] = created;
    return created;
  }
}
