import { isJsonObject } from '@ops/api';
/**
 * The object an applied configuration makes of the live one (structured-merge-diff
 * typed/merge.go): the configuration's values win; granular maps keep the live fields the
 * configuration does not name; keyed lists and sets merge item by item, in the
 * configuration's order for the items it names, live items it does not name staying where
 * they were; atomic values are replaced whole.
 */

import type { PathElement } from './field-set.js';
import { type ApplyListType, type FieldType, resolveType } from './field-type.js';
import { listItemElement } from './list-item-element.js';
import { ListItemError } from './list-item-error.js';

/**
 * `config` merged into `live` under `type`; neither input is changed.
 *
 * @throws {ListItemError} when an item of `config` has no path element or two share one.
 */
export function mergeValues(live: unknown, config: unknown, type: FieldType): unknown {
  if (config === undefined) return structuredClone(live);
  if (live === undefined || live === null || config === null) return structuredClone(config);
  const resolved = resolveType(type, config);
  if (resolved.kind === 'scalar') return structuredClone(config);
  if (resolved.kind === 'list') {
    if (resolved.listType === 'atomic' || !Array.isArray(live) || !Array.isArray(config)) {
      return structuredClone(config);
    }
    return mergeLists(live, config, resolved);
  }
  if (resolved.atomic || !isJsonObject(live) || !isJsonObject(config))
    return structuredClone(config);
  const out: Record<string, unknown> = structuredClone(live);
  for (const [key, value] of Object.entries(config)) {
    out[key] = mergeValues(live[key], value, resolved.field(key).type);
  }
  return out;
}

function index(
  list: unknown[],
  type: ApplyListType,
  allowDuplicates: boolean,
): { elements: PathElement[]; items: Map<PathElement, unknown> } {
  const elements: PathElement[] = [];
  const items = new Map<PathElement, unknown>();
  list.forEach((item, i) => {
    const element = listItemElement(type, item, i);
    if (items.has(element)) {
      if (!allowDuplicates)
        throw new ListItemError(`duplicate entries for key ${element.slice(2)}`);
      items.set(element, undefined);
    } else {
      items.set(element, item);
    }
    elements.push(element);
  });
  return { elements, items };
}

/**
 * Merges two associative lists as structured-merge-diff does: walks both in step, items in
 * both merged where the configuration puts them, live-only items kept in place.
 */
function mergeLists(live: unknown[], config: unknown[], type: ApplyListType): unknown[] {
  const right = index(config, type, false);
  const left = index(live, type, true);
  const shared = right.elements.filter(
    (element) => left.items.has(element) || left.elements.includes(element),
  );
  let nextShared = shared.shift();
  const mergedRight = new Set<PathElement>();
  const out: unknown[] = [];
  const mergeItem = (element: PathElement) => {
    const merged = mergeValues(left.items.get(element), right.items.get(element), type.item);
    if (merged !== undefined) out.push(merged);
  };
  let l = 0;
  let r = 0;
  while (l < left.elements.length || r < right.elements.length) {
    const leftElement = left.elements[l];
    const rightElement = right.elements[r];
    if (leftElement !== undefined && rightElement !== undefined) {
      if (leftElement === rightElement) {
        mergedRight.add(leftElement);
        mergeItem(leftElement);
        l++;
        r++;
        nextShared = shared.shift();
        continue;
      }
      if (right.items.has(leftElement) && nextShared !== undefined && nextShared !== leftElement) {
        l++;
        continue;
      }
    }
    if (leftElement !== undefined) {
      if (!right.items.has(leftElement)) {
        const kept = mergeValues(live[l], undefined, type.item);
        if (kept !== undefined) out.push(kept);
        l++;
        continue;
      }
      if (mergedRight.has(leftElement)) l++;
    }
    if (rightElement !== undefined) {
      mergedRight.add(rightElement);
      mergeItem(rightElement);
      r++;
      if (nextShared !== undefined && nextShared === rightElement) nextShared = shared.shift();
    }
  }
  return out;
}
