import { isJsonObject } from '@ops/api';
import type { StatusError } from '../api/status-error.js';
import {
  cloneJson,
  hasKey,
  type JsonKind,
  type JsonObject,
  type JsonValue,
  jsonKind,
  setKey,
} from './json-value.js';
import {
  goFormat,
  goFormatString,
  goJsonTypeName,
  goType,
  patchBadRequest,
  patchInternal,
  patchRejected,
} from './patch-error.js';
import {
  mergesLists,
  replacesObjects,
  type StrategicField,
  type StrategicSchema,
  strategicField,
} from './strategic-schema.js';

const directiveMarker = '$patch';
const retainKeysDirective = '$retainKeys';
const deleteFromPrimitiveListPrefix = '$deleteFromPrimitiveList';
const setElementOrderPrefix = '$setElementOrder';

const badPrimitiveList = 'invalid patch format of primitive list';
const badRetainKeys = 'invalid patch format of retainKeys';
const badSetElementOrder = 'invalid patch format of setElementOrder list';
const mapType = 'map[string]interface {}';
const listType = '[]interface {}';

/**
 * Applies a Kubernetes strategic merge patch (`application/strategic-merge-patch+json`) to
 * `document` as kube-apiserver does for built-in kinds, returning a new object; neither input
 * is modified and the result shares nothing with them.
 *
 * The patch merges like a JSON merge patch (`null` deletes a field, objects merge), except:
 * - a list whose field has `patchStrategy: merge` in `schema` merges with the live list: items
 *   of a list of objects are matched by the field's `patchMergeKey` and merged, new ones
 *   added; a list of scalars merges as an ordered set. Other lists are replaced;
 * - `$patch: replace` in an object replaces the object; `$patch: delete` empties it; in a
 *   merging list, an item `{"$patch": "delete", <key>: <value>}` removes the items with that
 *   key and `{"$patch": "replace"}` makes the rest of the patch list replace the live one;
 * - `$retainKeys: [...]` in an object removes the live fields it does not name;
 * - `$deleteFromPrimitiveList/<field>: [...]` removes those values from a list of scalars;
 * - `$setElementOrder/<field>: [...]` orders the merged list: patch items as listed, live items
 *   the patch does not mention kept near their neighbours.
 *
 * Without `$setElementOrder`, items new to a merging list come before the live items they
 * are compared with, as in kube-apiserver (adding a container puts it first). Values added
 * whole (a new field, a new list item) lose their `null` fields and directives, as
 * kube-apiserver's decoding into the typed object would drop them. `patch` `null` changes
 * nothing.
 *
 * @param schema the kind's patch metadata ({@link strategicSchemaFor}); fields it does not
 *   describe patch like a JSON merge patch.
 * @throws {StatusError} as kube-apiserver answers:
 *   - 400 BadRequest when `patch` is not an object, or for a malformed `$retainKeys` (not a
 *     list, or the patch sets a field it does not name), `$deleteFromPrimitiveList` or
 *     `$setElementOrder` key;
 *   - 422 Invalid (generic message) for a list of lists;
 *   - 500 with kube-apiserver's message for what its merge code rejects with a plain error:
 *     an item without the merge key, `$patch` values other than `replace` / `delete` (`merge`
 *     included, which kube-apiserver does not implement), mixed item types, a
 *     `$setElementOrder` that contradicts the patch list.
 *   Never any other error for any JSON input.
 */
export function applyStrategicMergePatch(
  document: Readonly<Record<string, unknown>>,
  patch: unknown,
  schema: StrategicSchema,
): JsonObject {
  const source = cloneJson(patch);
  const target = cloneJson(document);
  const original = isJsonObject(target) ? target : {};
  if (source === null) return original;
  if (!isJsonObject(source)) {
    throw patchBadRequest(
      `json: cannot unmarshal ${goJsonTypeName(source)} into Go value of type ${mapType}`,
    );
  }
  return mergeMap(original, source, schema);
}

/** Merges `patch` into `original`; both are private copies and both may be modified. */
function mergeMap(
  original: JsonObject,
  patch: JsonObject,
  schema: StrategicSchema | undefined,
): JsonObject {
  if (hasKey(patch, directiveMarker)) return directiveInMap(patch);
  applyRetainKeys(original, patch);
  applySetElementOrder(original, patch, schema);

  // Deletion lists after the lists they delete from, so that a patch adding and removing
  // values of one list gives one answer (kube-apiserver's map order is random).
  const keys = Object.keys(patch);
  const ordered = [
    ...keys.filter((key) => !key.startsWith(deleteFromPrimitiveListPrefix)),
    ...keys.filter((key) => key.startsWith(deleteFromPrimitiveListPrefix)),
  ];
  for (const patchKey of ordered) {
    const value = patch[patchKey];
    if (value === undefined) continue;
    const isDeleteList = patchKey.startsWith(deleteFromPrimitiveListPrefix);
    const key = isDeleteList
      ? extractKey(patchKey, deleteFromPrimitiveListPrefix, badPrimitiveList)
      : patchKey;
    if (value === null) {
      delete original[key];
      continue;
    }
    const current = hasKey(original, key) ? original[key] : undefined;
    if (current === undefined || jsonKind(current) !== jsonKind(value)) {
      if (!isDeleteList) takeWhole(original, key, value);
      continue;
    }
    const field = strategicField(schema, key);
    if (isJsonObject(current) && isJsonObject(value)) {
      setKey(
        original,
        key,
        replacesObjects(field)
          ? asObject(addedValue(value))
          : mergeMap(current, value, field?.schema),
      );
    } else if (Array.isArray(current) && Array.isArray(value)) {
      setKey(original, key, mergeListField(current, value, key, field, isDeleteList).merged);
    } else {
      setKey(original, key, value);
    }
  }
  return original;
}

/** `$patch` in an object: `replace` gives the rest of the patch, `delete` an empty object. */
function directiveInMap(patch: JsonObject): JsonObject {
  const directive = patch[directiveMarker];
  if (directive === 'replace') {
    delete patch[directiveMarker];
    return asObject(addedValue(patch));
  }
  if (directive === 'delete') return {};
  throw unknownPatchType(directive, patch);
}

function applyRetainKeys(original: JsonObject, patch: JsonObject): void {
  if (!hasKey(patch, retainKeysDirective)) return;
  const retain = patch[retainKeysDirective];
  delete patch[retainKeysDirective];
  if (!Array.isArray(retain)) throw patchBadRequest(badRetainKeys);
  const retained = new Set<JsonValue>(retain);
  for (const [key, value] of Object.entries(patch)) {
    if (
      value === null ||
      key.startsWith(deleteFromPrimitiveListPrefix) ||
      key.startsWith(setElementOrderPrefix)
    ) {
      continue;
    }
    if (!retained.has(key)) throw patchBadRequest(badRetainKeys);
  }
  for (const key of Object.keys(original)) {
    if (!retained.has(key)) delete original[key];
  }
}

/**
 * Handles every `$setElementOrder/<field>` of `patch`: merges the patch list of that field
 * (removing it from `patch`) and orders the result.
 */
function applySetElementOrder(
  original: JsonObject,
  patch: JsonObject,
  schema: StrategicSchema | undefined,
): void {
  for (const orderKey of Object.keys(patch)) {
    if (!orderKey.startsWith(setElementOrderPrefix)) continue;
    const order = patch[orderKey] ?? null;
    delete patch[orderKey];
    if (!Array.isArray(order)) throw patchInternal(badArgType(listType, order));
    const key = extractKey(orderKey, setElementOrderPrefix, badSetElementOrder);
    const originalList = listAt(original, key);
    const patchList = listAt(patch, key);
    const field = strategicField(schema, key);
    const mergeKey = field?.patchMergeKey ?? '';
    validateAgainstOrder(patchList ?? [], order, mergeKey);

    let merged: JsonValue[];
    let serverOrder: JsonValue[];
    if (originalList !== undefined && patchList !== undefined) {
      const result = mergeListField(originalList, patchList, key, field, false);
      merged = result.merged;
      serverOrder = result.serverView;
    } else if (originalList !== undefined) {
      merged = originalList;
      serverOrder = originalList;
    } else if (patchList !== undefined) {
      merged = addedList(patchList);
      serverOrder = [];
    } else {
      continue;
    }
    const kind = elementKind([originalList ?? [], patchList ?? []]);
    const [patchItems, serverOnly] = partition(merged, order, mergeKey, kind);
    setKey(
      original,
      key,
      normalizeElementOrder(patchItems, serverOnly, order, serverOrder, mergeKey, kind),
    );
    delete patch[key];
  }
}

/** The list at `object[key]`, undefined when absent; anything but a list is refused. */
function listAt(object: JsonObject, key: string): JsonValue[] | undefined {
  if (!hasKey(object, key)) return undefined;
  const value = object[key] ?? null;
  if (!Array.isArray(value)) throw patchInternal(badArgType(listType, value));
  return value;
}

interface MergedList {
  merged: JsonValue[];
  /**
   * The live list as kube-apiserver's `$setElementOrder` handling then sees it: its storage
   * is shared with the merge, so items removed by `$patch: delete` leave room that the first
   * items added take.
   */
  serverView: JsonValue[];
}

function mergeListField(
  current: JsonValue[],
  patch: JsonValue[],
  key: string,
  field: StrategicField | undefined,
  isDeleteList: boolean,
): MergedList {
  if (mergesLists(field) || isDeleteList) {
    return mergeList(current, patch, key, field, isDeleteList);
  }
  return { merged: addedList(patch), serverView: current };
}

function mergeList(
  original: JsonValue[],
  patch: JsonValue[],
  key: string,
  field: StrategicField | undefined,
  isDeleteList: boolean,
): MergedList {
  if (original.length === 0 && patch.length === 0) return { merged: [], serverView: original };
  const kind = elementKind([original, patch]);
  const mergeKey = field?.patchMergeKey ?? '';

  if (kind !== 'object') {
    if (isDeleteList) {
      const merged = original.filter((value) => !patch.some((drop) => goEqual(drop, value)));
      return { merged, serverView: original };
    }
    const merged: JsonValue[] = [];
    for (const value of [...original, ...patch]) {
      if (!merged.some((seen) => goEqual(seen, value))) merged.push(value);
    }
    const [patchItems, serverOnly] = partition(merged, patch, mergeKey, kind);
    return {
      merged: normalizeElementOrder(patchItems, serverOnly, patch, original, mergeKey, kind),
      serverView: original,
    };
  }

  if (mergeKey === '') throw patchInternal(`cannot merge lists without merge key for ${key}`);
  const special = withoutSpecialElements(original, patch, mergeKey);
  const added = new Set<JsonValue>();
  const merged = [...special.live];
  for (const item of special.rest) {
    if (!hasKey(item, mergeKey)) throw patchInternal(noMergeKey(item, mergeKey));
    const index = findByMergeKey(merged, mergeKey, item[mergeKey] ?? null);
    const existing = index >= 0 ? merged[index] : undefined;
    if (isJsonObject(existing)) {
      merged[index] = mergeMap(existing, item, field?.schema);
    } else {
      merged.push(item);
      added.add(item);
    }
  }
  const serverView = special.replaced
    ? special.afterDeletes
    : [...special.live, ...special.rest.filter((item) => added.has(item))].slice(
        0,
        original.length,
      );
  const [patchItems, serverOnly] = partition(merged, special.rest, mergeKey, kind);
  const ordered = normalizeElementOrder(
    patchItems,
    serverOnly,
    special.rest,
    special.live,
    mergeKey,
    kind,
  );
  return {
    // New items are plain objects without `$patch` (those were taken out above).
    merged: ordered.map((item) => (added.has(item) ? asObject(addedValue(item)) : item)),
    serverView,
  };
}

interface SpecialElements {
  /** The live list after `$patch: delete` items, or the replacement list. */
  live: JsonValue[];
  /** The patch items left to merge. */
  rest: JsonObject[];
  afterDeletes: JsonValue[];
  replaced: boolean;
}

/** Applies the `$patch` items of a patch list of objects. */
function withoutSpecialElements(
  original: JsonValue[],
  patch: JsonValue[],
  mergeKey: string,
): SpecialElements {
  let live = original;
  const rest: JsonObject[] = [];
  let replaced = false;
  for (const item of patch) {
    if (!isJsonObject(item)) throw patchInternal(badArgType(mapType, item));
    if (!hasKey(item, directiveMarker)) {
      rest.push(item);
      continue;
    }
    const directive = item[directiveMarker];
    if (directive === 'delete') {
      if (!hasKey(item, mergeKey)) throw patchInternal(noMergeKey(item, mergeKey));
      const value = item[mergeKey] ?? null;
      live = live.filter(
        (entry) =>
          !(
            isJsonObject(entry) &&
            hasKey(entry, mergeKey) &&
            goEqual(entry[mergeKey] ?? null, value)
          ),
      );
    } else if (directive === 'replace') {
      replaced = true;
    } else if (directive === 'merge') {
      throw patchInternal('merging lists cannot yet be specified in the patch');
    } else {
      throw unknownPatchType(directive, item);
    }
  }
  if (replaced) {
    return {
      live: rest.map((item) => asObject(addedValue(item))),
      rest: [],
      afterDeletes: live,
      replaced,
    };
  }
  return { live, rest, afterDeletes: live, replaced };
}

function findByMergeKey(list: JsonValue[], mergeKey: string, value: JsonValue): number {
  return list.findIndex(
    (entry) =>
      isJsonObject(entry) && hasKey(entry, mergeKey) && goEqual(entry[mergeKey] ?? null, value),
  );
}

/**
 * Splits `list` into the items `by` has (by merge key for objects) and the others, keeping
 * their order.
 */
function partition(
  list: JsonValue[],
  by: JsonValue[],
  mergeKey: string,
  kind: JsonKind,
): [JsonValue[], JsonValue[]] {
  const inPatch: JsonValue[] = [];
  const serverOnly: JsonValue[] = [];
  for (const item of list) {
    let found: boolean;
    if (mergeKey === '') {
      if (kind === 'object' || kind === 'array') {
        throw patchInternal(`runtime error: hash of unhashable type ${goType(item)}`);
      }
      found = by.some((entry) => goEqual(entry, item));
    } else {
      if (!isJsonObject(item)) throw patchInternal(badArgType(mapType, item));
      if (!hasKey(item, mergeKey)) throw patchInternal(noMergeKey(item, mergeKey));
      found = containsMergeKey(by, mergeKey, item[mergeKey] ?? null);
    }
    (found ? inPatch : serverOnly).push(item);
  }
  return [inPatch, serverOnly];
}

function containsMergeKey(list: JsonValue[], mergeKey: string, value: JsonValue): boolean {
  for (const [index, entry] of list.entries()) {
    if (!isJsonObject(entry)) throw patchInternal(`value for key ${index} is not a map`);
    if (hasKey(entry, mergeKey) && goEqual(entry[mergeKey] ?? null, value)) return true;
  }
  return false;
}

/**
 * Orders a merged list as kube-apiserver does: the patch items in `patchOrder`, the live-only
 * items in `serverOrder`, then interleaved so that a live-only item stays before the patch
 * items that followed it in `serverOrder`.
 */
function normalizeElementOrder(
  patchItems: JsonValue[],
  serverOnly: JsonValue[],
  patchOrder: JsonValue[],
  serverOrder: JsonValue[],
  mergeKey: string,
  kind: JsonKind,
): JsonValue[] {
  const left = sortByOrder(serverOnly, serverOrder, mergeKey, kind);
  const right = sortByOrder(patchItems, patchOrder, mergeKey, kind);
  const merged: JsonValue[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    const l = left[i];
    const r = right[j];
    if (l === undefined) {
      if (r !== undefined) merged.push(r);
      j++;
    } else if (r === undefined) {
      merged.push(l);
      i++;
    } else {
      const li = indexIn(serverOrder, l, mergeKey, kind);
      const ri = indexIn(serverOrder, r, mergeKey, kind);
      if (li >= 0 && ri >= 0 && li < ri) {
        merged.push(l);
        i++;
      } else {
        merged.push(r);
        j++;
      }
    }
  }
  return merged;
}

/** `items` stably sorted by their position in `order`; `$patch: delete` items last. */
function sortByOrder(
  items: JsonValue[],
  order: JsonValue[],
  mergeKey: string,
  kind: JsonKind,
): JsonValue[] {
  let kept = items;
  let deletes: JsonValue[] = [];
  if (kind === 'object') {
    for (const item of [...items, ...order]) {
      if (!isJsonObject(item)) throw patchInternal(badArgType(mapType, item));
      if (!hasKey(item, mergeKey)) throw patchInternal(noMergeKey(item, mergeKey));
    }
    kept = items.filter((item) => !isDeleteItem(item));
    deletes = items.filter(isDeleteItem);
  }
  const positioned = kept.map((item) => {
    const at = indexIn(order, item, mergeKey, kind);
    return { item, at: at < 0 ? Number.POSITIVE_INFINITY : at };
  });
  positioned.sort((a, b) => (a.at === b.at ? 0 : a.at < b.at ? -1 : 1));
  return [...positioned.map(({ item }) => item), ...deletes];
}

function isDeleteItem(item: JsonValue): boolean {
  return isJsonObject(item) && item[directiveMarker] === 'delete';
}

/** The position of `item` in `list`, matching objects by merge key; -1 when absent. */
function indexIn(list: JsonValue[], item: JsonValue, mergeKey: string, kind: JsonKind): number {
  const keyOf = (value: JsonValue): JsonValue =>
    kind === 'object' ? (isJsonObject(value) ? (value[mergeKey] ?? null) : null) : value;
  const wanted = keyOf(item);
  return list.findIndex((entry) => goEqual(keyOf(entry), wanted));
}

/**
 * Checks a `$setElementOrder` list against its patch list: every patch item must appear in
 * it, in the same relative order.
 */
function validateAgainstOrder(patchList: JsonValue[], order: JsonValue[], mergeKey: string): void {
  if (order.length === 0 || patchList.length === 0) return;
  let items = patchList;
  if (mergeKey !== '') {
    for (const item of patchList) {
      if (!isJsonObject(item)) throw patchInternal(badArgType(mapType, item));
    }
    items = patchList.filter((item) => !isDeleteItem(item));
  }
  let p = 0;
  let s = 0;
  while (p < items.length && s < order.length) {
    const item = items[p] ?? null;
    if (isJsonObject(item) && hasKey(item, directiveMarker)) {
      p++;
      continue;
    }
    if (mergeKeyValueEqual(item, order[s] ?? null, mergeKey)) p++;
    s++;
  }
  if (p < items.length && s >= order.length) {
    throw patchInternal(
      `the order in patch list:\n${goFormat(patchList)}\n doesn't match ${setElementOrderPrefix} list:\n${goFormat(order)}`,
    );
  }
}

function mergeKeyValueEqual(left: JsonValue, right: JsonValue, mergeKey: string): boolean {
  if (mergeKey === '') return goEqual(left, right);
  if (!isJsonObject(left)) throw patchInternal(badArgType(mapType, left));
  if (!isJsonObject(right)) throw patchInternal(badArgType(mapType, right));
  if (!hasKey(left, mergeKey)) throw patchInternal(noMergeKey(left, mergeKey));
  if (!hasKey(right, mergeKey)) throw patchInternal(noMergeKey(right, mergeKey));
  return goEqual(left[mergeKey] ?? null, right[mergeKey] ?? null);
}

/**
 * The one kind every item of `lists` has: lists of lists are refused (422) and so are
 * mixed kinds and lists without items (500), as kube-apiserver does.
 */
function elementKind(lists: JsonValue[][]): JsonKind {
  let kind: JsonKind | undefined;
  for (const list of lists) {
    for (const item of list) {
      const itemKind = jsonKind(item);
      if (kind === undefined) {
        if (itemKind === 'array') throw patchRejected();
        kind = itemKind;
      } else if (itemKind !== kind) {
        throw patchInternal(`list element types are not identical: ${goFormat(lists)}`);
      }
    }
  }
  if (kind === undefined) throw patchInternal('no elements in any of the given slices');
  return kind;
}

/**
 * Go's `==` on decoded JSON values: scalars by type and value, `nil` equal to `nil`; two
 * objects or two lists cannot be compared (Go panics, kube-apiserver answers 500).
 */
function goEqual(a: JsonValue, b: JsonValue): boolean {
  const kindA = jsonKind(a);
  if ((kindA === 'object' || kindA === 'array') && kindA === jsonKind(b)) {
    throw patchInternal(`runtime error: comparing uncomparable type ${goType(a)}`);
  }
  return a === b;
}

/** Sets a value the patch adds whole; a `$patch` object as value removes the field. */
function takeWhole(original: JsonObject, key: string, value: JsonValue): void {
  const added = addedValue(value);
  if (added === undefined) delete original[key];
  else setKey(original, key, added);
}

/**
 * A value the patch adds whole, as the typed object would keep it: without `null` fields,
 * without directive keys, without `$patch` objects (undefined when `value` is one).
 */
function addedValue(value: JsonValue): JsonValue | undefined {
  if (Array.isArray(value)) return addedList(value);
  if (!isJsonObject(value)) return value;
  if (hasKey(value, directiveMarker)) return undefined;
  const copy: JsonObject = {};
  for (const [key, member] of Object.entries(value)) {
    if (member === null || isDirectiveKey(key)) continue;
    const added = addedValue(member);
    if (added !== undefined) setKey(copy, key, added);
  }
  return copy;
}

function addedList(list: JsonValue[]): JsonValue[] {
  const copy: JsonValue[] = [];
  for (const item of list) {
    const added = addedValue(item);
    if (added !== undefined) copy.push(added);
  }
  return copy;
}

function asObject(value: JsonValue | undefined): JsonObject {
  return isJsonObject(value) ? value : {};
}

function isDirectiveKey(key: string): boolean {
  return (
    key === directiveMarker ||
    key === retainKeysDirective ||
    key.startsWith(`${deleteFromPrimitiveListPrefix}/`) ||
    key.startsWith(`${setElementOrderPrefix}/`)
  );
}

/** The field a `prefix/<field>` directive key names. */
function extractKey(key: string, prefix: string, error: string): string {
  const slash = key.indexOf('/');
  if (slash < 0 || key.slice(0, slash) !== prefix) throw patchBadRequest(error);
  return key.slice(slash + 1);
}

function noMergeKey(item: JsonObject, mergeKey: string): string {
  return `map: ${goFormat(item)} does not contain declared merge key: ${mergeKey}`;
}

function badArgType(expected: string, actual: JsonValue): string {
  return `expected a ${expected}, but received a ${actual === null ? '%!s(<nil>)' : goType(actual)}`;
}

function unknownPatchType(directive: JsonValue | undefined, item: JsonObject): StatusError {
  return patchInternal(
    `unknown patch type: ${goFormatString(directive)} in map: ${goFormat(item)}`,
  );
}
