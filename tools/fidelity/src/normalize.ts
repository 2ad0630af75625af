import type { Answer, CompareOptions } from './scenario.js';

/** One rule of the normalization every answer gets before it is compared. */
export interface NormalizationRule {
  name: string;
  description: string;
}

/**
 * What legitimately differs between two servers given the same requests, and how
 * {@link normalizeAnswer} removes it. Everything else is compared as the servers sent it:
 * a field one server writes and the other does not (such as `managedFields`) is a difference.
 */
export const normalizationRules: readonly NormalizationRule[] = [
  {
    name: 'uids',
    description:
      'every UUID, wherever it stands (metadata.uid, ownerReferences, messages), becomes `<uid>`',
  },
  {
    name: 'timestamps',
    description:
      'every string that is an RFC 3339 time (creationTimestamp, managedFields time, conditions) becomes `<time>`',
  },
  {
    name: 'resourceVersions',
    description:
      'a non-empty `resourceVersion` (objects, lists, bookmarks) becomes `<rv>`; a non-empty `continue` token becomes `<continue>`; so do the two resourceVersions of a `too old resource version: <rv> (<rv>)` message',
  },
  {
    name: 'generated names',
    description:
      'a `metadata.name` made from `metadata.generateName` becomes the prefix and `<suffix>`',
  },
  {
    name: 'table ages',
    description: 'the cells of a Table column named `Age` become `<age>`',
  },
  {
    name: 'unordered sets',
    description:
      "string arrays named `verbs`, `shortNames` and `categories` become sets (objects keyed `item=<value>`); a Status's `details.causes` is sorted; discovery lists (`APIGroupList.groups`, `APIResourceList.resources`, aggregated discovery items, versions' resources and subresources) become objects keyed `name=<name>` (`resource=`, `subresource=`), so a missing entry is one difference",
  },
  {
    name: 'per request',
    description:
      "a request of the corpus may compare only some facts of its body (`select`: OpenAPI, version), sort arrays whose order kube-apiserver does not promise (`unordered`), or mask values that depend on the server's setup (`mask`: a webhook URL's port)",
  },
];

/** The normalized form of an answer: what {@link compareAnswers} compares. */
export interface NormalizedAnswer {
  status: number;
  contentType: string;
  warnings: string[];
  body: unknown;
}

const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const time = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;
const tooOld = /too old resource version: \d+ \(\d+\)/g;
const sets = new Set(['verbs', 'shortNames', 'categories']);

/**
 * Applies {@link normalizationRules} to `answer`, then the request's own `options`
 * (`select` first, `unordered` and `mask` last). Returns a new value; `answer` is unchanged.
 *
 * @throws {Error} when an `unordered` path names something that is present but not an array
 *   (a mistake in the corpus).
 */
export function normalizeAnswer(answer: Answer, options: CompareOptions = {}): NormalizedAnswer {
  const body = options.select ? options.select(answer.body) : answer.body;
  const normalized: NormalizedAnswer = {
    status: answer.status,
    contentType: answer.contentType,
    warnings: answer.warnings.map((warning) => normalizeString(warning)),
    body: normalizeValue(body, undefined),
  };
  for (const path of options.unordered ?? []) sortAt(normalized, path.split('.'), path);
  for (const path of options.mask ?? []) maskAt(normalized, path.split('.'));
  return normalized;
}

function normalizeString(value: string): string {
  const replaced = value
    .replace(uuid, '<uid>')
    .replace(tooOld, 'too old resource version: <rv> (<rv>)');
  return time.test(replaced) ? '<time>' : replaced;
}

function normalizeValue(value: unknown, key: string | undefined): unknown {
  if (typeof value === 'string') return normalizeString(value);
  if (Array.isArray(value)) {
    const items = value.map((item) => normalizeValue(item, undefined));
    if (key !== undefined && sets.has(key) && items.every((item) => typeof item === 'string'))
      return Object.fromEntries(
        [...(items as string[])].sort().map((item) => [`item=${item}`, true]),
      );
    if (key === 'causes') return sortByJson(items);
    return items;
  }
  if (value === null || typeof value !== 'object') return value;
  const object: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) object[name] = normalizeValue(item, name);
  for (const name of ['resourceVersion', 'continue'] as const) {
    const item = object[name];
    if (typeof item === 'string' && item !== '')
      object[name] = name === 'continue' ? '<continue>' : '<rv>';
  }
  const { generateName, name } = object;
  if (typeof generateName === 'string' && typeof name === 'string' && generateName !== '') {
    if (name.startsWith(generateName) && name.length > generateName.length)
      object.name = `${generateName}<suffix>`;
  }
  if (object.kind === 'Table') maskTableAges(object);
  keyDiscoveryLists(object);
  return object;
}

function sortByJson(items: unknown[]): unknown[] {
  return items
    .map((item) => [JSON.stringify(item), item] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, item]) => item);
}

function maskTableAges(table: Record<string, unknown>): void {
  const columns = table.columnDefinitions;
  const rows = table.rows;
  if (!Array.isArray(columns) || !Array.isArray(rows)) return;
  const ages = columns.flatMap((column, index) =>
    (column as { name?: unknown })?.name === 'Age' ? [index] : [],
  );
  for (const row of rows) {
    const cells = (row as { cells?: unknown })?.cells;
    if (!Array.isArray(cells)) continue;
    for (const index of ages) if (index < cells.length) cells[index] = '<age>';
  }
}

/** Turns a list of named entries into an object keyed `<field>=<name>`. */
function keyed(
  list: unknown,
  field: string,
  read = (item: Record<string, unknown>) => item[field],
) {
  if (!Array.isArray(list)) return list;
  const object: Record<string, unknown> = {};
  for (const item of list) {
    const name =
      item !== null && typeof item === 'object' ? read(item as Record<string, unknown>) : undefined;
    // An entry without a name, or a name given twice, leaves the list as it is.
    if (typeof name !== 'string' || `${field}=${name}` in object) return list;
    object[`${field}=${name}`] = item;
  }
  return object;
}

function keyDiscoveryLists(object: Record<string, unknown>): void {
  if (object.kind === 'APIGroupList') object.groups = keyed(object.groups, 'name');
  if (object.kind === 'APIResourceList') object.resources = keyed(object.resources, 'name');
  if (object.kind === 'APIGroupDiscoveryList') {
    object.items = keyed(
      object.items,
      'name',
      (item) => (item.metadata as { name?: unknown } | undefined)?.name,
    );
  }
  // Aggregated discovery's versions keep their order (it is the preference order); their
  // resources and subresources are sets.
  if (Array.isArray(object.resources) && typeof object.version === 'string')
    object.resources = keyed(object.resources, 'resource');
  if (Array.isArray(object.subresources) && typeof object.resource === 'string')
    object.subresources = keyed(object.subresources, 'subresource');
}

function sortAt(value: unknown, path: string[], whole: string): void {
  const [head, ...rest] = path;
  if (head === undefined || value === null || typeof value !== 'object') return;
  const container = value as Record<string, unknown>;
  for (const key of head === '*' ? Object.keys(container) : [head]) {
    if (!(key in container)) continue;
    if (rest.length > 0) {
      sortAt(container[key], rest, whole);
      continue;
    }
    const target = container[key];
    if (target === undefined) continue;
    if (!Array.isArray(target))
      throw new Error(`unordered path "${whole}" names a ${typeof target}, not an array`);
    container[key] = sortByJson(target);
  }
}

function maskAt(value: unknown, path: string[]): void {
  const [head, ...rest] = path;
  if (head === undefined || value === null || typeof value !== 'object') return;
  const container = value as Record<string, unknown>;
  for (const key of head === '*' ? Object.keys(container) : [head]) {
    if (!(key in container)) continue;
    if (rest.length > 0) maskAt(container[key], rest);
    else container[key] = '<masked>';
  }
}
