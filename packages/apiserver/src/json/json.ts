/**
 * The JSON helpers every part of the server uses: API objects read defensively (a member of
 * the wrong type reads as empty), canonical text and deep copies of JSON values. Depends on
 * nothing of the server, so that every folder may import it.
 */
import { isJsonObject } from '@ops/api';

/** A JSON object, loosely typed: objects of the API are read defensively. */
export type Json = Record<string, unknown>;

/** `value` when it is an object, else an empty one. */
export function objectOr(value: unknown): Json {
  return isJsonObject(value) ? value : {};
}

/** The objects of `value` when it is an array, else none. */
export function objectsOf(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isJsonObject) : [];
}

/** `value` when it is a string, else `fallback`. */
export function stringOr(value: unknown, fallback = ''): string {
  return typeof value === 'string' ? value : fallback;
}

/** `value` when it is a finite number, else `fallback`. */
export function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

/** A deep copy of a JSON value (objects and arrays copied, scalars shared). */
export function jsonCopy<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => jsonCopy(item)) as T;
  if (isJsonObject(value)) {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = jsonCopy(item);
    return copy as T;
  }
  return value;
}

/** A canonical JSON text for a value (sorted keys), for set membership of compound values. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isJsonObject(value)) {
    const keys = Object.keys(value)
      .filter((key) => value[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(',')}}`;
  }
  if (typeof value === 'bigint') return value.toString();
  return JSON.stringify(value) ?? 'null';
}
