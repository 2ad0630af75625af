import { describe, expect, it } from 'vitest';
import { WireFormatError } from './wire-format-error.js';
import { WireReader } from './wire-reader.js';

const reader = (...bytes: number[]) => new WireReader(Uint8Array.from(bytes));
const failure = (read: () => unknown): WireFormatError => {
  try {
    read();
  } catch (error) {
    if (WireFormatError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a WireFormatError');
};

describe('WireReader', () => {
  it('reads varints of one to ten bytes', () => {
    expect(reader(0x00).readVarint()).toBe(0n);
    expect(reader(0x96, 0x01).readVarint()).toBe(150n);
    expect(reader(0xff, 0xff, 0xff, 0xff, 0x0f).readVarint()).toBe(0xffffffffn);
    expect(reader(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01).readVarint()).toBe(
      2n ** 64n - 1n,
    );
    const r = reader(0xac, 0x02, 0x05);
    expect(r.readVarint()).toBe(300n);
    expect(r.readVarint()).toBe(5n);
    expect(r.done).toBe(true);
  });

  it('rejects truncated and overlong varints', () => {
    expect(failure(() => reader(0x80, 0x80).readVarint()).message).toBe(
      'truncated varint at byte 0',
    );
    expect(
      failure(() => reader(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02).readVarint())
        .message,
    ).toContain('overflows 64 bits');
    expect(
      failure(() => reader(...new Array<number>(11).fill(0x80)).readVarint()).message,
    ).toContain('overflows');
  });

  it('reads keys and rejects field 0, groups and bad wire types', () => {
    expect(reader(0x0a).readKey()).toEqual({ field: 1, wireType: 2 });
    expect(reader(0xf8, 0x01).readKey()).toEqual({ field: 31, wireType: 0 });
    expect(failure(() => reader(0x02).readKey()).message).toContain('invalid field number 0');
    expect(failure(() => reader(0x0b).readKey()).message).toContain('groups');
    expect(failure(() => reader(0x0e).readKey()).message).toContain('invalid wire type 6');
    expect(failure(() => reader(0xff, 0xff, 0xff, 0xff, 0x7f).readKey()).message).toContain(
      'overflows 32 bits',
    );
  });

  it('reads fixed-width values little-endian', () => {
    expect(reader(1, 0, 0, 0, 0, 0, 0, 0x80).readFixed64()).toBe(2n ** 63n + 1n);
    expect(reader(0x78, 0x56, 0x34, 0x12).readFixed32()).toBe(0x12345678);
    const double = Buffer.alloc(8);
    double.writeDoubleLE(1.5);
    expect(reader(...double).readDouble()).toBe(1.5);
    expect(reader(0, 0, 0xc0, 0x3f).readFloat()).toBe(1.5);
    expect(failure(() => reader(1, 2, 3).readFixed32()).message).toBe(
      'truncated: 4 bytes needed, 3 left at byte 0',
    );
  });

  it('reads length-delimited bytes within bounds only', () => {
    const r = reader(0x03, 0x61, 0x62, 0x63, 0x01);
    expect(Buffer.from(r.readBytes()).toString()).toBe('abc');
    expect(failure(() => r.readBytes()).message).toContain('truncated: 1 bytes needed, 0 left');
    expect(
      failure(() => reader(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f).readBytes())
        .message,
    ).toContain('length is too large');
  });

  it('stays inside its range of a larger buffer', () => {
    const r = new WireReader(Uint8Array.from([0x01, 0x02, 0x03]), 1, 2);
    expect(r.readVarint()).toBe(2n);
    expect(r.done).toBe(true);
    expect(failure(() => r.readVarint()).message).toBe('truncated varint at byte 2');
    expect(failure(() => new WireReader(Uint8Array.from([1]), 0, 5)).message).toContain('outside');
  });

  it('skips every supported wire type', () => {
    const r = reader(0x96, 0x01, 1, 2, 3, 4, 5, 6, 7, 8, 0x02, 0x61, 0x62, 1, 2, 3, 4, 0x07);
    r.skip(0);
    r.skip(1);
    r.skip(2);
    r.skip(5);
    expect(r.readVarint()).toBe(7n);
    expect(failure(() => reader(0).skip(3)).message).toContain('cannot skip wire type 3');
  });
});
