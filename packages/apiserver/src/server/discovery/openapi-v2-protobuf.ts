import { isJsonObject } from '@ops/api';
import protobuf from 'protobufjs/light.js';

/**
 * The media type kubectl 1.27 and 1.28 ask `/openapi/v2` for (kube-openapi's
 * `pkg/handler/handler.go` serves the document as gnostic protobuf under it), and the
 * Content-Type kube-apiserver answers with.
 */
export const openApiV2ProtobufAccept = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
export const openApiV2ProtobufContentType =
  'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

/**
 * Whether an Accept header prefers the protobuf form of `/openapi/v2` (`application/json`
 * listed first, or no protobuf type at all, answers JSON).
 */
export function wantsOpenApiV2Protobuf(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  const first = accept.split(',')[0]?.split(';')[0]?.trim() ?? '';
  return first === openApiV2ProtobufAccept || first === openApiV2ProtobufContentType;
}

// The subset of gnostic's `openapiv2/OpenAPIv2.proto` (package openapi.v2) a Swagger document
// with definitions and vendor extensions needs; field ids as gnostic numbers them (the wire
// format is all that matters, so the names here are ours).
const field = (id: number, type: string, rule?: 'repeated') => ({
  id,
  type,
  ...(rule ? { rule } : {}),
});
const gnosticTypes = {
  Document: {
    fields: {
      swagger: field(1, 'string'),
      info: field(2, 'Info'),
      paths: field(8, 'Paths'),
      definitions: field(9, 'Definitions'),
    },
  },
  Info: { fields: { title: field(1, 'string'), version: field(2, 'string') } },
  Paths: { fields: { vendorExtension: field(1, 'NamedAny', 'repeated') } },
  Definitions: { fields: { additionalProperties: field(1, 'NamedSchema', 'repeated') } },
  Properties: { fields: { additionalProperties: field(1, 'NamedSchema', 'repeated') } },
  NamedSchema: { fields: { name: field(1, 'string'), value: field(2, 'Schema') } },
  NamedAny: { fields: { name: field(1, 'string'), value: field(2, 'Any') } },
  Any: { fields: { yaml: field(2, 'string') } },
  TypeItem: { fields: { value: field(1, 'string', 'repeated') } },
  ItemsItem: { fields: { schema: field(1, 'Schema', 'repeated') } },
  AdditionalPropertiesItem: {
    oneofs: { oneof: { oneof: ['schema', 'boolean'] } },
    fields: { schema: field(1, 'Schema'), boolean: field(2, 'bool') },
  },
  Schema: {
    fields: {
      ref: field(1, 'string'),
      format: field(2, 'string'),
      title: field(3, 'string'),
      description: field(4, 'string'),
      default: field(5, 'Any'),
      multipleOf: field(6, 'double'),
      maximum: field(7, 'double'),
      exclusiveMaximum: field(8, 'bool'),
      minimum: field(9, 'double'),
      exclusiveMinimum: field(10, 'bool'),
      maxLength: field(11, 'int64'),
      minLength: field(12, 'int64'),
      pattern: field(13, 'string'),
      maxItems: field(14, 'int64'),
      minItems: field(15, 'int64'),
      uniqueItems: field(16, 'bool'),
      maxProperties: field(17, 'int64'),
      minProperties: field(18, 'int64'),
      required: field(19, 'string', 'repeated'),
      enum: field(20, 'Any', 'repeated'),
      additionalProperties: field(21, 'AdditionalPropertiesItem'),
      type: field(22, 'TypeItem'),
      items: field(23, 'ItemsItem'),
      allOf: field(24, 'Schema', 'repeated'),
      properties: field(25, 'Properties'),
      readOnly: field(27, 'bool'),
      example: field(30, 'Any'),
      vendorExtension: field(31, 'NamedAny', 'repeated'),
    },
  },
};

type Json = Record<string, unknown>;

/** A value as gnostic's `Any` carries it: YAML text (JSON is YAML). */
const anyOf = (value: unknown) => ({ yaml: `${JSON.stringify(value)}\n` });

const scalarKeys = {
  format: 'string',
  title: 'string',
  description: 'string',
  pattern: 'string',
  multipleOf: 'number',
  maximum: 'number',
  minimum: 'number',
  maxLength: 'number',
  minLength: 'number',
  maxItems: 'number',
  minItems: 'number',
  maxProperties: 'number',
  minProperties: 'number',
  exclusiveMaximum: 'boolean',
  exclusiveMinimum: 'boolean',
  uniqueItems: 'boolean',
  readOnly: 'boolean',
} as const;

/**
 * One JSON schema in gnostic's message shape. Keywords Swagger 2.0 has no field for
 * (`nullable`, `oneOf`, `anyOf`, `not`) are left out, as kube-apiserver leaves them out of
 * its v2 document; `x-` keys become vendor extensions.
 */
function schemaMessage(schema: Json): Json {
  const message: Json = {};
  if (typeof schema.$ref === 'string')
    message.ref = schema.$ref.replace('#/components/schemas/', '#/definitions/');
  for (const [key, kind] of Object.entries(scalarKeys)) {
    if (typeof schema[key] === kind) message[key] = schema[key];
  }
  if (schema.default !== undefined) message.default = anyOf(schema.default);
  if (schema.example !== undefined) message.example = anyOf(schema.example);
  if (Array.isArray(schema.enum)) message.enum = schema.enum.map(anyOf);
  if (Array.isArray(schema.required))
    message.required = schema.required.filter((r) => typeof r === 'string');
  if (typeof schema.type === 'string') message.type = { value: [schema.type] };
  else if (Array.isArray(schema.type)) message.type = { value: schema.type.map(String) };
  if (isJsonObject(schema.items)) message.items = { schema: [schemaMessage(schema.items)] };
  else if (Array.isArray(schema.items))
    message.items = { schema: schema.items.filter(isJsonObject).map(schemaMessage) };
  if (typeof schema.additionalProperties === 'boolean')
    message.additionalProperties = { boolean: schema.additionalProperties };
  else if (isJsonObject(schema.additionalProperties))
    message.additionalProperties = { schema: schemaMessage(schema.additionalProperties) };
  if (Array.isArray(schema.allOf))
    message.allOf = schema.allOf.filter(isJsonObject).map(schemaMessage);
  if (isJsonObject(schema.properties))
    message.properties = { additionalProperties: namedSchemas(schema.properties) };
  const extensions = Object.entries(schema).filter(([key]) => key.startsWith('x-'));
  if (extensions.length > 0)
    message.vendorExtension = extensions.map(([name, value]) => ({ name, value: anyOf(value) }));
  return message;
}

function namedSchemas(schemas: Json): Json[] {
  return Object.entries(schemas)
    .filter((entry): entry is [string, Json] => isJsonObject(entry[1]))
    .map(([name, value]) => ({ name, value: schemaMessage(value) }));
}

/**
 * Builds the encoder once per server (no module state): `encode(document)` turns a Swagger 2.0
 * document (`swagger`, `info`, `definitions`; paths are not carried) into the bytes of gnostic's
 * `openapi.v2.Document`, which kube-openapi's `proto.NewOpenAPIData` reads.
 */
export function openApiV2ProtobufEncoder(): { encode(document: Json): Uint8Array } {
  const root = protobuf.Root.fromJSON({
    nested: { openapi: { nested: { v2: { nested: gnosticTypes } } } },
  });
  const documentType = root.lookupType('openapi.v2.Document');
  return {
    encode(document) {
      const info = isJsonObject(document.info) ? document.info : {};
      const message = {
        swagger: String(document.swagger ?? '2.0'),
        info: { title: String(info.title ?? ''), version: String(info.version ?? '') },
        paths: {},
        definitions: {
          additionalProperties: namedSchemas(
            isJsonObject(document.definitions) ? document.definitions : {},
          ),
        },
      };
      return documentType.encode(documentType.fromObject(message)).finish();
    },
  };
}
