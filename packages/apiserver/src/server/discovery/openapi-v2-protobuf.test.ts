import protobuf from 'protobufjs/light.js';
import { describe, expect, it } from 'vitest';
import { openApiV2ProtobufEncoder, wantsOpenApiV2Protobuf } from './openapi-v2-protobuf.js';

/**
 * The fields of one message, by field number, read at the wire level (protobufjs's Reader, not
 * the reflection the encoder uses): length-delimited fields as bytes, fixed64 as a double,
 * varints as bigints.
 */
function fields(bytes: Uint8Array): Map<number, Array<Uint8Array | bigint | number>> {
  const reader = protobuf.Reader.create(bytes);
  const out = new Map<number, Array<Uint8Array | bigint | number>>();
  while (reader.pos < reader.len) {
    const key = reader.uint32();
    const wireType = key & 7;
    const value =
      wireType === 2
        ? reader.bytes()
        : wireType === 1
          ? reader.double()
          : BigInt(reader.uint64().toString());
    out.set(key >>> 3, [...(out.get(key >>> 3) ?? []), value]);
  }
  return out;
}
const bytesOf = (map: Map<number, unknown[]>, field: number, index = 0): Uint8Array => {
  const value = map.get(field)?.[index];
  if (!(value instanceof Uint8Array)) throw new Error(`field ${field} is not length-delimited`);
  return value;
};
const text = (map: Map<number, unknown[]>, field: number, index = 0) =>
  Buffer.from(bytesOf(map, field, index)).toString('utf8');

describe('wantsOpenApiV2Protobuf', () => {
  it('follows the first media type of the Accept header, as kubectl 1.27 sends it', () => {
    expect(
      wantsOpenApiV2Protobuf(
        'application/com.github.proto-openapi.spec.v2@v1.0+protobuf, application/json',
      ),
    ).toBe(true);
    expect(
      wantsOpenApiV2Protobuf('application/com.github.proto-openapi.spec.v2.v1.0+protobuf'),
    ).toBe(true);
    expect(wantsOpenApiV2Protobuf('application/json')).toBe(false);
    expect(
      wantsOpenApiV2Protobuf(
        'application/json, application/com.github.proto-openapi.spec.v2@v1.0+protobuf',
      ),
    ).toBe(false);
    expect(wantsOpenApiV2Protobuf(undefined)).toBe(false);
  });
});

describe('openApiV2ProtobufEncoder', () => {
  const encoder = openApiV2ProtobufEncoder();
  const bytes = encoder.encode({
    swagger: '2.0',
    info: { title: 'Kubernetes', version: 'v1.35.0' },
    paths: {},
    definitions: {
      'io.k8s.api.core.v1.ConfigMap': {
        type: 'object',
        required: ['spec'],
        nullable: true,
        properties: {
          spec: { type: 'object', additionalProperties: { type: 'string' } },
          replicas: { type: 'integer', minimum: 0.5, enum: [1, 2] },
          tags: { type: 'array', items: { type: 'string' } },
          free: { type: 'object', additionalProperties: true },
        },
        'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind: 'ConfigMap' }],
      },
    },
  });
  const document = fields(bytes);

  it("writes gnostic's Document: swagger (1), info (2) and definitions (9)", () => {
    expect(text(document, 1)).toBe('2.0');
    const info = fields(bytesOf(document, 2));
    expect(text(info, 1)).toBe('Kubernetes');
    expect(text(info, 2)).toBe('v1.35.0');
  });

  it("writes each definition as a NamedSchema with gnostic's Schema field numbers", () => {
    const named = fields(bytesOf(fields(bytesOf(document, 9)), 1));
    expect(text(named, 1)).toBe('io.k8s.api.core.v1.ConfigMap');
    const schema = fields(bytesOf(named, 2));
    expect(text(fields(bytesOf(schema, 22)), 1)).toBe('object');
    expect(text(schema, 19)).toBe('spec');
    const extension = fields(bytesOf(schema, 31));
    expect(text(extension, 1)).toBe('x-kubernetes-group-version-kind');
    expect(JSON.parse(text(fields(bytesOf(extension, 2)), 2))).toEqual([
      { group: '', version: 'v1', kind: 'ConfigMap' },
    ]);
    // nullable has no Swagger 2.0 field: nothing but type, required, properties, extension.
    expect([...schema.keys()].sort((a, b) => a - b)).toEqual([19, 22, 25, 31]);

    const properties = fields(bytesOf(schema, 25));
    const property = (index: number) => fields(bytesOf(fields(bytesOf(properties, 1, index)), 2));
    const spec = property(0);
    const specValues = fields(bytesOf(fields(bytesOf(spec, 21)), 1));
    expect(text(fields(bytesOf(specValues, 22)), 1)).toBe('string');
    const replicas = property(1);
    expect(replicas.get(9)).toEqual([0.5]);
    expect(text(fields(bytesOf(replicas, 20, 1)), 2)).toBe('2\n');
    const tags = property(2);
    const items = fields(bytesOf(fields(bytesOf(tags, 23)), 1));
    expect(text(fields(bytesOf(items, 22)), 1)).toBe('string');
    const free = property(3);
    expect(fields(bytesOf(free, 21)).get(2)).toEqual([1n]);
  });
});
