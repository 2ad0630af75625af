/**
 * What a strategic merge patch needs to know about a type: the `patchStrategy` and
 * `patchMergeKey` struct tags of its fields, as the Go API types declare them.
 */

/**
 * A field's `patchStrategy` tag. Only `merge` changes how the server applies a patch (lists
 * merge instead of being replaced); `retainKeys` matters to clients computing patches and is
 * kept here for completeness; `replace` replaces even an object wholesale.
 */
export type PatchStrategy = 'merge' | 'retainKeys' | 'merge,retainKeys' | 'replace';

/** The patch metadata of one field. */
export interface StrategicField {
  /** Absent: lists are replaced, objects merged. */
  readonly patchStrategy?: PatchStrategy;
  /**
   * For a list of objects with the `merge` strategy: the item field that identifies an item
   * (`name` for containers). Absent for lists of scalars, which merge as ordered sets.
   */
  readonly patchMergeKey?: string;
  /** The schema of the field's value, or of each item when the field is a list. */
  readonly schema?: StrategicSchema;
}

/**
 * The patch metadata of an object type, by JSON field name. Fields not listed are patched as
 * a JSON merge patch would: objects merge recursively (directives inside them still apply),
 * lists and scalars are replaced.
 */
export interface StrategicSchema {
  readonly fields: Readonly<Record<string, StrategicField>>;
}

/** The metadata of `field` in `schema`, if either is known. */
export function strategicField(
  schema: StrategicSchema | undefined,
  field: string,
): StrategicField | undefined {
  if (schema === undefined || !Object.hasOwn(schema.fields, field)) return undefined;
  return schema.fields[field];
}

/** Whether the field's lists merge (`patchStrategy` includes `merge`). */
export function mergesLists(field: StrategicField | undefined): boolean {
  return field?.patchStrategy === 'merge' || field?.patchStrategy === 'merge,retainKeys';
}

/** Whether the field's objects are replaced rather than merged (`patchStrategy: replace`). */
export function replacesObjects(field: StrategicField | undefined): boolean {
  return field?.patchStrategy === 'replace';
}
