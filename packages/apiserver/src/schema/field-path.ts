/**
 * Field paths in the two spellings kube-apiserver mixes when it validates custom resources.
 *
 * The OpenAPI schema validator (kube-openapi) names a field by joining property names and map
 * keys with `.` and array indexes with `[i]` (`spec.selector.app`, `spec.ports[0].name`).
 * apimachinery's `field.Path`, used for embedded resources, list types and CRD schemas, writes
 * map keys as `[key]` (`spec.selector[app]`, `properties[spec]`). Internal to this directory.
 */

/** kube-openapi: property `name` of the value at `path` (the root path is `''`). */
export function openApiChild(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}

/** kube-openapi: map key or required field `key` of the object at `path` (always dot-joined). */
export function openApiKey(path: string, key: string): string {
  return `${path}.${key}`;
}

/** kube-openapi: item `index` of the array at `path`. */
export function openApiIndex(path: string, index: number): string {
  return `${path}[${index}]`;
}

/**
 * The `field` of an error kube-apiserver builds from a kube-openapi name: the leading `.` is
 * dropped and an empty name is apimachinery's nil path, which prints as `<nil>`.
 */
export function openApiField(name: string): string {
  const trimmed = name.startsWith('.') ? name.slice(1) : name;
  return trimmed === '' ? '<nil>' : trimmed;
}

/** field.Path: `.child` (no dot at the root). */
export function pathChild(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}

/** field.Path: `[key]` for map keys. */
export function pathKey(path: string, key: string): string {
  return `${path}[${key}]`;
}

/** field.Path: `[index]` for array items. */
export function pathIndex(path: string, index: number): string {
  return `${path}[${index}]`;
}
