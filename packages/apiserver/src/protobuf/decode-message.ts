import { isJsonObject } from '@ops/api';
import protobuf from 'protobufjs/light.js';
import { formatGoDuration, formatGoTime } from './go-time-format.js';
import {
  fieldMessage,
  isInline,
  jsonNameOf,
  keepsZero,
  messageName,
  type WellKnownType,
  wellKnownOf,
} from './kubernetes-protos.js';
import { UndecodableError } from './undecodable-error.js';
import { WireFormatError } from './wire-format-error.js';

/** Protobuf wire types. */
const WireType = { varint: 0, fixed64: 1, lengthDelimited: 2, fixed32: 5 } as const;

const utf8 = new TextDecoder('utf-8', { fatal: true });
const maxDepth = 64;
const maxSafe = BigInt(Number.MAX_SAFE_INTEGER);

const decodeString = (bytes: Uint8Array, where: string): string => {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new UndecodableError(`${where} is not valid UTF-8`);
  }
};

/** An int64/uint64 as protobufjs reads it (a long.js Long, or a number without long.js). */
const toSafeNumber = (value: protobuf.Long | number, where: string): number => {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) {
      throw new UndecodableError(
        `${where} = ${value} is beyond the integers JSON numbers hold exactly (±2^53-1)`,
      );
    }
    return value;
  }
  const exact = BigInt(value.toString());
  if (exact > maxSafe || exact < -maxSafe) {
    throw new UndecodableError(
      `${where} = ${exact} is beyond the integers JSON numbers hold exactly (±2^53-1)`,
    );
  }
  return Number(exact);
};

const finite = (value: number, where: string): number => {
  if (!Number.isFinite(value))
    throw new UndecodableError(`${where} is ${value}, which JSON cannot hold`);
  return value;
};

/** The wire type a value of a scalar protobuf type has when it is not packed. */
const expectedWireType = (type: string): number => {
  switch (type) {
    case 'double':
    case 'fixed64':
    case 'sfixed64':
      return WireType.fixed64;
    case 'float':
    case 'fixed32':
    case 'sfixed32':
      return WireType.fixed32;
    case 'string':
    case 'bytes':
      return WireType.lengthDelimited;
    default:
      return WireType.varint;
  }
};

/** Reads one scalar of a protobuf scalar type, its wire type already checked, as JSON. */
const readScalar = (
  reader: protobuf.Reader,
  type: string,
  where: string,
): string | number | boolean => {
  switch (type) {
    case 'string':
      return decodeString(reader.bytes(), where);
    case 'bytes':
      return Buffer.from(reader.bytes()).toString('base64');
    case 'bool':
      return reader.bool();
    case 'int32':
      return reader.int32();
    case 'uint32':
      return reader.uint32();
    case 'sint32':
      return reader.sint32();
    case 'fixed32':
      return reader.fixed32();
    case 'sfixed32':
      return reader.sfixed32();
    case 'int64':
      return toSafeNumber(reader.int64(), where);
    case 'uint64':
      return toSafeNumber(reader.uint64(), where);
    case 'sint64':
      return toSafeNumber(reader.sint64(), where);
    case 'fixed64':
      return toSafeNumber(reader.fixed64(), where);
    case 'sfixed64':
      return toSafeNumber(reader.sfixed64(), where);
    case 'double':
      return finite(reader.double(), where);
    case 'float':
      return finite(reader.float(), where);
    default:
      throw new UndecodableError(
        `${where} has protobuf type ${type}, which this server cannot map`,
      );
  }
};

/** Scalar types that may be packed (every one but string and bytes). */
const packable: ReadonlySet<string> = new Set(Object.keys(protobuf.types.packed));

const isZero = (value: unknown): boolean => value === '' || value === 0 || value === false;

const requireWireType = (actual: number, expected: number, where: string): void => {
  if (actual !== expected) {
    throw new UndecodableError(`${where} has wire type ${actual}, expected ${expected}`);
  }
};

/**
 * Calls `onField` for each field of the message in `bytes`; `onField` returns false for a field
 * number the message does not have.
 */
const forEachField = (
  bytes: Uint8Array,
  where: string,
  onField: (field: number, wireType: number, reader: protobuf.Reader) => boolean,
): void => {
  const reader = protobuf.Reader.create(bytes);
  while (reader.pos < reader.len) {
    const key = reader.uint32();
    const field = key >>> 3;
    if (field === 0) throw new WireFormatError('field number 0', reader.pos);
    if (!onField(field, key & 7, reader)) {
      throw new UndecodableError(
        `${where} has field number ${field}, which this server does not know`,
      );
    }
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
        if (field === 1) seconds = BigInt(reader.int64().toString());
        else nanos = reader.int32();
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
        nanoseconds = BigInt(reader.int64().toString());
        return true;
      });
      return formatGoDuration(nanoseconds);
    }
    case 'Quantity': {
      let text: string | undefined;
      forEachField(bytes, where, (field, wireType, reader) => {
        if (field !== 1) return false;
        requireWireType(wireType, WireType.lengthDelimited, `${where}.${field}`);
        text = decodeString(reader.bytes(), where);
        return true;
      });
      if (text === '') throw new UndecodableError(`${where} is an empty quantity string`);
      return text ?? '0';
    }
    case 'IntOrString': {
      let kind = 0;
      let intVal = 0;
      let strVal = '';
      forEachField(bytes, where, (field, wireType, reader) => {
        if (field === 3) {
          requireWireType(wireType, WireType.lengthDelimited, `${where}.${field}`);
          strVal = decodeString(reader.bytes(), where);
          return true;
        }
        if (field !== 1 && field !== 2) return false;
        requireWireType(wireType, WireType.varint, `${where}.${field}`);
        if (field === 1) kind = toSafeNumber(reader.int64(), `${where}.type`);
        else intVal = reader.int32();
        return true;
      });
      if (kind === 0) return intVal;
      if (kind === 1) return strVal;
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
        raw = reader.bytes();
        return true;
      });
      return raw === undefined ? null : parseJson(raw, where);
    }
    case 'StringList': {
      const items: string[] = [];
      forEachField(bytes, where, (field, wireType, reader) => {
        if (field !== 1) return false;
        requireWireType(wireType, WireType.lengthDelimited, `${where}.${field}`);
        items.push(decodeString(reader.bytes(), where));
        return true;
      });
      return items.length === 0 ? null : items;
    }
  }
};

/** Turns protobufjs's reader errors (truncated input, bad varint, bad wire type) into ours. */
const asWireFormatError = (error: unknown): unknown => {
  if (!(error instanceof Error) || UndecodableError.isInstance(error)) return error;
  if (WireFormatError.isInstance(error)) return error;
  const range = /^index out of range: (\d+) \+ (\d+) > (\d+)$/.exec(error.message);
  if (error instanceof RangeError && range) {
    return new WireFormatError(`truncated: ${range[2]} more bytes needed`, Number(range[1]));
  }
  const invalid = /^(invalid (?:varint encoding|wire type \d+))(?: at offset (\d+))?$/.exec(
    error.message,
  );
  if (invalid) return new WireFormatError(invalid[1] ?? error.message, Number(invalid[2] ?? -1));
  return error;
};

/**
 * Decodes proto2 wire bytes of the Kubernetes messages in {@link kubernetesProtos} (protobufjs
 * reflection) into the JSON Go's encoding/json produces for the typed Go object: JSON names,
 * inline structs and `omitempty` from the Go struct tags, the {@link WellKnownType} forms.
 * Throws {@link UndecodableError} or {@link WireFormatError} (never another error) for input it
 * cannot decode faithfully: an unknown field number, a wrong wire type, invalid UTF-8, an integer
 * beyond ±2^53-1, truncated or malformed bytes.
 */
export const decodeMessage = (bytes: Uint8Array, type: protobuf.Type): Record<string, unknown> => {
  try {
    const target: Record<string, unknown> = {};
    decodeInto(bytes, type, target, messageName(type), 0);
    return target;
  } catch (error) {
    throw asWireFormatError(error);
  }
};

const decodeNew = (
  bytes: Uint8Array,
  type: protobuf.Type,
  where: string,
  depth: number,
): unknown => {
  const wellKnown = wellKnownOf(type);
  if (wellKnown !== undefined) return decodeWellKnown(bytes, wellKnown, where);
  const target: Record<string, unknown> = {};
  decodeInto(bytes, type, target, where, depth);
  return target;
};

const decodeInto = (
  bytes: Uint8Array,
  type: protobuf.Type,
  target: Record<string, unknown>,
  where: string,
  depth: number,
): void => {
  if (depth > maxDepth)
    throw new UndecodableError(`${where} nests messages deeper than ${maxDepth}`);
  forEachField(bytes, `message ${messageName(type)}`, (number, wireType, reader) => {
    const field = type.fieldsById[number];
    if (field === undefined) return false;
    decodeField(reader, wireType, field, target, `${where}.${jsonNameOf(field)}`, depth);
    return true;
  });
};

const decodeField = (
  reader: protobuf.Reader,
  wireType: number,
  field: protobuf.Field,
  target: Record<string, unknown>,
  where: string,
  depth: number,
): void => {
  const json = jsonNameOf(field);
  const message = fieldMessage(field);
  if (field.map) {
    requireWireType(wireType, WireType.lengthDelimited, where);
    const [key, entry] = decodeMapEntry(reader.bytes(), field, message, where, depth);
    const map = container(target, json, where, false) as Record<string, unknown>;
    Object.defineProperty(map, key, {
      value: entry,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    return;
  }
  if (message === undefined) {
    if (field.repeated && wireType === WireType.lengthDelimited && packable.has(field.type)) {
      const packed = protobuf.Reader.create(reader.bytes());
      const list = container(target, json, where, true) as unknown[];
      while (packed.pos < packed.len) list.push(readScalar(packed, field.type, where));
      return;
    }
    requireWireType(wireType, expectedWireType(field.type), where);
    const scalar = readScalar(reader, field.type, where);
    if (field.repeated) {
      (container(target, json, where, true) as unknown[]).push(scalar);
    } else if (isZero(scalar) && !keepsZero(field)) {
      delete target[json];
    } else {
      target[json] = scalar;
    }
    return;
  }
  requireWireType(wireType, WireType.lengthDelimited, where);
  const bytes = reader.bytes();
  if (field.repeated) {
    (container(target, json, where, true) as unknown[]).push(
      decodeNew(bytes, message, where, depth + 1),
    );
    return;
  }
  if (wellKnownOf(message) !== undefined) {
    target[json] = decodeNew(bytes, message, where, depth + 1);
    return;
  }
  if (isInline(field)) {
    decodeInto(bytes, message, target, where, depth + 1);
    return;
  }
  // A singular message seen twice merges, as proto2 and gogo-generated Go code do.
  const existing = target[json];
  const object = isJsonObject(existing) ? existing : {};
  decodeInto(bytes, message, object, where, depth + 1);
  target[json] = object;
};

const decodeMapEntry = (
  bytes: Uint8Array,
  field: protobuf.Field,
  message: protobuf.Type | undefined,
  where: string,
  depth: number,
): [string, unknown] => {
  let key = '';
  let entry: unknown;
  forEachField(bytes, `${where} map entry`, (number, wireType, reader) => {
    if (number === 1) {
      requireWireType(wireType, WireType.lengthDelimited, `${where} map key`);
      key = decodeString(reader.bytes(), `${where} map key`);
      return true;
    }
    if (number !== 2) return false;
    if (message === undefined) {
      requireWireType(wireType, expectedWireType(field.type), `${where} map value`);
      entry = readScalar(reader, field.type, `${where} map value`);
      return true;
    }
    requireWireType(wireType, WireType.lengthDelimited, `${where} map value`);
    entry = decodeNew(reader.bytes(), message, `${where}[${key}]`, depth + 1);
    return true;
  });
  if (entry === undefined) {
    entry =
      message !== undefined
        ? decodeNew(new Uint8Array(0), message, where, depth + 1)
        : field.type === 'bool'
          ? false
          : field.type === 'string' || field.type === 'bytes'
            ? ''
            : 0;
  }
  return [key, entry];
};

const container = (
  target: Record<string, unknown>,
  key: string,
  where: string,
  array: boolean,
): unknown => {
  const existing = target[key];
  if (existing !== undefined) {
    if (Array.isArray(existing) !== array)
      throw new UndecodableError(`${where} clashes with another field`);
    return existing;
  }
  const created = array ? [] : {};
  target[key] = created;
  return created;
};
