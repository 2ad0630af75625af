import { describe, expect, it } from 'vitest';
import { isJsonObject, jsonEqual } from './json.js';

describe('isJsonObject', () => {
  it('holds for objects only: not null, arrays or scalars', () => {
    expect(isJsonObject({})).toBe(true);
    expect(isJsonObject({ a: 1 })).toBe(true);
    expect(isJsonObject(null)).toBe(false);
    expect(isJsonObject([])).toBe(false);
    expect(isJsonObject('x')).toBe(false);
    expect(isJsonObject(1)).toBe(false);
    expect(isJsonObject(undefined)).toBe(false);
  });
});

describe('jsonEqual', () => {
  it('ignores key order and compares nested values', () => {
    expect(jsonEqual({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1, b: { c: [1, 2] } }, { a: 1, b: { c: [2, 1] } })).toBe(false);
  });
  it('counts an undefined member as absent', () => {
    expect(jsonEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(true);
    expect(jsonEqual({ a: 1, b: undefined }, { a: 1, c: 2 })).toBe(false);
  });
  it('compares numbers by value, bigint and number alike', () => {
    expect(jsonEqual(3n, 3)).toBe(true);
    expect(jsonEqual(3, 3.5)).toBe(false);
    expect(jsonEqual(1, '1')).toBe(false);
  });
  it('tells arrays from objects and null from an empty object', () => {
    expect(jsonEqual([], {})).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
    expect(jsonEqual([1], [1, 2])).toBe(false);
    expect(jsonEqual({ a: {} }, { a: [] })).toBe(false);
    expect(jsonEqual({ a: null }, { a: {} })).toBe(false);
    expect(jsonEqual(null, null)).toBe(true);
  });
});
