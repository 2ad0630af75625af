import protobuf from 'protobufjs/light.js';
import generated from './generated/kubernetes-protos.json' with { type: 'json' };

/**
 * The Kubernetes protobuf definitions the server decodes with, loaded with protobufjs
 * reflection from `generated/kubernetes-protos.json`: the JSON descriptor that
 * `scripts/refresh-protos.mjs` builds from the vendored upstream `generated.proto` files
 * (`proto/`, versions in `proto/VERSIONS.json`) and the Go struct tags of the same modules.
 * A JSON descriptor rather than the `.proto` text: it is bundled into the package's `dist` like
 * any module (nothing to locate on disk at run time, so the published tarball works as the
 * workspace does), loads without protobufjs's parser (`protobufjs/light`), and carries the Go
 * JSON tags, which the `.proto` files do not.
 */

/** The k8s.io/api and k8s.io/apimachinery module versions the definitions come from. */
export const kubernetesProtoVersions: Readonly<Record<string, string>> = generated.versions;

/**
 * Messages whose JSON form is not an object of their fields (Go types with hand-written JSON
 * marshalers, or a `[]string` the generator wraps in a message):
 * - `Time` / `MicroTime`: `{seconds 1, nanos 2}` → RFC 3339 string (`null` when empty);
 * - `Duration`: `{duration 1: int64 ns}` → Go duration string (`1h0m0s`);
 * - `Quantity`: `{string 1}` → the string;
 * - `IntOrString`: `{type 1, intVal 2, strVal 3}` → a JSON number or string;
 * - `RawExtension` / `FieldsV1`: `{raw 1: bytes}` → the parsed JSON value of the bytes;
 * - `StringList`: `{items 1: repeated string}` standing for a Go `[]string`
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

const meta = 'k8s.io.apimachinery.pkg.apis.meta.v1';
const wellKnownByName: ReadonlyMap<string, WellKnownType> = new Map([
  [`${meta}.Time`, 'Time'],
  [`${meta}.MicroTime`, 'MicroTime'],
  [`${meta}.Duration`, 'Duration'],
  [`${meta}.FieldsV1`, 'FieldsV1'],
  ['k8s.io.apimachinery.pkg.api.resource.Quantity', 'Quantity'],
  ['k8s.io.apimachinery.pkg.util.intstr.IntOrString', 'IntOrString'],
  ['k8s.io.apimachinery.pkg.runtime.RawExtension', 'RawExtension'],
]);

let root: protobuf.Root | undefined;

/** The loaded definitions (built once, on first use). */
export const kubernetesProtos = (): protobuf.Root => {
  if (root === undefined) {
    const loaded = protobuf.Root.fromJSON(generated.descriptor as protobuf.INamespace);
    loaded.resolveAll();
    root = loaded;
  }
  return root;
};

/** The message named `name` (fully qualified, `k8s.io.api.core.v1.Pod`), or undefined. */
export const messageType = (name: string): protobuf.Type | undefined => {
  const found = kubernetesProtos().lookup(name);
  return found instanceof protobuf.Type ? found : undefined;
};

/** The fully qualified name of a message, without protobufjs's leading dot. */
export const messageName = (type: protobuf.Type): string => type.fullName.slice(1);

/** The special JSON form of a message (see {@link WellKnownType}), or undefined. */
export const wellKnownOf = (type: protobuf.Type): WellKnownType | undefined =>
  wellKnownByName.get(messageName(type)) ??
  (type.getOption('stringList') === true ? 'StringList' : undefined);

/** A field's JSON name: its Go json tag (the proto name for an inline field). */
export const jsonNameOf = (field: protobuf.Field): string => {
  const json = field.getOption('json');
  return typeof json === 'string' ? json : field.name;
};

/**
 * Whether a scalar field keeps its zero value when it is on the wire: the Go field is a pointer
 * or its json tag lacks `omitempty`. Go's encoding/json drops the zero value of other fields.
 */
export const keepsZero = (field: protobuf.Field): boolean => field.getOption('keep') === true;

/** Whether a field is an embedded Go struct whose fields JSON merges into the parent object. */
export const isInline = (field: protobuf.Field): boolean => field.getOption('inline') === true;

/** The message type of a field's value (of a map's values), or undefined for a scalar. */
export const fieldMessage = (field: protobuf.Field): protobuf.Type | undefined =>
  field.resolve().resolvedType instanceof protobuf.Type
    ? (field.resolvedType as protobuf.Type)
    : undefined;
