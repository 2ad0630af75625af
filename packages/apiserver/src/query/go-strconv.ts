/**
 * Go's `strconv.ParseInt(s, 10, 64)` and `strconv.ParseUint(s, 10, 64)`, with the error text Go
 * gives, since kube-apiserver puts that text in its 400 answers (apimachinery's
 * `runtime.Convert_Slice_string_To_int64` returns the `*strconv.NumError` as it is).
 */

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;
const uint64Max = 2n ** 64n - 1n;

/** The outcome of a parse: the value, or Go's error text. */
export type GoParse = { ok: true; value: bigint } | { ok: false; message: string };

const failure = (func: string, text: string, reason: string): GoParse => ({
  ok: false,
  message: `strconv.${func}: parsing ${JSON.stringify(text)}: ${reason}`,
});

/**
 * Parses a base-10 signed 64-bit integer as Go does: an optional `+` or `-`, then ASCII digits
 * only (no spaces, no exponent, no `0x`). The value is a bigint, since int64 exceeds a double.
 * Failures read `strconv.ParseInt: parsing "abc": invalid syntax` or `... value out of range`.
 */
export function parseGoInt64(text: string): GoParse {
  if (!/^[+-]?[0-9]+$/.test(text)) return failure('ParseInt', text, 'invalid syntax');
  const value = BigInt(text);
  if (value < int64Min || value > int64Max) return failure('ParseInt', text, 'value out of range');
  return { ok: true, value };
}

/**
 * Parses a base-10 unsigned 64-bit integer as Go does: ASCII digits only, no sign. Failures
 * read `strconv.ParseUint: parsing "-1": invalid syntax` or `... value out of range`.
 */
export function parseGoUint64(text: string): GoParse {
  if (!/^[0-9]+$/.test(text)) return failure('ParseUint', text, 'invalid syntax');
  const value = BigInt(text);
  if (value > uint64Max) return failure('ParseUint', text, 'value out of range');
  return { ok: true, value };
}
