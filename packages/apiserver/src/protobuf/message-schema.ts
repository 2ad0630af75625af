/** Scalar protobuf types, as they appear in Kubernetes' `generated.proto` files. */
export type ScalarType =
  | 'string'
  | 'bool'
  | 'int32'
  | 'int64'
  | 'uint32'
  | 'uint64'
  | 'double'
  | 'float'
  | 'bytes';

/**
 * Messages whose JSON form is not an object of their fields:
 * - `Time` / `MicroTime`: meta/v1 `{seconds 1, nanos 2}` → RFC 3339 string (`null` when empty);
 * - `Duration`: meta/v1 `{duration 1: int64 ns}` → Go duration string (`1h0m0s`);
 * - `Quantity`: resource `{string 1}` → the string (`"0"` when empty);
 * - `IntOrString`: intstr `{type 1, intVal 2, strVal 3}` → a JSON number or string;
 * - `RawExtension`: runtime `{raw 1: bytes}` → the parsed JSON value of `raw`;
 * - `FieldsV1`: meta/v1 `{Raw 1: bytes}` → the parsed JSON value of `Raw`;
 * - `StringList`: a message `{items 1: repeated string}` standing for a Go `[]string`
 *   (authorization/v1 and authentication/v1 `ExtraValue`) → a JSON array.
 */
export type WellKnownType =
  | 'Time'
  | 'MicroTime'
  | 'Duration'
  | 'Quantity'
  | 'IntOrString'
  | 'RawExtension'
  | 'FieldsV1'
  | 'StringList';

const scalarTypes: ReadonlySet<string> = new Set<ScalarType>([
  'string',
  'bool',
  'int32',
  'int64',
  'uint32',
  'uint64',
  'double',
  'float',
  'bytes',
]);
const wellKnownTypes: ReadonlySet<string> = new Set<WellKnownType>([
  'Time',
  'MicroTime',
  'Duration',
  'Quantity',
  'IntOrString',
  'RawExtension',
  'FieldsV1',
  'StringList',
]);

/** The type of a field's value (or of a map's values). */
export type ValueType =
  | { readonly kind: 'scalar'; readonly scalar: ScalarType }
  | { readonly kind: 'wellKnown'; readonly wellKnown: WellKnownType }
  | { readonly kind: 'message'; readonly message: string };

/** One field of a message. */
export interface FieldSchema {
  readonly number: number;
  /** The JSON name (Go json tag); for an inline field, the proto name. */
  readonly json: string;
  readonly value: ValueType;
  /** `repeated` field: a JSON array. */
  readonly repeated: boolean;
  /** `map<string, value>` field: a JSON object. */
  readonly map: boolean;
  /**
   * A scalar that is kept when it is present on the wire with its zero value: the Go field is a
   * pointer, or its json tag lacks `omitempty`. Other scalars equal to their zero value are
   * dropped, as Go's encoding/json drops them.
   */
  readonly keepEmpty: boolean;
  /** An embedded Go struct (`json:",inline"`): its fields are merged into the parent object. */
  readonly inline: boolean;
}

/** A message: its fully qualified short name (`core.PodSpec`) and fields by number. */
export interface MessageSchema {
  readonly name: string;
  readonly fields: ReadonlyMap<number, FieldSchema>;
}

/**
 * Message field tables as data: message name → field number → a field spec string
 * `"<json> <type> [keep] [inline]"`, where `<type>` is a {@link ScalarType}, a
 * {@link WellKnownType}, a message name such as `core.Container`, `[]<type>` for a repeated
 * field, or `map:<type>` for a `map<string, type>` field. Message names carry a short package
 * prefix (`meta.`, `core.`, `apps.`, ...).
 */
export type SchemaTable = Readonly<Record<string, Readonly<Record<number, string>>>>;

const parseValueType = (text: string, where: string): ValueType => {
  if (scalarTypes.has(text)) return { kind: 'scalar', scalar: text as ScalarType };
  if (wellKnownTypes.has(text)) return { kind: 'wellKnown', wellKnown: text as WellKnownType };
  if (/^[a-z]+\.[A-Z][A-Za-z0-9]*$/.test(text)) return { kind: 'message', message: text };
  throw new Error(`schema ${where}: unknown type "${text}"`);
};

/**
 * Parses one field spec string of a {@link SchemaTable}.
 * @throws Error when the spec is malformed (a defect of the table, not of a request).
 */
export const parseFieldSpec = (number: number, spec: string, where: string): FieldSchema => {
  const [json, type, ...flags] = spec.split(' ');
  if (!json || !type) throw new Error(`schema ${where}: malformed field spec "${spec}"`);
  for (const flag of flags) {
    if (flag !== 'keep' && flag !== 'inline') {
      throw new Error(`schema ${where}: unknown flag "${flag}" in "${spec}"`);
    }
  }
  const repeated = type.startsWith('[]');
  const map = type.startsWith('map:');
  const value = parseValueType(type.slice(repeated ? 2 : map ? 4 : 0), where);
  const inline = flags.includes('inline');
  if (inline && (value.kind !== 'message' || repeated || map)) {
    throw new Error(`schema ${where}: only a singular message field can be inline`);
  }
  return { number, json, value, repeated, map, keepEmpty: flags.includes('keep'), inline };
};

/**
 * Parses and cross-checks tables into message schemas keyed by name.
 * @throws Error when a spec is malformed, a message is defined twice, or a referenced message is
 * not defined in any of the tables.
 */
export const buildSchemas = (
  tables: readonly SchemaTable[],
): ReadonlyMap<string, MessageSchema> => {
  const schemas = new Map<string, MessageSchema>();
  for (const table of tables) {
    for (const [name, rawFields] of Object.entries(table)) {
      if (schemas.has(name)) throw new Error(`schema: message ${name} is defined twice`);
      const fields = new Map<number, FieldSchema>();
      for (const [key, spec] of Object.entries(rawFields)) {
        const number = Number(key);
        fields.set(number, parseFieldSpec(number, spec, `${name}.${key}`));
      }
      schemas.set(name, { name, fields });
    }
  }
  for (const schema of schemas.values()) {
    for (const field of schema.fields.values()) {
      if (field.value.kind === 'message' && !schemas.has(field.value.message)) {
        throw new Error(
          `schema ${schema.name}.${field.number}: message ${field.value.message} is not defined`,
        );
      }
    }
  }
  return schemas;
};
