/**
 * The TypeBox schema used for client-side checks of values (defaults, `validate`): the
 * declared schema without string `format`s. TypeBox rejects every string format that is not
 * registered in its global `FormatRegistry` (`date-time`, `int-or-string`, ...), and this
 * package registers none (no globals at import time); the API server checks formats.
 */
import type { TSchema } from '@sinclair/typebox';

/** A deep copy of `schema` (symbols included) without `format` on string nodes. */
export function valueSchemaOf<T extends TSchema>(schema: T): T {
  return copy(schema) as T;
}

function copy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copy);
  if (typeof value !== 'object' || value === null) return value;
  const source = value as Record<string | symbol, unknown>;
  const result: Record<string | symbol, unknown> = {};
  const isString = source.type === 'string';
  for (const key of Reflect.ownKeys(source)) {
    if (isString && key === 'format') continue;
    // Defaults and examples are values, not schemas: kept as they are.
    result[key] = key === 'default' || key === 'example' ? source[key] : copy(source[key]);
  }
  return result;
}
