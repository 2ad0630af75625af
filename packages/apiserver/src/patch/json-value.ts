/**
 * JSON values as the patch functions handle them, and the few operations they need on them:
 * telling objects from arrays, copying, and writing keys safely (`__proto__` included).
 */

/** Any JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;

/** A JSON object. */
export interface JsonObject {
  [key: string]: JsonValue;
}

/** Whether `object` has `key` as an own property (never one inherited from the prototype). */
export function hasKey(object: object, key: string): boolean {
  return Object.hasOwn(object, key);
}

/**
 * Sets `object[key]` as an own, enumerable property, even for `__proto__`, which plain
 * assignment would turn into a prototype change.
 */
export function setKey(object: JsonObject, key: string, value: JsonValue): void {
  if (key === '__proto__') {
    Object.defineProperty(object, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  } else {
    object[key] = value;
  }
}

/**
 * A deep copy of `value` as plain JSON, sharing nothing with the input: what
 * `JSON.parse(JSON.stringify(value))` gives, without the round trip. Object members whose
 * value is `undefined`, a function or a symbol are left out, and such array items become
 * `null`, as JSON serialization does; non-finite numbers become `null`. Objects with a
 * `toJSON` method (dates) are copied as what it returns.
 */
export function cloneJson(value: unknown): JsonValue {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'bigint':
      return Number(value);
    case 'object': {
      if (value === null) return null;
      if (Array.isArray(value)) {
        return value.map((item) => (isSkipped(item) ? null : cloneJson(item)));
      }
      const withToJson = value as { toJSON?: unknown };
      if (typeof withToJson.toJSON === 'function') {
        return cloneJson((withToJson.toJSON as () => unknown).call(value));
      }
      const copy: JsonObject = {};
      for (const [key, member] of Object.entries(value)) {
        if (!isSkipped(member)) setKey(copy, key, cloneJson(member));
      }
      return copy;
    }
    default:
      return null;
  }
}

function isSkipped(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** The kind of a JSON value, as JSON names it. */
export type JsonKind = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';

/** The {@link JsonKind} of `value`. */
export function jsonKind(value: JsonValue): JsonKind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'boolean':
      return 'boolean';
    case 'number':
      return 'number';
    case 'string':
      return 'string';
    default:
      return 'object';
  }
}
