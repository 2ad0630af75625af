import { isJsonObject, jsonEqual } from '@ops/api';
/**
 * What changed between two versions of an object, path by path (structured-merge-diff
 * typed/compare.go): the basis of ownership for non-apply writes and of conflicts for apply.
 */

import { FieldSet, type PathElement } from './field-set.js';
import { type FieldType, resolveType } from './field-type.js';
import { listItemElement } from './list-item-element.js';

/** The paths added, modified and removed going from `lhs` to `rhs`. */
export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

/**
 * Compares `lhs` (before; undefined when absent) with `rhs` (after) under `type`. A node that
 * appears is added, one that goes is removed, and a leaf (scalar, atomic list or map, empty
 * map or list) whose value changes is modified; descending into maps and keyed lists.
 *
 * @throws {ListItemError} when a list item has no path element.
 */
export function compareValues(lhs: unknown, rhs: unknown, type: FieldType): Comparison {
  const comparison: Comparison = {
    added: new FieldSet(),
    modified: new FieldSet(),
    removed: new FieldSet(),
  };
  if (lhs === undefined && rhs === undefined) return comparison;
  compare(lhs, rhs, type, [], comparison);
  return comparison;
}

function compare(
  lhs: unknown,
  rhs: unknown,
  type: FieldType,
  path: PathElement[],
  out: Comparison,
): void {
  const resolved = resolveType(type, rhs === undefined ? lhs : rhs);
  const leaf = () => {
    if (lhs === undefined) out.added.insert(path);
    else if (rhs === undefined) out.removed.insert(path);
    else if (!jsonEqual(lhs, rhs)) out.modified.insert(path);
  };
  let isLeaf = false;
  if (resolved.kind === 'scalar') leaf();
  else if (resolved.kind === 'list') {
    const left = Array.isArray(lhs) ? lhs : undefined;
    const right = Array.isArray(rhs) ? rhs : undefined;
    const empty = (left?.length ?? 0) === 0 && (right?.length ?? 0) === 0;
    if (resolved.listType === 'atomic' || empty || (left === undefined && right === undefined)) {
      leaf();
      isLeaf = true;
    } else {
      compareLists(left ?? [], right ?? [], resolved, path, out);
    }
  } else {
    const left = isJsonObject(lhs) ? lhs : undefined;
    const right = isJsonObject(rhs) ? rhs : undefined;
    const empty = Object.keys(left ?? {}).length === 0 && Object.keys(right ?? {}).length === 0;
    if (resolved.atomic || empty || (left === undefined && right === undefined)) {
      leaf();
      isLeaf = true;
    } else {
      const keys = new Set([...Object.keys(left ?? {}), ...Object.keys(right ?? {})]);
      for (const key of keys) {
        compare(left?.[key], right?.[key], resolved.field(key).type, [...path, `f:${key}`], out);
      }
    }
  }
  // A map or list that appears or goes is itself added or removed, not only its fields.
  if (!isLeaf && resolved.kind !== 'scalar') {
    if (lhs === undefined) out.added.insert(path);
    else if (rhs === undefined) out.removed.insert(path);
  }
}

function indexItems(
  list: unknown[],
  type: Extract<FieldType, { kind: 'list' }>,
): Map<PathElement, unknown[]> {
  const items = new Map<PathElement, unknown[]>();
  list.forEach((item, index) => {
    const element = listItemElement(type, item, index);
    const same = items.get(element);
    if (same) same.push(item);
    else items.set(element, [item]);
  });
  return items;
}

function compareLists(
  lhs: unknown[],
  rhs: unknown[],
  type: Extract<FieldType, { kind: 'list' }>,
  path: PathElement[],
  out: Comparison,
): void {
  const left = indexItems(lhs, type);
  const right = indexItems(rhs, type);
  const elements = new Set([...left.keys(), ...right.keys()]);
  for (const element of elements) {
    const before = left.get(element) ?? [];
    const after = right.get(element) ?? [];
    const itemPath = [...path, element];
    if (before.length <= 1 && after.length <= 1) {
      compare(before[0], after[0], type.item, itemPath, out);
    } else if (before.length >= 2 && after.length >= 2) {
      // Duplicates before and after are compared as one atomic value.
      if (!jsonEqual(before, after)) out.modified.insert(itemPath);
    } else if (before.length >= 2) {
      if (after.length > 0) compare(undefined, after[0], type.item, itemPath, out);
      out.removed.insert(itemPath);
    } else {
      if (before.length > 0) compare(before[0], undefined, type.item, itemPath, out);
      out.added.insert(itemPath);
    }
  }
}
