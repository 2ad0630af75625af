import { isJsonObject } from '@ops/api';
/**
 * `metadata.managedFields` as kube-apiserver reads and writes it
 * (k8s.io/apiserver/pkg/endpoints/handlers/fieldmanager, staging
 * k8s.io/apimachinery/pkg/util/managedfields/internal/managedfields.go): one entry per
 * manager, operation (`Apply` or `Update`), subresource and, for updates, API version.
 */

import { FieldSet } from './field-set.js';

/** One manager's fields, decoded. */
export interface ManagerEntry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  /** `''` for the main resource, `status` for the status subresource. */
  subresource: string;
  /** RFC 3339; absent when the manager never changed the object (a no-op apply). */
  time?: string;
  fields: FieldSet;
}

/**
 * The identity of an entry, as kube's `BuildManagerIdentifier`: manager, operation and
 * subresource, and the API version for updates (an applier is one manager whatever version
 * it applies at).
 */
export function managerKey(entry: Omit<ManagerEntry, 'fields' | 'time'>): string {
  return JSON.stringify([
    entry.manager,
    entry.operation,
    entry.subresource,
    entry.operation === 'Apply' ? '' : entry.apiVersion,
  ]);
}

/**
 * Decodes `metadata.managedFields`. Entries for the same manager identity are merged; empty
 * entries (`{}`) are skipped, so `[{}]` decodes to no entries.
 *
 * @throws {Error} saying which entry is malformed and why: not a list, an entry that is not
 *   an object, an operation other than `Apply` or `Update`, a `fieldsType` other than
 *   `FieldsV1`, or a `fieldsV1` that does not encode a field set.
 */
export function decodeManagedFields(value: unknown): ManagerEntry[] {
  if (!Array.isArray(value)) throw new Error('metadata.managedFields must be a list');
  const byKey = new Map<string, ManagerEntry>();
  value.forEach((raw, index) => {
    const at = `metadata.managedFields[${index}]`;
    if (!isJsonObject(raw)) throw new Error(`${at} must be an object`);
    const operation = raw.operation;
    if (Object.keys(raw).length === 0) return; // `{}`: how a writer clears managedFields
    if (operation !== 'Apply' && operation !== 'Update') {
      throw new Error(
        `${at}.operation must be "Apply" or "Update", not ${JSON.stringify(operation)}`,
      );
    }
    if (raw.fieldsType !== undefined && raw.fieldsType !== 'FieldsV1') {
      throw new Error(`${at}.fieldsType must be "FieldsV1", not ${JSON.stringify(raw.fieldsType)}`);
    }
    const entry: ManagerEntry = {
      manager: typeof raw.manager === 'string' ? raw.manager : '',
      operation,
      apiVersion: typeof raw.apiVersion === 'string' ? raw.apiVersion : '',
      subresource: typeof raw.subresource === 'string' ? raw.subresource : '',
      fields: FieldSet.fromFieldsV1(raw.fieldsV1 ?? {}),
    };
    if (typeof raw.time === 'string') entry.time = raw.time;
    const key = managerKey(entry);
    const previous = byKey.get(key);
    if (previous) previous.fields = previous.fields.union(entry.fields);
    else byKey.set(key, entry);
  });
  return [...byKey.values()];
}

/** An encoded entry, its fields in the order kube-apiserver writes them. */
export interface ManagedFieldsEntry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time?: string;
  fieldsType: 'FieldsV1';
  fieldsV1: Record<string, unknown>;
  subresource?: string;
}

/**
 * Encodes entries as kube-apiserver stores them: entries with no fields left out, sorted
 * applies first, then by time (entries without one first), manager, API version and
 * subresource (kube's `sortEncodedManagedFields`).
 */
export function encodeManagedFields(entries: readonly ManagerEntry[]): ManagedFieldsEntry[] {
  const seconds = (time: string | undefined) => (time ? Date.parse(time) : 0);
  const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return entries
    .filter((entry) => !entry.fields.isEmpty())
    .sort(
      (a, b) =>
        compare(a.operation, b.operation) ||
        seconds(a.time) - seconds(b.time) ||
        compare(a.manager, b.manager) ||
        compare(a.apiVersion, b.apiVersion) ||
        compare(a.subresource, b.subresource),
    )
    .map((entry) => ({
      manager: entry.manager,
      operation: entry.operation,
      apiVersion: entry.apiVersion,
      ...(entry.time !== undefined ? { time: entry.time } : {}),
      fieldsType: 'FieldsV1' as const,
      fieldsV1: entry.fields.toFieldsV1(),
      ...(entry.subresource ? { subresource: entry.subresource } : {}),
    }));
}
