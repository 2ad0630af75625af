import { describe, expect, it } from 'vitest';
import { createCelEnvironment } from './cel-environment.js';
import { celValueOf, SchemaTypes } from './cel-schema-types.js';

describe('SchemaTypes', () => {
  it('declares the CEL type of each kind of node', () => {
    const types = new SchemaTypes(createCelEnvironment());
    expect(types.typeOf({ type: 'integer' }, false)).toBe('int');
    expect(types.typeOf({ type: 'number' }, false)).toBe('double');
    expect(types.typeOf({ type: 'string', format: 'date-time' }, false)).toBe(
      'google.protobuf.Timestamp',
    );
    expect(types.typeOf({ type: 'string', format: 'duration' }, false)).toBe(
      'google.protobuf.Duration',
    );
    expect(types.typeOf({ type: 'string', format: 'byte' }, false)).toBe('bytes');
    expect(types.typeOf({ type: 'string', format: 'email' }, false)).toBe('string');
    expect(types.typeOf({ 'x-kubernetes-int-or-string': true }, false)).toBe('dyn');
    expect(types.typeOf({ type: 'array', items: { type: 'boolean' } }, false)).toBe('list<bool>');
    expect(types.typeOf({ type: 'array' }, false)).toBeUndefined();
    expect(types.typeOf({ type: 'object', additionalProperties: { type: 'string' } }, false)).toBe(
      'map<string, string>',
    );
    const object = { type: 'object', properties: { a: { type: 'string' } } };
    const name = types.typeOf(object, false);
    expect(name).toMatch(/^Object\d+$/);
    expect(types.typeOf(object, false)).toBe(name);
  });

  it('type-checks field access against the declared properties', () => {
    const env = createCelEnvironment();
    const types = new SchemaTypes(env);
    const root = types.typeOf(
      {
        type: 'object',
        properties: { spec: { type: 'object', properties: { 'a-b': { type: 'integer' } } } },
      },
      true,
    );
    const checked = env.clone().registerVariable('self', root ?? 'dyn');
    expect(
      checked.check('self.spec.a__dash__b + 1 > 0 && self.metadata.name != self.kind').valid,
    ).toBe(true);
    expect(checked.check('self.spec.c').valid).toBe(false);
    expect(checked.check('self.metadata.namespace').valid).toBe(false);
  });
});

describe('celValueOf', () => {
  it('converts integers to CEL ints, escapes names and keeps map keys', () => {
    const schema = {
      type: 'object',
      properties: {
        'max-surge': { 'x-kubernetes-int-or-string': true },
        n: { type: 'integer' },
        d: { type: 'number' },
        m: { type: 'object', additionalProperties: { type: 'integer' } },
        l: { type: 'array', items: { type: 'integer' } },
      },
    };
    expect(
      celValueOf(schema, { 'max-surge': 3, n: 2, d: 2, m: { 'a-b': 1 }, l: [1], undeclared: 1 }),
    ).toEqual({ max__dash__surge: 3n, n: 2n, d: 2, m: { 'a-b': 1n }, l: [1n] });
  });

  it('keeps only apiVersion, kind, metadata.name and generateName of the root metadata', () => {
    expect(
      celValueOf(
        { type: 'object', properties: { spec: { type: 'object' } } },
        { apiVersion: 'v', kind: 'K', metadata: { name: 'n', uid: 'u', labels: {} }, spec: {} },
        true,
      ),
    ).toEqual({ apiVersion: 'v', kind: 'K', metadata: { name: 'n' }, spec: {} });
  });
});
