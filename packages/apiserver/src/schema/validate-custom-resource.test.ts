import type { JSONSchemaProps } from '@ops/api';
import { describe, expect, it } from 'vitest';
import { type FieldError, formatFieldError } from '../api/field-error.js';
import { validateCustomResource } from './validate-custom-resource.js';

const application: JSONSchemaProps = {
  type: 'object',
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { type: 'object' },
    spec: {
      type: 'object',
      required: ['image'],
      properties: {
        enabled: { type: 'boolean', default: true },
        image: { type: 'string' },
        replicas: { type: 'integer', minimum: 0, maximum: 10 },
        note: { type: 'string', nullable: true },
      },
    },
  },
};

const balancer: JSONSchemaProps = {
  type: 'object',
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { type: 'object' },
    spec: {
      type: 'object',
      required: ['backends'],
      properties: {
        backends: {
          type: 'array',
          minItems: 1,
          maxItems: 3,
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: {
            type: 'object',
            required: ['name'],
            properties: {
              name: { type: 'string', minLength: 1, maxLength: 20, pattern: '^[a-z][-a-z0-9]*$' },
              weight: { type: 'integer', minimum: 1, maximum: 100, default: 1 },
              selector: { type: 'object', additionalProperties: { type: 'string', maxLength: 5 } },
            },
          },
        },
        ports: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              port: { type: 'integer', minimum: 1, maximum: 65535 },
              protocol: { type: 'string', enum: ['TCP', 'UDP'], default: 'TCP' },
              targetPort: { 'x-kubernetes-int-or-string': true },
            },
          },
        },
        tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
      },
    },
  },
};

function app(spec: unknown): Record<string, unknown> {
  return { apiVersion: 'example.com/v1', kind: 'Application', metadata: { name: 'x' }, spec };
}

function lb(spec: Record<string, unknown>): Record<string, unknown> {
  return {
    apiVersion: 'net.example.com/v1',
    kind: 'Balancer',
    metadata: { name: 'front', namespace: 'default' },
    spec: { backends: [{ name: 'a', weight: 1 }], ...spec },
  };
}

function messages(errors: FieldError[]): string[] {
  return errors.map(formatFieldError);
}

/** Validates `value` as field `spec.x` of an object with the given schema. */
function field(schema: JSONSchemaProps, value: unknown): string[] {
  const root: JSONSchemaProps = {
    type: 'object',
    properties: { spec: { type: 'object', properties: { x: schema } } },
  };
  return messages(
    validateCustomResource(root, { apiVersion: 'v1', kind: 'K', spec: { x: value } }),
  );
}

describe('validateCustomResource', () => {
  it('accepts valid Application and Balancer objects', () => {
    expect(validateCustomResource(application, app({ image: 'nginx', enabled: false }))).toEqual(
      [],
    );
    expect(
      validateCustomResource(
        balancer,
        lb({
          backends: [
            { name: 'a', weight: 5, selector: { app: 'web' } },
            { name: 'b-2', weight: 100 },
          ],
          ports: [
            { port: 80, protocol: 'TCP', targetPort: 8080 },
            { port: 53, protocol: 'UDP', targetPort: 'dns' },
          ],
          tags: ['x', 'y'],
        }),
      ),
    ).toEqual([]);
  });

  it('reports a missing required field at the path of the missing child', () => {
    const errors = validateCustomResource(application, app({ enabled: true }));
    expect(errors).toEqual([{ type: 'FieldValueRequired', field: 'spec.image' }]);
    expect(messages(errors)).toEqual(['spec.image: Required value']);
  });

  it('reports required fields of array items and the root', () => {
    const root: JSONSchemaProps = { type: 'object', required: ['spec'], properties: {} };
    expect(messages(validateCustomResource(root, { apiVersion: 'v1', kind: 'K' }))).toEqual([
      'spec: Required value',
    ]);
    expect(messages(validateCustomResource(balancer, lb({ backends: [{ weight: 2 }] })))).toEqual([
      'spec.backends[0].name: Required value',
    ]);
  });

  it('words type errors as kube-apiserver does', () => {
    const errors = validateCustomResource(application, app({ image: 'nginx', enabled: 'yes' }));
    expect(errors).toEqual([
      {
        type: 'FieldValueTypeInvalid',
        field: 'spec.enabled',
        value: 'string',
        detail: 'spec.enabled in body must be of type boolean: "string"',
      },
    ]);
    expect(messages(errors)).toEqual([
      'spec.enabled: Invalid value: "string": spec.enabled in body must be of type boolean: "string"',
    ]);
    expect(field({ type: 'object' }, [1])).toEqual([
      'spec.x: Invalid value: "array": spec.x in body must be of type object: "array"',
    ]);
    expect(field({ type: 'array', items: { type: 'string' } }, { a: 1 })).toEqual([
      'spec.x: Invalid value: "object": spec.x in body must be of type array: "object"',
    ]);
    expect(field({ type: 'string' }, 3)).toEqual([
      'spec.x: Invalid value: "integer": spec.x in body must be of type string: "integer"',
    ]);
  });

  it('requires whole numbers for integers and accepts integers as numbers', () => {
    expect(field({ type: 'integer' }, 1.5)).toEqual([
      'spec.x: Invalid value: "number": spec.x in body must be of type integer: "number"',
    ]);
    expect(field({ type: 'integer' }, 2.0)).toEqual([]);
    expect(field({ type: 'number' }, 2)).toEqual([]);
    expect(field({ type: 'number' }, 2.5)).toEqual([]);
    expect(field({ type: 'number' }, '2')).toEqual([
      'spec.x: Invalid value: "string": spec.x in body must be of type number: "string"',
    ]);
    expect(field({ type: 'boolean' }, 0)).toEqual([
      'spec.x: Invalid value: "integer": spec.x in body must be of type boolean: "integer"',
    ]);
  });

  it('accepts integers and strings for int-or-string, nothing else', () => {
    const schema: JSONSchemaProps = { 'x-kubernetes-int-or-string': true };
    expect(field(schema, 8080)).toEqual([]);
    expect(field(schema, 'http')).toEqual([]);
    expect(field(schema, true)).toEqual([
      'spec.x: Invalid value: "boolean": spec.x in body must be of type integer,string: "boolean"',
    ]);
    expect(field(schema, 1.5)).toEqual([
      'spec.x: Invalid value: "number": spec.x in body must be of type integer,string: "number"',
    ]);
    const errors = validateCustomResource(
      balancer,
      lb({ ports: [{ port: 80, targetPort: { name: 'http' } }] }),
    );
    expect(messages(errors)).toEqual([
      'spec.ports[0].targetPort: Invalid value: "object": spec.ports[0].targetPort in body must be of type integer,string: "object"',
    ]);
  });

  it('rejects null unless the field is nullable', () => {
    expect(messages(validateCustomResource(application, app({ image: null })))).toEqual([
      'spec.image: Invalid value: "null": spec.image in body must be of type string: "null"',
    ]);
    expect(validateCustomResource(application, app({ image: 'i', note: null }))).toEqual([]);
    expect(field({ type: 'string', nullable: true, enum: ['a'] }, null)).toEqual([
      'spec.x: Unsupported value: null: supported values: "a"',
    ]);
    expect(field({ type: 'string', nullable: true, enum: ['a', null] }, null)).toEqual([]);
  });

  it('reports enum misses with the supported values', () => {
    const errors = validateCustomResource(
      balancer,
      lb({ ports: [{ port: 80, protocol: 'SCTP' }] }),
    );
    expect(errors).toEqual([
      {
        type: 'FieldValueNotSupported',
        field: 'spec.ports[0].protocol',
        value: 'SCTP',
        detail: 'supported values: "TCP", "UDP"',
      },
    ]);
    expect(messages(errors)).toEqual([
      'spec.ports[0].protocol: Unsupported value: "SCTP": supported values: "TCP", "UDP"',
    ]);
    expect(field({ type: 'integer', enum: [1, 2] }, 3)).toEqual([
      'spec.x: Unsupported value: 3: supported values: "1", "2"',
    ]);
    expect(field({ type: 'object', enum: [{ a: 1 }] }, { a: 1 })).toEqual([]);
  });

  it('checks minimum and maximum, inclusive and exclusive', () => {
    const tooLow = validateCustomResource(balancer, lb({ backends: [{ name: 'a', weight: 0 }] }));
    expect(tooLow).toEqual([
      {
        type: 'FieldValueInvalid',
        field: 'spec.backends[0].weight',
        value: 0,
        detail: 'spec.backends[0].weight in body should be greater than or equal to 1',
      },
    ]);
    expect(
      messages(validateCustomResource(balancer, lb({ backends: [{ name: 'a', weight: 101 }] }))),
    ).toEqual([
      'spec.backends[0].weight: Invalid value: 101: spec.backends[0].weight in body should be less than or equal to 100',
    ]);
    expect(field({ type: 'integer', minimum: 1, exclusiveMinimum: true }, 1)).toEqual([
      'spec.x: Invalid value: 1: spec.x in body should be greater than 1',
    ]);
    expect(field({ type: 'integer', maximum: 5, exclusiveMaximum: true }, 5)).toEqual([
      'spec.x: Invalid value: 5: spec.x in body should be less than 5',
    ]);
    expect(field({ type: 'number', minimum: 0.5 }, 0.25)).toEqual([
      'spec.x: Invalid value: 0.25: spec.x in body should be greater than or equal to 0.5',
    ]);
    expect(field({ type: 'number', maximum: 1e21 }, 2e21)).toEqual([
      'spec.x: Invalid value: 2e+21: spec.x in body should be less than or equal to 1e+21',
    ]);
    // kube-openapi compares integers against the bound converted to int64 (truncated).
    expect(field({ type: 'integer', minimum: 1.5 }, 1)).toEqual([]);
  });

  it('checks multipleOf', () => {
    expect(field({ type: 'integer', multipleOf: 5 }, 10)).toEqual([]);
    expect(field({ type: 'integer', multipleOf: 5 }, 12)).toEqual([
      'spec.x: Invalid value: 12: spec.x in body should be a multiple of 5',
    ]);
    expect(field({ type: 'number', multipleOf: 0.1 }, 0.3)).toEqual([]);
    expect(field({ type: 'number', multipleOf: 0.5 }, 0.7)).toEqual([
      'spec.x: Invalid value: 0.7: spec.x in body should be a multiple of 0.5',
    ]);
  });

  it('checks string lengths in characters with kube-apiserver wording', () => {
    const empty = validateCustomResource(balancer, lb({ backends: [{ name: '' }] }));
    expect(messages(empty)).toEqual([
      'spec.backends[0].name: Invalid value: "": spec.backends[0].name in body should be at least 1 chars long',
    ]);
    const long = validateCustomResource(balancer, lb({ backends: [{ name: 'a'.repeat(21) }] }));
    expect(long).toEqual([
      {
        type: 'FieldValueTooLong',
        field: 'spec.backends[0].name',
        detail: 'may not be more than 20 bytes',
      },
    ]);
    expect(messages(long)).toEqual([
      'spec.backends[0].name: Too long: may not be more than 20 bytes',
    ]);
    expect(field({ type: 'string', maxLength: 2 }, 'éé')).toEqual([]);
    expect(field({ type: 'string', maxLength: 2 }, 'abc')).toEqual([
      'spec.x: Too long: may not be more than 2 bytes',
    ]);
  });

  it('checks patterns, unanchored, with RE2 spellings', () => {
    expect(messages(validateCustomResource(balancer, lb({ backends: [{ name: 'A1' }] })))).toEqual([
      `spec.backends[0].name: Invalid value: "A1": spec.backends[0].name in body should match '^[a-z][-a-z0-9]*$'`,
    ]);
    expect(field({ type: 'string', pattern: 'b' }, 'abc')).toEqual([]);
    expect(field({ type: 'string', pattern: '(?i)^abc$' }, 'ABC')).toEqual([]);
    expect(field({ type: 'string', pattern: '^[[:digit:]]+$' }, '12a')).toEqual([
      `spec.x: Invalid value: "12a": spec.x in body should match '^[[:digit:]]+$'`,
    ]);
    const broken = field({ type: 'string', pattern: '(' }, 'a');
    expect(broken).toHaveLength(1);
    expect(broken[0]).toMatch(
      /^spec\.x: Invalid value: "a": spec\.x in body should match '\(, but pattern is invalid: /,
    );
  });

  it('checks minItems, maxItems and uniqueItems', () => {
    expect(messages(validateCustomResource(balancer, lb({ backends: [] })))).toEqual([
      'spec.backends: Invalid value: 0: spec.backends in body should have at least 1 items',
    ]);
    const four = [{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: 'd' }];
    const tooMany = validateCustomResource(balancer, lb({ backends: four }));
    expect(tooMany).toEqual([
      {
        type: 'FieldValueTooMany',
        field: 'spec.backends',
        value: 4,
        detail: 'must have at most 3 items',
      },
    ]);
    expect(messages(tooMany)).toEqual(['spec.backends: Too many: 4: must have at most 3 items']);
    const unique: JSONSchemaProps = { type: 'array', uniqueItems: true, items: { type: 'object' } };
    expect(field(unique, [{ a: 1 }, { a: 1 }])).toEqual([
      `spec.x: Invalid value: "": spec.x in body shouldn't contain duplicates`,
    ]);
    expect(field(unique, [{ a: 1 }, { a: 2 }])).toEqual([]);
  });

  it('checks minProperties and maxProperties, skipping the rest of that object', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      minProperties: 1,
      maxProperties: 2,
      properties: { a: { type: 'string' } },
    };
    expect(field(schema, {})).toEqual([
      'spec.x: Invalid value: 0: spec.x in body should have at least 1 properties',
    ]);
    expect(field(schema, { a: 1, b: 2, c: 3 })).toEqual([
      'spec.x: Too many: 3: must have at most 2 items',
    ]);
    expect(field(schema, { a: 1 })).toEqual([
      'spec.x.a: Invalid value: "integer": spec.x.a in body must be of type string: "integer"',
    ]);
  });

  it('validates map values against additionalProperties with dotted keys', () => {
    const errors = validateCustomResource(
      balancer,
      lb({ backends: [{ name: 'a', selector: { app: 7, tier: 'backend' } }] }),
    );
    expect(messages(errors)).toEqual([
      'spec.backends[0].selector.app: Invalid value: "integer": spec.backends[0].selector.app in body must be of type string: "integer"',
      'spec.backends[0].selector.tier: Too long: may not be more than 5 bytes',
    ]);
    expect(
      field({ type: 'object', additionalProperties: false, properties: {} }, { a: 1 }),
    ).toEqual(['spec.x: Invalid value: "a": spec.x.a in body is a forbidden property']);
    expect(field({ type: 'object', additionalProperties: true }, { a: { b: 1 } })).toEqual([]);
  });

  it('reports duplicates of list-type map and set', () => {
    const maps = validateCustomResource(
      balancer,
      lb({ backends: [{ name: 'a' }, { name: 'b' }, { name: 'a', weight: 3 }] }),
    );
    expect(maps).toEqual([
      { type: 'FieldValueDuplicate', field: 'spec.backends[2]', value: { name: 'a' } },
    ]);
    expect(messages(maps)).toEqual(['spec.backends[2]: Duplicate value: {"name":"a"}']);
    const sets = validateCustomResource(balancer, lb({ tags: ['a', 'b', 'a', 'a', 'b'] }));
    expect(messages(sets)).toEqual([
      'spec.tags[2]: Duplicate value: "a"',
      'spec.tags[4]: Duplicate value: "b"',
    ]);
  });

  it('uses map-key defaults and compound keys for list-type map', () => {
    const schema: JSONSchemaProps = {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['port', 'protocol'],
      items: {
        type: 'object',
        properties: {
          port: { type: 'integer' },
          protocol: { type: 'string', default: 'TCP' },
        },
      },
    };
    expect(
      field(schema, [
        { port: 80, protocol: 'TCP' },
        { port: 80, protocol: 'UDP' },
      ]),
    ).toEqual([]);
    expect(field(schema, [{ port: 80, protocol: 'TCP' }, { port: 80 }])).toEqual([
      'spec.x[1]: Duplicate value: {"port":80,"protocol":"TCP"}',
    ]);
    expect(field(schema, [{ port: 80 }, 'oops'])).toEqual([
      'spec.x[1]: Invalid value: "string": spec.x[1] in body must be of type object: "string"',
      'spec.x[1]: Invalid value: "oops": must be an object for an array of list-type map',
    ]);
  });

  it('checks embedded resources loosely', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            template: {
              type: 'object',
              'x-kubernetes-embedded-resource': true,
              'x-kubernetes-preserve-unknown-fields': true,
            },
            objects: {
              type: 'object',
              additionalProperties: {
                type: 'object',
                'x-kubernetes-embedded-resource': true,
                'x-kubernetes-preserve-unknown-fields': true,
              },
            },
          },
        },
      },
    };
    const valid = {
      apiVersion: 'v1',
      kind: 'K',
      spec: {
        template: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' } },
      },
    };
    expect(validateCustomResource(schema, valid)).toEqual([]);
    const invalid = {
      apiVersion: 'v1',
      kind: 'K',
      spec: {
        template: { metadata: { name: 'a/b', labels: { 'bad key!': 'v' } } },
        objects: {
          one: { apiVersion: 'a/b/c', kind: 'My_Kind' },
          two: { apiVersion: 5, kind: '', metadata: 'none' },
        },
      },
    };
    expect(messages(validateCustomResource(schema, invalid))).toEqual([
      'spec.template.apiVersion: Required value',
      'spec.template.kind: Required value',
      'spec.template.metadata.name: Invalid value: "a/b": may not contain \'/\'',
      `spec.template.metadata.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      'spec.objects[one].apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
      `spec.objects[one].kind: Invalid value: "My_Kind": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
      'spec.objects[two].apiVersion: Invalid value: 5: must be a string',
      'spec.objects[two].kind: Invalid value: "": must not be empty',
      'spec.objects[two].metadata: Invalid value: "none": invalid metadata: expected object, got string',
    ]);
  });

  it('evaluates allOf, anyOf, oneOf and not', () => {
    const anyOf: JSONSchemaProps = {
      type: 'object',
      anyOf: [{ required: ['a'] }, { required: ['b'] }],
    };
    expect(field(anyOf, { b: 1 })).toEqual([]);
    expect(field(anyOf, { c: 1 })).toEqual([
      '<nil>: Invalid value: "": "spec.x" must validate at least one schema (anyOf)',
      'spec.x.a: Required value',
    ]);
    const oneOf: JSONSchemaProps = {
      type: 'integer',
      oneOf: [{ minimum: 0 }, { maximum: 10 }],
    };
    expect(field(oneOf, 20)).toEqual([]);
    expect(field(oneOf, 5)).toEqual([
      '<nil>: Invalid value: "": "spec.x" must validate one and only one schema (oneOf). Found 2 valid alternatives',
    ]);
    const allOf: JSONSchemaProps = { type: 'string', allOf: [{ minLength: 2 }, { maxLength: 3 }] };
    expect(field(allOf, 'ab')).toEqual([]);
    expect(field(allOf, 'a')).toEqual([
      'spec.x: Invalid value: "a": spec.x in body should be at least 2 chars long',
      '<nil>: Invalid value: "": "spec.x" must validate all the schemas (allOf)',
    ]);
    const not: JSONSchemaProps = { type: 'string', not: { enum: ['forbidden'] } };
    expect(field(not, 'fine')).toEqual([]);
    expect(field(not, 'forbidden')).toEqual([
      '<nil>: Invalid value: "": "spec.x" must not validate the schema (not)',
    ]);
  });

  it('checks the string formats kube-apiserver knows and ignores the others', () => {
    const dateTime: JSONSchemaProps = { type: 'string', format: 'date-time' };
    expect(field(dateTime, '2024-05-01T10:00:00Z')).toEqual([]);
    expect(field(dateTime, 'yesterday')).toEqual([
      'spec.x: Invalid value: "yesterday": spec.x in body must be of type date-time: "yesterday"',
    ]);
    expect(field({ type: 'string', format: 'uuid' }, 'nope')).toEqual([
      'spec.x: Invalid value: "nope": spec.x in body must be of type uuid: "nope"',
    ]);
    expect(field({ type: 'string', format: 'int-or-whatever' }, 'x')).toEqual([]);
    // A formatted string field reports the format, not the type, for other scalars.
    expect(field(dateTime, 5)).toEqual([
      'spec.x: Invalid value: "int64": spec.x in body must be of type date-time: "int64"',
    ]);
  });

  it('reports nothing for x-kubernetes-validations (CEL is not evaluated)', () => {
    const schema: JSONSchemaProps = {
      type: 'integer',
      'x-kubernetes-validations': [{ rule: 'self > 100', message: 'must be big' }],
    };
    expect(field(schema, 1)).toEqual([]);
  });

  it('skips metadata except the name constraints a CRD may declare', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: {
        metadata: {
          type: 'object',
          properties: { name: { type: 'string', maxLength: 5 } },
        },
      },
    };
    const object = { apiVersion: 'v1', kind: 'K', metadata: { name: 'too-long', labels: 5 } };
    expect(messages(validateCustomResource(schema, object))).toEqual([
      'metadata.name: Too long: may not be more than 5 bytes',
    ]);
    expect(validateCustomResource(application, { ...app({ image: 'i' }), metadata: 'x' })).toEqual(
      [],
    );
  });

  it('reports every error of nested arrays and objects with their paths', () => {
    const errors = validateCustomResource(
      balancer,
      lb({
        backends: [{ name: 'ok' }, { name: 'Bad', weight: 'heavy', selector: [] }],
        ports: [{ port: 0 }, { port: 70000, protocol: 'tcp' }],
      }),
    );
    expect(messages(errors)).toEqual([
      `spec.backends[1].name: Invalid value: "Bad": spec.backends[1].name in body should match '^[a-z][-a-z0-9]*$'`,
      'spec.backends[1].weight: Invalid value: "string": spec.backends[1].weight in body must be of type integer: "string"',
      'spec.backends[1].selector: Invalid value: "array": spec.backends[1].selector in body must be of type object: "array"',
      'spec.ports[0].port: Invalid value: 0: spec.ports[0].port in body should be greater than or equal to 1',
      'spec.ports[1].port: Invalid value: 70000: spec.ports[1].port in body should be less than or equal to 65535',
      'spec.ports[1].protocol: Unsupported value: "tcp": supported values: "TCP", "UDP"',
    ]);
  });

  it.each([
    ['a string', 'hello'],
    ['a number', 42],
    ['null', null],
    ['an array', [1, 2]],
    ['undefined', undefined],
  ])('returns errors, never throws, for %s as the object', (_, value) => {
    expect(() => validateCustomResource(application, value)).not.toThrow();
    const errors = validateCustomResource(application, value);
    if (value === undefined) expect(errors).toEqual([]);
    else expect(errors.length).toBeGreaterThan(0);
  });

  it('reports root type errors at the nil path', () => {
    expect(messages(validateCustomResource(application, 'hello'))).toEqual([
      '<nil>: Invalid value: "string":  in body must be of type object: "string"',
    ]);
  });

  it('returns errors for values of the wrong shape deep inside', () => {
    expect(messages(validateCustomResource(application, app([1, 2])))).toEqual([
      'spec: Invalid value: "array": spec in body must be of type object: "array"',
    ]);
    expect(messages(validateCustomResource(balancer, lb({ backends: { name: 'a' } })))).toEqual([
      'spec.backends: Invalid value: "object": spec.backends in body must be of type array: "object"',
    ]);
    expect(
      messages(validateCustomResource(balancer, lb({ backends: ['a', null, 3], tags: 'x' }))),
    ).toEqual([
      'spec.backends[0]: Invalid value: "string": spec.backends[0] in body must be of type object: "string"',
      'spec.backends[1]: Invalid value: "null": spec.backends[1] in body must be of type object: "null"',
      'spec.backends[2]: Invalid value: "integer": spec.backends[2] in body must be of type object: "integer"',
      'spec.tags: Invalid value: "string": spec.tags in body must be of type array: "string"',
      'spec.backends[0]: Invalid value: "a": must be an object for an array of list-type map',
    ]);
  });

  it('never throws on malformed schemas', () => {
    const malformed = {
      type: 'object',
      properties: { spec: { type: 'object', properties: [1, 2], items: 'x', required: 'spec' } },
      additionalProperties: 7,
      anyOf: 'nope',
      enum: 'x',
    } as unknown as JSONSchemaProps;
    expect(() => validateCustomResource(malformed, app({ a: [1], b: { c: null } }))).not.toThrow();
    expect(validateCustomResource('nonsense' as unknown as JSONSchemaProps, app({}))).toEqual([]);
  });
});
