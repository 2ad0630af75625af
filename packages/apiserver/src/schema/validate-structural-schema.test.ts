import type { JSONSchemaProps } from '@ops/api';
import { describe, expect, it } from 'vitest';
import { formatFieldError } from '../api/field-error.js';
import { validateStructuralSchema } from './validate-structural-schema.js';

const base = 'spec.versions[0].schema.openAPIV3Schema';

function check(schema: unknown): string[] {
  return validateStructuralSchema(schema, base).map(formatFieldError);
}

function withSpec(spec: JSONSchemaProps): JSONSchemaProps {
  return { type: 'object', properties: { spec } };
}

const balancer: JSONSchemaProps = {
  type: 'object',
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 63 } } },
    spec: {
      type: 'object',
      required: ['backends'],
      properties: {
        backends: {
          type: 'array',
          minItems: 1,
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: {
            type: 'object',
            required: ['name'],
            properties: {
              name: { type: 'string', minLength: 1 },
              weight: { type: 'integer', minimum: 1, default: 1 },
              selector: { type: 'object', additionalProperties: { type: 'string' } },
            },
          },
        },
        targetPort: {
          'x-kubernetes-int-or-string': true,
          anyOf: [{ type: 'integer' }, { type: 'string' }],
        },
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-preserve-unknown-fields': true,
        },
        config: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        mode: {
          type: 'string',
          'x-kubernetes-validations': [{ rule: 'self != "x"' }],
          allOf: [{ minLength: 1 }, { not: { enum: ['off'] } }],
        },
      },
      oneOf: [{ required: ['backends'] }],
    },
  },
};

describe('validateStructuralSchema', () => {
  it('accepts a realistic structural schema', () => {
    expect(check(balancer)).toEqual([]);
    expect(
      validateStructuralSchema({ type: 'object', properties: { spec: { type: 'object' } } }),
    ).toEqual([]);
  });

  it('requires a type on every field, item and the root', () => {
    expect(check(withSpec({ properties: { a: {} } }))).toEqual([
      `${base}.properties[spec].properties[a].type: Required value: must not be empty for specified object fields`,
      `${base}.properties[spec].type: Required value: must not be empty for specified object fields`,
    ]);
    expect(check(withSpec({ type: 'array', items: {} }))).toEqual([
      `${base}.properties[spec].items.type: Required value: must not be empty for specified array items`,
    ]);
    expect(check({ properties: {} })).toEqual([
      `${base}.type: Required value: must not be empty at the root`,
    ]);
    expect(validateStructuralSchema({ properties: {} }).map(formatFieldError)).toEqual([
      'openAPIV3Schema.type: Required value: must not be empty at the root',
    ]);
  });

  it('lets int-or-string and preserve-unknown-fields nodes omit the type', () => {
    expect(
      check(
        withSpec({
          type: 'object',
          properties: {
            port: { 'x-kubernetes-int-or-string': true },
            raw: { 'x-kubernetes-preserve-unknown-fields': true },
          },
        }),
      ),
    ).toEqual([]);
  });

  it('requires an object root without additionalProperties', () => {
    expect(check({ type: 'string' })).toEqual([
      `${base}.type: Invalid value: "string": must be object at the root`,
    ]);
    expect(check({ type: 'object', additionalProperties: { type: 'string' } })).toEqual([
      `${base}.additionalProperties: Forbidden: must not be used at the root`,
    ]);
  });

  it('requires items for arrays', () => {
    expect(check(withSpec({ type: 'array' }))).toEqual([
      `${base}.properties[spec].items: Required value: must be specified`,
    ]);
  });

  it('forbids structural keywords under allOf, anyOf, oneOf and not', () => {
    const errors = check(
      withSpec({
        type: 'object',
        properties: { a: { type: 'string' } },
        anyOf: [{ type: 'object', description: 'x' }],
        allOf: [{ properties: { a: { nullable: true, default: 'x' } } }],
        oneOf: [{ additionalProperties: { type: 'string' }, 'x-kubernetes-list-type': 'set' }],
        not: { 'x-kubernetes-preserve-unknown-fields': true, title: 't' },
      }),
    );
    expect(errors).toEqual([
      // A CRD schema rule (checked under junctors too) comes first, then the sorted structural ones.
      `${base}.properties[spec].oneOf[0].type: Required value: must be array if x-kubernetes-list-type is specified`,
      ...[
        `${base}.properties[spec].allOf[0].properties[a].default: Forbidden: must be undefined to be structural`,
        `${base}.properties[spec].allOf[0].properties[a].nullable: Forbidden: must be false to be structural`,
        `${base}.properties[spec].anyOf[0].description: Forbidden: must be empty to be structural`,
        `${base}.properties[spec].anyOf[0].type: Forbidden: must be empty to be structural`,
        `${base}.properties[spec].not.title: Forbidden: must be empty to be structural`,
        `${base}.properties[spec].not.x-kubernetes-preserve-unknown-fields: Forbidden: must be false to be structural`,
        `${base}.properties[spec].oneOf[0].additionalProperties: Forbidden: must be undefined to be structural`,
        `${base}.properties[spec].oneOf[0].x-kubernetes-list-type: Forbidden: must be undefined to be structural`,
      ].sort(),
    ]);
  });

  it('accepts the int-or-string anyOf and allOf patterns but nothing else typed in junctors', () => {
    const allOfPattern = withSpec({
      'x-kubernetes-int-or-string': true,
      allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }, { maxLength: 5 }],
    });
    expect(check(allOfPattern)).toEqual([]);
    expect(
      check(withSpec({ 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }] })),
    ).toEqual([
      `${base}.properties[spec].anyOf[0].type: Forbidden: must be empty to be structural`,
    ]);
  });

  it('forbids metadata in junctors and restricts root metadata to name and generateName', () => {
    expect(
      check({
        type: 'object',
        properties: { metadata: { type: 'object', properties: { labels: { type: 'object' } } } },
      }),
    ).toEqual([
      `${base}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
    ]);
    expect(check({ type: 'object', properties: { metadata: { type: 'string' } } })).toEqual([
      `${base}.properties[metadata].type: Invalid value: "string": must be object`,
    ]);
    expect(
      check({
        type: 'object',
        properties: { kind: { type: 'integer' }, metadata: { type: 'object' } },
        anyOf: [{ properties: { metadata: {} } }],
      }),
    ).toEqual([
      `${base}.anyOf[0].properties[metadata]: Forbidden: must not be specified in a nested context`,
      `${base}.properties[kind].type: Invalid value: "integer": must be string`,
    ]);
  });

  it('checks embedded resources', () => {
    expect(check(withSpec({ 'x-kubernetes-embedded-resource': true }))).toEqual([
      `${base}.properties[spec].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
      `${base}.properties[spec].type: Required value: must be object if x-kubernetes-embedded-resource is true`,
    ]);
    expect(
      check(
        withSpec({
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          additionalProperties: { type: 'string' },
          properties: { kind: { type: 'object' } },
        }),
      ),
    ).toEqual([
      `${base}.properties[spec].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
      `${base}.properties[spec].additionalProperties: Forbidden: must not be used if x-kubernetes-embedded-resource is set`,
      `${base}.properties[spec].properties[kind].type: Invalid value: "object": must be string`,
    ]);
  });

  it('checks int-or-string against other extensions', () => {
    expect(
      check(
        withSpec({
          'x-kubernetes-int-or-string': true,
          'x-kubernetes-preserve-unknown-fields': true,
        }),
      ),
    ).toEqual([
      `${base}.properties[spec].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true`,
    ]);
  });

  it('requires fields named in root junctors to exist in the structure', () => {
    expect(
      check({
        type: 'object',
        properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } },
        anyOf: [
          { properties: { spec: { properties: { b: { minLength: 1 } } } } },
          { properties: { status: {} } },
        ],
      }),
    ).toEqual([
      `${base}.properties[spec].properties[b]: Required value: because it is defined in ${base}.anyOf[0].properties[spec].properties[b]`,
      `${base}.properties[status]: Required value: because it is defined in ${base}.anyOf[1].properties[status]`,
    ]);
  });

  it('checks the CRD schema rules', () => {
    expect(
      check(
        withSpec({
          type: 'object',
          properties: {
            list: { type: 'array', uniqueItems: true, items: { type: 'string' } },
            kind: { type: 'date' },
            keep: { type: 'object', 'x-kubernetes-preserve-unknown-fields': false },
            map: { type: 'string', 'x-kubernetes-map-type': 'granular' },
            set: { type: 'array', 'x-kubernetes-list-type': 'bag', items: { type: 'string' } },
          },
        }),
      ),
    ).toEqual([
      `${base}.properties[spec].properties[list].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
      `${base}.properties[spec].properties[kind].type: Unsupported value: "date": supported values: "array", "boolean", "integer", "number", "object", "string"`,
      `${base}.properties[spec].properties[keep].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined`,
      `${base}.properties[spec].properties[map].type: Invalid value: "string": must be object if x-kubernetes-map-type is specified`,
      `${base}.properties[spec].properties[set].x-kubernetes-list-type: Unsupported value: "bag": supported values: "atomic", "set", "map"`,
    ]);
  });

  it('checks list-type map keys', () => {
    const list = (items: JSONSchemaProps, keys?: string[]): JSONSchemaProps =>
      withSpec({
        type: 'array',
        'x-kubernetes-list-type': 'map',
        ...(keys ? { 'x-kubernetes-list-map-keys': keys } : {}),
        items,
      });
    const item: JSONSchemaProps = {
      type: 'object',
      properties: { name: { type: 'string' }, nested: { type: 'object' } },
    };
    expect(check(list(item, ['name']))).toEqual([]);
    expect(check(list(item))).toEqual([
      `${base}.properties[spec].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map`,
    ]);
    expect(check(list(item, ['missing', 'nested', 'name', 'name']))).toEqual([
      `${base}.properties[spec].x-kubernetes-list-map-keys: Invalid value: ["missing","nested","name","name"]: entries must all be names of item properties`,
      `${base}.properties[spec].items.properties[nested].type: Invalid value: "object": must be a scalar type if parent array's x-kubernetes-list-type is map`,
      `${base}.properties[spec].x-kubernetes-list-map-keys: Invalid value: ["missing","nested","name","name"]: must not contain duplicate entries`,
    ]);
    expect(check(list({ type: 'string' }, ['name']))).toEqual([
      `${base}.properties[spec].items.type: Invalid value: "string": must be object if parent array's x-kubernetes-list-type is map`,
    ]);
    expect(
      check(
        withSpec({ type: 'array', 'x-kubernetes-list-map-keys': ['a'], items: { type: 'string' } }),
      ),
    ).toEqual([
      `${base}.properties[spec].x-kubernetes-list-type: Required value: must be map if x-kubernetes-list-map-keys is non-empty`,
    ]);
  });

  it('checks patterns compile and CEL rules are not empty, without evaluating them', () => {
    const errors = check(
      withSpec({
        type: 'string',
        pattern: '(',
        'x-kubernetes-validations': [{ rule: '  ' }, { rule: 'this is not CEL at all' }],
      }),
    );
    expect(errors).toHaveLength(2);
    expect(errors[0]).toBe(
      `${base}.properties[spec].x-kubernetes-validations[0].rule: Required value: rule is not specified`,
    );
    expect(errors[1]).toMatch(
      /^spec\.versions\[0\]\.schema\.openAPIV3Schema\.properties\[spec\]\.pattern: Invalid value: "\(": must be a valid regular expression, but isn't: /,
    );
  });

  it('returns errors, never throws, for malformed schemas', () => {
    expect(check(undefined)).toEqual([`${base}: Required value: must be specified`]);
    expect(check('object')).toEqual([
      `${base}: Invalid value: "object": must be a JSON schema object`,
    ]);
    const malformed = {
      type: 'object',
      properties: { spec: 'string', list: { type: 'array', items: [{ type: 'string' }] } },
      anyOf: 'x',
      not: 5,
    };
    expect(() => check(malformed)).not.toThrow();
    expect(check(malformed)).toEqual([
      `${base}.properties[spec]: Invalid value: "string": must be a JSON schema object`,
      `${base}.properties[list].items: Forbidden: items must be a schema object and not an array`,
      `${base}.not: Invalid value: 5: must be a JSON schema object`,
      `${base}.anyOf: Invalid value: "x": must be a list of schemas`,
      `${base}.properties[list].items: Required value: must be specified`,
    ]);
  });
});
