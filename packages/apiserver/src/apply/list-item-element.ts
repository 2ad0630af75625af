/**
 * The path element of a list item (structured-merge-diff typed/helpers.go
 * `listItemToPathElement`): `k:{...}` by the key fields of a `map` list (sorted by name, a
 * missing key taking its default), `v:<json>` for an item of a `set`, `i:<n>` otherwise.
 */
import { isJsonObject } from '@ops/api';
import type { PathElement } from './field-set.js';
import type { ApplyListType } from './field-type.js';
import { ListItemError } from './list-item-error.js';

/**
 * The path element of `item`, the `index`th item of a list of type `list`.
 *
 * @throws {ListItemError} worded as structured-merge-diff words it, when an item of a `map`
 *   list is not an object or has none of its keys, or an item of a `set` is an object
 *   or list.
 */
export function listItemElement(list: ApplyListType, item: unknown, index: number): PathElement {
  if (list.listType === 'map') {
    if (!isJsonObject(item)) {
      throw new ListItemError(
        `element ${index}: associative list with keys may not have non-map elements`,
      );
    }
    const fields = item;
    const keys: Record<string, unknown> = {};
    for (const key of [...list.keys].sort()) {
      const value = fields[key] ?? list.keyDefaults[key];
      if (value !== undefined && value !== null) keys[key] = value;
    }
    if (Object.keys(keys).length === 0) {
      throw new ListItemError(
        `element ${index}: associative list with keys has an element that omits all key fields ${JSON.stringify(list.keys)} (and doesn't have default values for any key fields)`,
      );
    }
    return `k:${JSON.stringify(keys)}`;
  }
  if (list.listType === 'set') {
    if (typeof item === 'object' && item !== null) {
      throw new ListItemError(
        `element ${index}: associative list without keys has an element that's a map type`,
      );
    }
    return `v:${JSON.stringify(item)}`;
  }
  return `i:${index}`;
}
