import { type TSchema, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { StructuralSchemaError } from '../errors/structural-schema-error.js';
import { EmbeddedResource, IntOrString, PreserveUnknownFields } from './kubernetes-schema-types.js';
import { toStructuralSchema } from './structural-schema.js';

/** The spec of a Balancer: a load balancer over the pods of several backends. */
const balancerSpec = Type.Object(
  {
    ports: Type.Array(
      Type.Object({
        name: Type.String({ minLength: 1, maxLength: 15 }),
        protocol: Type.Optional(
          Type.Union([Type.Literal('TCP'), Type.Literal('UDP'), Type.Literal('SCTP')], {
            default: 'TCP',
          }),
        ),
        port: Type.Integer({ minimum: 1, maximum: 65535, format: 'int32' }),
        targetPort: IntOrString({ description: 'A port number or a named port of the pods.' }),
      }),
      { minItems: 1, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] },
    ),
    backends: Type.Array(
      Type.Object({
        name: Type.String({ pattern: '^[a-z0-9-]+$' }),
        weight: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, default: 1 })),
        selector: Type.Record(Type.String(), Type.String()),
      }),
      { minItems: 1, maxItems: 16 },
    ),
    selector: Type.Optional(Type.Record(Type.String(), Type.String())),
  },
  { $id: 'BalancerSpec', additionalProperties: false },
);

function schemaError(schema: TSchema, path = 'spec'): StructuralSchemaError {
  try {
    toStructuralSchema(schema, { path });
  } catch (error) {
    if (StructuralSchemaError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a StructuralSchemaError');
}

describe('toStructuralSchema', () => {
  it('converts a Balancer-like spec: arrays of objects, enums, int-or-string, maps', () => {
    const expected = {
      properties: {
        backends: {
          items: {
            properties: {
              name: { pattern: '^[a-z0-9-]+$', type: 'string' },
              selector: { additionalProperties: { type: 'string' }, type: 'object' },
              weight: { default: 1, maximum: 100, minimum: 0, type: 'integer' },
            },
            required: ['name', 'selector'],
            type: 'object',
          },
          maxItems: 16,
          minItems: 1,
          type: 'array',
        },
        ports: {
          items: {
            properties: {
              name: { maxLength: 15, minLength: 1, type: 'string' },
              port: { format: 'int32', maximum: 65535, minimum: 1, type: 'integer' },
              protocol: { default: 'TCP', enum: ['TCP', 'UDP', 'SCTP'], type: 'string' },
              targetPort: {
                anyOf: [{ type: 'integer' }, { type: 'string' }],
                description: 'A port number or a named port of the pods.',
                'x-kubernetes-int-or-string': true,
              },
            },
            required: ['name', 'port', 'targetPort'],
            type: 'object',
          },
          minItems: 1,
          type: 'array',
          'x-kubernetes-list-map-keys': ['name'],
          'x-kubernetes-list-type': 'map',
        },
        selector: { additionalProperties: { type: 'string' }, type: 'object' },
      },
      required: ['ports', 'backends'],
      type: 'object',
    };
    const converted = toStructuralSchema(balancerSpec);
    expect(converted).toStrictEqual(expected);
    expect(JSON.stringify(converted)).toBe(JSON.stringify(expected));
  });

  it('leaves the TypeBox schema unchanged and usable', () => {
    const before = JSON.stringify(balancerSpec);
    toStructuralSchema(balancerSpec);
    expect(JSON.stringify(balancerSpec)).toBe(before);
    expect(
      Value.Check(balancerSpec, {
        ports: [{ name: 'http', port: 80, targetPort: 'web' }],
        backends: [{ name: 'blue', selector: { app: 'blue' } }],
      }),
    ).toBe(true);
  });

  it('maps the other JSON Schema spellings to their Kubernetes forms', () => {
    const schema = Type.Object({
      nullable: Type.Union([Type.String({ minLength: 1 }), Type.Null()], {
        description: 'null clears it',
      }),
      literal: Type.Literal('fixed'),
      numbers: Type.Union([Type.Literal(1), Type.Literal(2.5)]),
      integers: Type.Union([Type.Literal(1), Type.Literal(2)]),
      positive: Type.Number({ exclusiveMinimum: 0, exclusiveMaximum: 1, format: 'double' }),
      // biome-ignore lint/suspicious/noTemplateCurlyInString: TypeBox's template literal syntax
      prefixed: Type.TemplateLiteral('v${number}'),
      enumeration: Type.Enum({ Low: 'low', High: 'high' }),
      keys: Type.KeyOf(Type.Object({ a: Type.String(), b: Type.String() })),
      composite: Type.Composite([
        Type.Object({ x: Type.String() }),
        Type.Object({ y: Type.Optional(Type.Number()) }),
      ]),
      rules: Type.Object(
        { min: Type.Integer(), max: Type.Integer() },
        {
          'x-kubernetes-validations': [{ rule: 'self.min <= self.max', message: 'min > max' }],
          'x-kubernetes-map-type': 'atomic',
        },
      ),
      tags: Type.Array(Type.String(), { 'x-kubernetes-list-type': 'set', example: ['a'] }),
    });
    expect(toStructuralSchema(schema).properties).toStrictEqual({
      composite: {
        properties: { x: { type: 'string' }, y: { type: 'number' } },
        required: ['x'],
        type: 'object',
      },
      enumeration: { enum: ['low', 'high'], type: 'string' },
      integers: { enum: [1, 2], type: 'integer' },
      keys: { enum: ['a', 'b'], type: 'string' },
      literal: { enum: ['fixed'], type: 'string' },
      nullable: {
        description: 'null clears it',
        minLength: 1,
        nullable: true,
        type: 'string',
      },
      numbers: { enum: [1, 2.5], type: 'number' },
      positive: {
        exclusiveMaximum: true,
        exclusiveMinimum: true,
        format: 'double',
        maximum: 1,
        minimum: 0,
        type: 'number',
      },
      prefixed: { pattern: expect.stringMatching(/^\^v/), type: 'string' },
      rules: {
        properties: { max: { type: 'integer' }, min: { type: 'integer' } },
        required: ['min', 'max'],
        type: 'object',
        'x-kubernetes-map-type': 'atomic',
        'x-kubernetes-validations': [{ message: 'min > max', rule: 'self.min <= self.max' }],
      },
      tags: {
        example: ['a'],
        items: { type: 'string' },
        type: 'array',
        'x-kubernetes-list-type': 'set',
      },
    });
  });

  it('renders preserved unknown fields and embedded resources', () => {
    const schema = Type.Object({
      values: PreserveUnknownFields({ description: 'Free-form values.' }),
      partly: PreserveUnknownFields(Type.Object({ known: Type.String() })),
      object: EmbeddedResource(),
      template: EmbeddedResource(Type.Object({ spec: Type.Object({ replicas: Type.Integer() }) }), {
        description: 'A Deployment to create.',
      }),
    });
    expect(toStructuralSchema(schema).properties).toStrictEqual({
      object: {
        type: 'object',
        'x-kubernetes-embedded-resource': true,
        'x-kubernetes-preserve-unknown-fields': true,
      },
      partly: {
        properties: { known: { type: 'string' } },
        required: ['known'],
        type: 'object',
        'x-kubernetes-preserve-unknown-fields': true,
      },
      template: {
        description: 'A Deployment to create.',
        properties: {
          spec: {
            properties: { replicas: { type: 'integer' } },
            required: ['replicas'],
            type: 'object',
          },
        },
        required: ['spec'],
        type: 'object',
        'x-kubernetes-embedded-resource': true,
      },
      values: {
        description: 'Free-form values.',
        type: 'object',
        'x-kubernetes-preserve-unknown-fields': true,
      },
    });
    // The TypeBox side still checks what it can.
    expect(Value.Check(schema.properties.object, { apiVersion: 'v1', kind: 'Pod', x: 1 })).toBe(
      true,
    );
    expect(Value.Check(schema.properties.object, { kind: 'Pod' })).toBe(false);
    expect(Value.Check(schema.properties.values, { anything: [1, { deep: true }] })).toBe(true);
    expect(Value.Check(schema.properties.partly, { known: 'k', extra: 1 })).toBe(true);
  });

  it('accepts a plain Integer | String union as int-or-string', () => {
    expect(toStructuralSchema(Type.Union([Type.String(), Type.Integer()]))).toStrictEqual({
      anyOf: [{ type: 'integer' }, { type: 'string' }],
      'x-kubernetes-int-or-string': true,
    });
  });
});

describe('toStructuralSchema: what Kubernetes cannot express', () => {
  const cases: [string, TSchema, string, RegExp][] = [
    ['a $ref', Type.Object({ other: Type.Ref('Other') }), 'spec.other', /references \(Type.Ref\)/],
    [
      'a recursive type',
      Type.Object({
        tree: Type.Recursive((node) =>
          Type.Object({ name: Type.String(), children: Type.Array(node) }),
        ),
      }),
      'spec.tree.children[*]',
      /Type.Recursive/,
    ],
    [
      'a tuple',
      Type.Object({ pair: Type.Tuple([Type.String(), Type.Integer()]) }),
      'spec.pair',
      /tuples/,
    ],
    [
      'a union of different types',
      Type.Object({ value: Type.Union([Type.String(), Type.Number()]) }),
      'spec.value',
      /union of different types \(string \| number\).*IntOrString/,
    ],
    [
      'a union of objects',
      Type.Object({
        source: Type.Union([
          Type.Object({ git: Type.String() }),
          Type.Object({ image: Type.String() }),
        ]),
      }),
      'spec.source',
      /union of different types \(object \| object\)/,
    ],
    [
      'a union of literals of different types',
      Type.Object({ mode: Type.Union([Type.Literal('auto'), Type.Literal(1)]) }),
      'spec.mode',
      /literals of different types \(string, integer\)/,
    ],
    [
      'an intersection',
      Type.Object({
        both: Type.Intersect([
          Type.Object({ a: Type.String() }),
          Type.Object({ b: Type.String() }),
        ]),
      }),
      'spec.both',
      /Type.Composite/,
    ],
    ['an unknown value', Type.Object({ raw: Type.Unknown() }), 'spec.raw', /PreserveUnknownFields/],
    ['an any value', Type.Object({ raw: Type.Any() }), 'spec.raw', /Type.Any/],
    ['a Date', Type.Object({ when: Type.Date() }), 'spec.when', /date-time/],
    ['a bigint', Type.Object({ big: Type.BigInt() }), 'spec.big', /int64/],
    ['a null', Type.Object({ nothing: Type.Null() }), 'spec.nothing', /T \| null/],
    [
      'a map with number keys',
      Type.Object({ byIndex: Type.Record(Type.Number(), Type.String()) }),
      'spec.byIndex',
      /only Type.Record\(Type.String\(\), T\)/,
    ],
    [
      'properties with additionalProperties',
      Type.Object({
        mixed: Type.Object({ a: Type.String() }, { additionalProperties: Type.String() }),
      }),
      'spec.mixed',
      /cannot be combined/,
    ],
    [
      'additionalProperties: true',
      Type.Object({ open: Type.Object({}, { additionalProperties: true }) }),
      'spec.open',
      /PreserveUnknownFields/,
    ],
    [
      'an unknown keyword',
      Type.Object({ name: Type.String({ $comment: 'note' }) }),
      'spec.name',
      /unknown keyword "\$comment"/,
    ],
    [
      'examples',
      Type.Object({ name: Type.String({ examples: ['a'] }) }),
      'spec.name',
      /use example/,
    ],
    [
      'uniqueItems',
      Type.Object({ tags: Type.Array(Type.String(), { uniqueItems: true }) }),
      'spec.tags',
      /x-kubernetes-list-type/,
    ],
    [
      'a default the schema rejects',
      Type.Object({ replicas: Type.Integer({ minimum: 1, default: 0 }) }),
      'spec.replicas',
      /default 0 does not match/,
    ],
    [
      'both minimum and a numeric exclusiveMinimum',
      Type.Object({ n: Type.Number({ minimum: 0, exclusiveMinimum: 1 }) }),
      'spec.n',
      /keep one bound/,
    ],
    [
      'an int-or-string union with constrained members',
      Type.Object({ port: Type.Union([Type.Integer({ minimum: 1 }), Type.String()]) }),
      'spec.port',
      /IntOrString\(\)/,
    ],
    [
      'an array without items',
      Type.Object({ list: Type.Unsafe<unknown[]>({ type: 'array' }) }),
      'spec.list',
      /item schema/,
    ],
    [
      'a property name needing quotes',
      Type.Object({ 'app.kubernetes.io/name': Type.Any() }),
      'spec."app.kubernetes.io/name"',
      /Type.Any/,
    ],
    [
      'a map value',
      Type.Object({ labels: Type.Record(Type.String(), Type.Unknown()) }),
      'spec.labels.*',
      /any type/,
    ],
  ];

  it.each(cases)('rejects %s, naming the path', (_name, schema, path, message) => {
    const error = schemaError(schema);
    expect(error.path).toBe(path);
    expect(error.message).toMatch(message);
    expect(error.message.startsWith(`schema at ${path}: `)).toBe(true);
  });

  it('names the root when there is no path', () => {
    expect(() => toStructuralSchema(Type.Unknown())).toThrow(/^schema at \(root\): /);
  });
});
