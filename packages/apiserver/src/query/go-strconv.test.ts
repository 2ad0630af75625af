import { describe, expect, it } from 'vitest';
import { parseGoInt64, parseGoUint64 } from './go-strconv.js';

describe('parseGoInt64', () => {
  it('accepts what strconv.ParseInt(s, 10, 64) accepts', () => {
    expect(parseGoInt64('+5')).toEqual({ ok: true, value: 5n });
    expect(parseGoInt64('-9223372036854775808')).toEqual({ ok: true, value: -(2n ** 63n) });
    expect(parseGoInt64('007')).toEqual({ ok: true, value: 7n });
  });

  it('refuses the rest with Go error text', () => {
    expect(parseGoInt64('0x10')).toEqual({
      ok: false,
      message: 'strconv.ParseInt: parsing "0x10": invalid syntax',
    });
    expect(parseGoInt64(' 5')).toMatchObject({ ok: false });
    expect(parseGoInt64('9223372036854775808')).toEqual({
      ok: false,
      message: 'strconv.ParseInt: parsing "9223372036854775808": value out of range',
    });
  });
});

describe('parseGoUint64', () => {
  it('takes digits only, up to 2^64-1', () => {
    expect(parseGoUint64('18446744073709551615')).toEqual({ ok: true, value: 2n ** 64n - 1n });
    expect(parseGoUint64('+1')).toEqual({
      ok: false,
      message: 'strconv.ParseUint: parsing "+1": invalid syntax',
    });
    expect(parseGoUint64('18446744073709551616')).toMatchObject({ ok: false });
  });
});
