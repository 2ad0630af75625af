import { WireFormatError } from './wire-format-error.js';

/** Protobuf wire types this reader accepts (groups, 3 and 4, are rejected). */
export const WireType = { varint: 0, fixed64: 1, lengthDelimited: 2, fixed32: 5 } as const;

/** A field key: field number and wire type. */
export interface FieldKey {
  readonly field: number;
  readonly wireType: number;
}

const maxFieldNumber = 2 ** 29 - 1;

/**
 * Reads protobuf wire format from a byte range. Every read is bounds-checked against the range:
 * reading past its end, an overlong varint, a field number 0 or above 2^29-1, or a wire type
 * other than 0, 1, 2 or 5 throws {@link WireFormatError}. Never throws anything else.
 */
export class WireReader {
  private pos: number;

  constructor(
    private readonly buf: Uint8Array,
    start = 0,
    private readonly end = buf.length,
  ) {
    if (start < 0 || end > buf.length || start > end) {
      throw new WireFormatError(
        `range ${start}..${end} outside a buffer of ${buf.length} bytes`,
        start,
      );
    }
    this.pos = start;
  }

  /** Current position within the underlying buffer. */
  get offset(): number {
    return this.pos;
  }

  /** True when the whole range has been read. */
  get done(): boolean {
    return this.pos >= this.end;
  }

  /** Reads a base-128 varint of at most 10 bytes as an unsigned 64-bit integer. */
  readVarint(): bigint {
    const start = this.pos;
    let low = 0;
    let shift = 0;
    // Fast path: up to 4 bytes (28 bits) fit a small integer.
    while (shift < 28) {
      const byte = this.byteAt(start);
      low |= (byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return BigInt(low >>> 0);
      shift += 7;
    }
    let value = BigInt(low >>> 0);
    let bigShift = 28n;
    for (let i = 4; i < 10; i++) {
      const byte = this.byteAt(start);
      if (i === 9 && byte > 1) throw new WireFormatError('varint overflows 64 bits', start);
      value |= BigInt(byte & 0x7f) << bigShift;
      if ((byte & 0x80) === 0) return value;
      bigShift += 7n;
    }
    throw new WireFormatError('varint longer than 10 bytes', start);
  }

  /** Reads a varint that must fit a non-negative safe integer (lengths, keys). */
  readSmallVarint(what: string): number {
    const start = this.pos;
    const value = this.readVarint();
    if (value > BigInt(Number.MAX_SAFE_INTEGER))
      throw new WireFormatError(`${what} is too large`, start);
    return Number(value);
  }

  /** Reads a field key; throws for field number 0 or out of range and for unsupported wire types. */
  readKey(): FieldKey {
    const start = this.pos;
    const key = this.readVarint();
    if (key > 0xffffffffn) throw new WireFormatError('field key overflows 32 bits', start);
    const wireType = Number(key & 7n);
    const field = Number(key >> 3n);
    if (field === 0 || field > maxFieldNumber)
      throw new WireFormatError(`invalid field number ${field}`, start);
    if (wireType === 3 || wireType === 4)
      throw new WireFormatError(`groups (wire type ${wireType}) are not supported`, start);
    if (wireType > 5) throw new WireFormatError(`invalid wire type ${wireType}`, start);
    return { field, wireType };
  }

  /** Reads 8 little-endian bytes as an unsigned 64-bit integer. */
  readFixed64(): bigint {
    const start = this.take(8);
    return new DataView(this.buf.buffer, this.buf.byteOffset + start, 8).getBigUint64(0, true);
  }

  /** Reads 8 little-endian bytes as an IEEE 754 double. */
  readDouble(): number {
    const start = this.take(8);
    return new DataView(this.buf.buffer, this.buf.byteOffset + start, 8).getFloat64(0, true);
  }

  /** Reads 4 little-endian bytes as an unsigned 32-bit integer. */
  readFixed32(): number {
    const start = this.take(4);
    return new DataView(this.buf.buffer, this.buf.byteOffset + start, 4).getUint32(0, true);
  }

  /** Reads 4 little-endian bytes as an IEEE 754 float. */
  readFloat(): number {
    const start = this.take(4);
    return new DataView(this.buf.buffer, this.buf.byteOffset + start, 4).getFloat32(0, true);
  }

  /** Reads a length-delimited payload; the result is a view of the buffer, not a copy. */
  readBytes(): Uint8Array {
    const length = this.readSmallVarint('length');
    const start = this.take(length);
    return this.buf.subarray(start, start + length);
  }

  /** Skips one value of the given wire type. */
  skip(wireType: number): void {
    switch (wireType) {
      case WireType.varint:
        this.readVarint();
        return;
      case WireType.fixed64:
        this.take(8);
        return;
      case WireType.lengthDelimited:
        this.readBytes();
        return;
      case WireType.fixed32:
        this.take(4);
        return;
      default:
        throw new WireFormatError(`cannot skip wire type ${wireType}`, this.pos);
    }
  }

  private byteAt(start: number): number {
    const byte = this.buf[this.pos];
    if (this.pos >= this.end || byte === undefined)
      throw new WireFormatError('truncated varint', start);
    this.pos++;
    return byte;
  }

  private take(length: number): number {
    const start = this.pos;
    if (length > this.end - start) {
      throw new WireFormatError(
        `truncated: ${length} bytes needed, ${this.end - start} left`,
        start,
      );
    }
    this.pos += length;
    return start;
  }
}
