import { jsonEqual } from '@ops/api';
/**
 * Who owns which fields of an object, kept as kube-apiserver keeps it on every write
 * (k8s.io/apiserver/pkg/endpoints/handlers/fieldmanager and structured-merge-diff
 * merge/update.go):
 *
 * - {@link updateManagedFields} for create, update and patch: the writer takes the fields it
 *   added or changed (from anyone), everyone loses the fields that went, and its `Update`
 *   entry gets the time when it changed something;
 * - {@link applyConfiguration} for server-side apply: the configuration is merged into the
 *   live object, the applier owns exactly what it applied, fields it applied before and no
 *   one owns any more are removed, and changing a field another manager owns is a conflict
 *   (409) unless forced, which takes the field from them.
 *
 * Fields no manager records: `apiVersion`, `kind`, `metadata` itself and its server-set
 * fields (kube's stripmeta), `status` on the main resource of a kind with a status
 * subresource, and everything but `status` on the status subresource (the strategies'
 * reset fields). A `scale` write records as its own subresource.
 */
import { applyConflictError, type FieldConflict } from './apply-conflict.js';
import { compareValues } from './compare-values.js';
import { FieldSet } from './field-set.js';
import type { ApplyMapType } from './field-type.js';
import { type ManagerEntry, managerKey } from './managed-fields.js';
import { mergeValues } from './merge-values.js';
import { pruneAppliedFields } from './prune-applied-fields.js';
import { toFieldSet } from './to-field-set.js';

/** Where a write happens. */
export interface FieldManagerScope {
  /** The type of the whole object. */
  type: ApplyMapType;
  /** The `apiVersion` the request is served at. */
  apiVersion: string;
  /** `''` for the main resource, `status` for the status subresource. */
  subresource: string;
  /** Whether the resource has a status subresource (its main resource then ignores status). */
  statusSubresource: boolean;
  /** The time of the write, RFC 3339. */
  now: string;
  /** Paths (and all below them) a non-apply write never owns: what the server set itself. */
  unowned?: FieldSet;
}

const stripped = FieldSet.of(
  ['f:apiVersion'],
  ['f:kind'],
  ['f:metadata'],
  ...[
    'name',
    'namespace',
    'creationTimestamp',
    'selfLink',
    'uid',
    'generation',
    'managedFields',
    'resourceVersion',
  ].map((field) => ['f:metadata', `f:${field}`]),
);
const statusOnly = FieldSet.of(['f:status']);

/** Drops what a write at `scope` never owns (see the module comment). */
function owned(set: FieldSet, scope: FieldManagerScope): FieldSet {
  let out = set;
  if (scope.subresource === 'status') {
    out = new FieldSet();
    const status = set.get('f:status');
    if (status) out.children.set('f:status', status.copy());
  } else if (scope.statusSubresource) {
    out = out.recursiveDifference(statusOnly);
  }
  return out.difference(stripped);
}

/** The entry identity of a write by `manager` at `scope`. */
function identityOf(
  manager: string,
  operation: 'Apply' | 'Update',
  scope: FieldManagerScope,
): Omit<ManagerEntry, 'fields' | 'time'> {
  return { manager, operation, apiVersion: scope.apiVersion, subresource: scope.subresource };
}

/** The object as managed fields see it: without metadata the server keeps to itself. */
function managedView(object: unknown): unknown {
  if (typeof object !== 'object' || object === null) return object;
  const copy = { ...(object as Record<string, unknown>) };
  const metadata = copy.metadata;
  if (typeof metadata === 'object' && metadata !== null) {
    const { managedFields: _ignored, ...rest } = metadata as Record<string, unknown>;
    copy.metadata = rest;
  }
  return copy;
}

/**
 * The managed fields after a non-apply write by `manager`, from `live` (the object before,
 * or the kind's zero value on create) to `next`.
 *
 * @throws {ListItemError} when either object has a list item without a path element (kube
 *   then clears managedFields; the caller decides).
 */
export function updateManagedFields(
  live: unknown,
  next: unknown,
  entries: readonly ManagerEntry[],
  manager: string,
  scope: FieldManagerScope,
): ManagerEntry[] {
  const comparison = compareValues(managedView(live), managedView(next), scope.type);
  let changed = owned(comparison.modified.union(comparison.added), scope);
  if (scope.unowned) changed = changed.recursiveDifference(scope.unowned);
  const removed = owned(comparison.removed, scope);
  const out = entries.map((entry) => ({
    ...entry,
    fields: entry.fields.difference(changed).difference(removed).difference(stripped),
  }));
  if (!changed.isEmpty()) {
    const identity = identityOf(manager, 'Update', scope);
    const key = managerKey(identity);
    const previous = out.find((entry) => managerKey(entry) === key);
    const fields = changed.union(previous?.fields ?? new FieldSet());
    // kube-apiserver's scale handler records its entries without a time.
    const time = scope.subresource === 'scale' ? {} : { time: scope.now };
    if (previous) Object.assign(previous, { fields }, time);
    else out.push({ ...identity, ...time, fields });
  }
  return out.filter((entry) => !entry.fields.isEmpty());
}

/** The result of an apply. */
export interface AppliedConfiguration {
  /** The live object with the configuration merged in and abandoned fields removed. */
  object: Record<string, unknown>;
  entries: ManagerEntry[];
}

/**
 * Applies `config` for `manager` to `live` (undefined when the apply creates the object).
 * With `force`, fields owned by others are taken from them; without, changing one is a
 * conflict. Fields two managers set to the same value are owned by both. Conflicts on
 * `allowedConflicts` alone do not stop the apply (they are taken as if forced).
 *
 * @throws {StatusError} 409 Conflict naming each conflicting manager and field.
 * @throws {ListItemError} when the configuration has a list item without a path element, or
 *   two items of a keyed list with the same key.
 */
export function applyConfiguration(
  live: Record<string, unknown> | undefined,
  config: Record<string, unknown>,
  entries: readonly ManagerEntry[],
  manager: string,
  force: boolean,
  scope: FieldManagerScope,
  allowedConflicts?: FieldSet,
): AppliedConfiguration {
  const before = (managedView(live ?? {}) ?? {}) as Record<string, unknown>;
  const identity = identityOf(manager, 'Apply', scope);
  const key = managerKey(identity);
  const applied = owned(toFieldSet(config, scope.type), scope);
  let managers = entries.map((entry) => ({ ...entry }));
  const previous = managers.find((entry) => managerKey(entry) === key);
  const lastApplied = previous?.fields ?? new FieldSet();
  if (previous) {
    previous.fields = applied;
    previous.apiVersion = scope.apiVersion;
  } else {
    managers.push({ ...identity, fields: applied });
  }
  let merged = mergeValues(before, config, scope.type) as Record<string, unknown>;
  const everyone = managers.reduce((all, entry) => all.union(entry.fields), new FieldSet());
  merged = (pruneAppliedFields(merged, lastApplied, everyone, scope.type) ?? {}) as Record<
    string,
    unknown
  >;
  const comparison = compareValues(before, merged, scope.type);
  const changed = owned(comparison.modified.union(comparison.added), scope);
  const removed = owned(comparison.removed, scope);
  const conflicts: FieldConflict[] = [];
  for (const entry of managers) {
    if (managerKey(entry) === key) continue;
    const taken = entry.fields.intersection(changed);
    for (const path of taken.paths()) conflicts.push({ manager: entry, path });
    entry.fields = entry.fields.difference(taken).difference(removed);
  }
  const blocking = conflicts.filter((conflict) => !allowedConflicts?.has(conflict.path));
  if (blocking.length > 0 && !force) throw applyConflictError(blocking);
  const self = managers.find((entry) => managerKey(entry) === key);
  if (self && !jsonEqual(before, merged)) self.time = scope.now;
  managers = managers.filter((entry) => !entry.fields.isEmpty());
  return { object: merged, entries: managers };
}
