/**
 * Managed fields for the objects of one resource: picks the resource's {@link FieldType}
 * (a custom resource's schema, a built-in kind's patch metadata), decodes and encodes
 * `metadata.managedFields`, and runs {@link updateManagedFields} / {@link applyConfiguration}
 * as kube-apiserver's field manager does around each write.
 */
import type { KubernetesObject } from '@ops/api';
import { isJsonObject } from '@ops/api';
import { strategicSchemaFor } from '../patch/builtin-schemas.js';
import { apiVersionOf, type ResourceType } from '../registry/resource-type.js';
import { timestamp } from '../server/object-metadata.js';
import { emptyObjectOf } from './empty-object.js';
import {
  type AppliedConfiguration,
  applyConfiguration,
  type FieldManagerScope,
  updateManagedFields,
} from './field-manager.js';
import {
  type ApplyMapType,
  customResourceType,
  fieldTypeFromStrategicSchema,
} from './field-type.js';
import { conflictsAllowedByLastApplied, kubectlManager, withLastApplied } from './last-applied.js';
import { ListItemError } from './list-item-error.js';
import {
  decodeManagedFields,
  encodeManagedFields,
  type ManagedFieldsEntry,
  type ManagerEntry,
} from './managed-fields.js';
import { managerName, type WriterIdentity } from './manager-name.js';
import { serverSetFieldsOf } from './server-set-fields.js';

/** The server-side apply type of a resource's objects. */
export function fieldTypeOf(type: ResourceType): ApplyMapType {
  if (type.custom) return customResourceType(type.schema);
  return fieldTypeFromStrategicSchema(strategicSchemaFor(apiVersionOf(type), type.kind));
}

/** The write being recorded. */
export interface WriteScope {
  manager: string;
  /** `''`, `status` or `scale` (other subresources record as the main resource). */
  subresource: string;
  /** RFC 3339 time of the write. */
  now: string;
}

/**
 * The scope of a write at `now` by the writer `context` describes (see {@link managerName}).
 */
export function writeScopeOf(
  context: { fieldManager?: string; userAgent?: string; user: { name: string } },
  subresource: string,
  now: Date,
): WriteScope {
  const writer: WriterIdentity = { userName: context.user.name };
  if (context.fieldManager !== undefined) writer.fieldManager = context.fieldManager;
  if (context.userAgent !== undefined) writer.userAgent = context.userAgent;
  return { manager: managerName(writer), subresource, now: timestamp(now) };
}

function scopeOf(type: ResourceType, write: WriteScope): FieldManagerScope {
  return {
    type: fieldTypeOf(type),
    apiVersion: apiVersionOf(type),
    subresource: ['status', 'scale'].includes(write.subresource) ? write.subresource : '',
    statusSubresource: type.subresources.status,
    now: write.now,
  };
}

/**
 * Decoded entries, or undefined when `value` is absent, an empty list or malformed (a
 * writer's `[{}]` decodes to none: it clears them).
 */
function decodedOrUndefined(value: unknown): ManagerEntry[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  try {
    return decodeManagedFields(value);
  } catch {
    return undefined;
  }
}

/** `object` over `base`: `base`'s fields where `object` has none, recursively. */
function overlay(base: unknown, object: unknown): unknown {
  if (!isJsonObject(base) || !isJsonObject(object)) return object === undefined ? base : object;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(object)) out[key] = overlay(base[key], value);
  return out;
}

/**
 * The object as kube's field manager sees it: a built-in kind's Go value always holds its
 * zero value's struct fields (`status: {}`), so they are never "added" by a write.
 */
function asTyped(type: ResourceType, object: unknown): unknown {
  if (type.custom || object === undefined) return object;
  return overlay(emptyObjectOf(apiVersionOf(type), type.kind), object);
}

/**
 * The managedFields of `next` after a create (`live` undefined), update or patch. The writer
 * may set managedFields itself on the main resource (kept when they decode, as kube does:
 * `[{}]` clears them); otherwise the live object's are carried on. A value kube could not
 * type (a keyed list item without its key) clears them, as kube's `UpdateNoErrors` does.
 */
export function managedFieldsOnWrite(
  type: ResourceType,
  live: KubernetesObject | undefined,
  next: KubernetesObject,
  requested: unknown,
  write: WriteScope,
): ManagedFieldsEntry[] {
  const scope = scopeOf(type, write);
  const entries =
    (scope.subresource === '' ? decodedOrUndefined(requested) : undefined) ??
    decodedOrUndefined(live?.metadata?.managedFields) ??
    [];
  const before = asTyped(type, live ?? {});
  // What the server sets on create after the field manager ran (kube's PrepareForCreate and
  // allocations) belongs to no one.
  const unowned =
    live === undefined ? serverSetFieldsOf(apiVersionOf(type), type.kind, next) : undefined;
  try {
    return encodeManagedFields(
      updateManagedFields(before, asTyped(type, next), entries, write.manager, {
        ...scope,
        ...(unowned ? { unowned } : {}),
      }),
    );
  } catch (error) {
    if (ListItemError.isInstance(error)) return [];
    throw error;
  }
}

/**
 * Applies `config` to `live` (undefined: the apply creates the object) for `write.manager`.
 * An object without managed fields (written before anyone recorded them) first gets a
 * `before-first-apply` Update entry owning what it holds, as kube's field manager does.
 * `kubectl`'s applies are reconciled with client-side apply (see {@link withLastApplied}).
 *
 * @throws {StatusError} 409 on conflicts without `force`.
 * @throws {ListItemError} when the configuration cannot be typed.
 */
export function applyToObject(
  type: ResourceType,
  live: KubernetesObject | undefined,
  config: Record<string, unknown>,
  force: boolean,
  write: WriteScope,
): AppliedConfiguration & { managedFields: ManagedFieldsEntry[] } {
  const scope = scopeOf(type, write);
  let entries = decodedOrUndefined(live?.metadata?.managedFields) ?? [];
  if (live !== undefined && entries.length === 0) {
    try {
      entries = updateManagedFields(
        asTyped(type, {}),
        asTyped(type, live),
        [],
        'before-first-apply',
        scope,
      );
    } catch (error) {
      if (!ListItemError.isInstance(error)) throw error;
    }
  }
  const kubectl = write.manager === kubectlManager;
  const current = live as Record<string, unknown> | undefined;
  const allowed =
    kubectl && current ? conflictsAllowedByLastApplied(current, scope.type) : undefined;
  const applied = applyConfiguration(
    current,
    config,
    entries,
    write.manager,
    force,
    scope,
    allowed,
  );
  const object = kubectl ? withLastApplied(applied.object, config) : applied.object;
  return { object, entries: applied.entries, managedFields: encodeManagedFields(applied.entries) };
}
