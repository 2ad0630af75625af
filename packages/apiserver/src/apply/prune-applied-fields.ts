import { isJsonObject } from '@ops/api';
/**
 * The removal of fields an applier stops applying (structured-merge-diff merge/update.go
 * `prune`): what the manager applied last time, less what anyone (the applier included)
 * owns now, is removed from the merged object. A declared field the set names through its
 * children counts as named itself (`EnsureNamedFieldsAreMembers`), so a struct nobody owns
 * anything in any more goes with its last field.
 */

import { FieldSet, type PathElement } from './field-set.js';
import { type FieldType, resolveType } from './field-type.js';
import { listItemElement } from './list-item-element.js';

/**
 * `merged` without the fields of `lastApplied` that are not in `owned` (the union of every
 * manager's set after the apply). Returns a new value; `merged` is not changed.
 */
export function pruneAppliedFields(
  merged: unknown,
  lastApplied: FieldSet,
  owned: FieldSet,
  type: FieldType,
): unknown {
  if (lastApplied.isEmpty()) return merged;
  const remove = namedFieldsAsMembers(lastApplied, merged, type).difference(
    namedFieldsAsMembers(owned, merged, type),
  );
  return removeFields(merged, remove, type);
}

/** `set` with every declared field that has children in it made a member too. */
function namedFieldsAsMembers(set: FieldSet, value: unknown, type: FieldType): FieldSet {
  const out = new FieldSet();
  out.member = set.member;
  const resolved = resolveType(type, value);
  for (const [element, child] of set.children) {
    let childValue: unknown;
    let childType: FieldType = type;
    let declared = false;
    if (element.startsWith('f:') && resolved.kind === 'map') {
      const name = element.slice(2);
      const field = resolved.field(name);
      childType = field.type;
      declared = field.declared;
      childValue = isJsonObject(value) ? value[name] : undefined;
    } else if (resolved.kind === 'list') {
      childType = resolved.item;
      childValue = Array.isArray(value) ? findItem(value, resolved, element) : undefined;
    }
    const converted = namedFieldsAsMembers(child, childValue, childType);
    if (declared) converted.member = true;
    out.children.set(element, converted);
  }
  return out;
}

function findItem(
  list: unknown[],
  type: Extract<FieldType, { kind: 'list' }>,
  element: PathElement,
): unknown {
  for (const [index, item] of list.entries()) {
    try {
      if (listItemElement(type, item, index) === element) return item;
    } catch {
      // An item without a path element cannot be the one named.
    }
  }
  return undefined;
}

/** `value` without the members of `remove` (whole subtrees), descending into its children. */
function removeFields(value: unknown, remove: FieldSet, type: FieldType): unknown {
  const resolved = resolveType(type, value);
  if (resolved.kind === 'list') {
    if (resolved.listType === 'atomic' || !Array.isArray(value)) return value;
    const out: unknown[] = [];
    value.forEach((item, index) => {
      let element: PathElement;
      try {
        element = listItemElement(resolved, item, index);
      } catch {
        out.push(item);
        return;
      }
      const child = remove.get(element);
      if (child?.member) return;
      out.push(child ? removeFields(item, child, resolved.item) : item);
    });
    return out.length > 0 || value.length === 0 ? out : undefined;
  }
  if (resolved.kind !== 'map' || resolved.atomic || !isJsonObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const child = remove.get(`f:${key}`);
    if (child?.member) continue;
    const kept = child ? removeFields(item, child, resolved.field(key).type) : item;
    if (kept !== undefined) out[key] = kept;
  }
  return Object.keys(out).length > 0 || Object.keys(value).length === 0 ? out : undefined;
}
