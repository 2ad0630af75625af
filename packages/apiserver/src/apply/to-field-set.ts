import { isJsonObject } from '@ops/api';
/**
 * The fields a value sets (structured-merge-diff typed/tofieldset.go): what an applier owns
 * after applying it. Scalars, atomic lists and maps, empty maps and list items are members;
 * a declared field holding a non-empty map is not (its own fields are), an undeclared map
 * entry is.
 */

import { FieldSet, formatFieldPath, type PathElement } from './field-set.js';
import { type FieldType, resolveType } from './field-type.js';
import { listItemElement } from './list-item-element.js';
import { ListItemError } from './list-item-error.js';

/**
 * The field set of `value` under `type`.
 *
 * @throws {ListItemError} when a list item has no path element (see {@link listItemElement}),
 *   or a `map` list holds two items with the same keys (`duplicate entries for key`).
 */
export function toFieldSet(value: unknown, type: FieldType): FieldSet {
  const set = new FieldSet();
  walk(value, type, [], set);
  return set;
}

function walk(value: unknown, type: FieldType, path: PathElement[], set: FieldSet): void {
  const resolved = resolveType(type, value);
  if (resolved.kind === 'scalar') {
    set.insert(path);
    return;
  }
  if (resolved.kind === 'list') {
    if (resolved.listType === 'atomic') {
      set.insert(path);
      return;
    }
    if (!Array.isArray(value)) {
      set.insert(path);
      return;
    }
    const seen = new Set<PathElement>();
    value.forEach((item, index) => {
      let element: PathElement;
      try {
        element = listItemElement(resolved, item, index);
      } catch (error) {
        if (!ListItemError.isInstance(error)) throw error;
        throw new ListItemError(`${formatFieldPath(path)}: ${error.message}`);
      }
      if (seen.has(element)) {
        throw new ListItemError(
          `${formatFieldPath(path)}: duplicate entries for key ${formatFieldPath([element])}`,
        );
      }
      seen.add(element);
      walk(item, resolved.item, [...path, element], set);
      set.insert([...path, element]);
    });
    return;
  }
  if (resolved.atomic || !isJsonObject(value)) {
    set.insert(path);
    return;
  }
  for (const [key, item] of Object.entries(value)) {
    const field = resolved.field(key);
    const childPath = [...path, `f:${key}`];
    walk(item, field.type, childPath, set);
    if (
      item === null ||
      (isJsonObject(item) && Object.keys(item).length === 0) ||
      !field.declared
    ) {
      set.insert(childPath);
    }
  }
}
