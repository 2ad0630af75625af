import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { KubernetesObject } from '@ops/core';
import { rebaseStoredObject } from './rebase-stored-object.js';
import { withoutWriteStamps } from './without-write-stamps.js';

/** The part of the local API server's store that {@link bulkSeed} writes through. */
export interface SeedStore {
  get(resource: string, key: string): Serializable | undefined;
  nextRevision(): number;
  create(resource: string, key: string, object: KubernetesObject, revision: number): Serializable;
}

/** A stored object that serializes itself once, for every LIST after (`StoredObject`). */
interface Serializable {
  bytes(): unknown;
}

/** What {@link bulkSeed} needs: where to write, and how to make and really write object `i`. */
export interface BulkSeedOptions {
  store: SeedStore;
  /** The store's name of the resource: `<group>/<plural>` (`/pods` for core Pods). */
  resource: string;
  namespace: string;
  /** The first index and how many objects to seed. */
  from: number;
  count: number;
  /**
   * Everything the seeding sends for object `index` (for a Pod, the create body with the
   * status the status write sets), as a new object on each call.
   */
  input(index: number): Record<string, unknown>;
  /** Writes object `index` through the server's API write path; resolves with what it stored. */
  write(index: number): Promise<KubernetesObject>;
  /** The time of a write (default: now). */
  now?: () => Date;
}

/** How {@link bulkSeed} seeded. */
export interface BulkSeeded {
  created: number;
  /** The objects written through the API write path (the rest went straight into the store). */
  written: KubernetesObject[];
}

/** RFC 3339 with seconds, as the server stamps `creationTimestamp` and `managedFields` times. */
const rfc3339 = (date: Date): string => `${date.toISOString().slice(0, 19)}Z`;

/**
 * Seeds `count` objects into the local API server's store without running its write path
 * for each: the first two go through `write` (the real path: defaulting, admission,
 * managedFields, validation); the second proves that carrying the first over
 * ({@link rebaseStoredObject}) gives exactly what the server stored, apart from what it
 * stamps on each write ({@link withoutWriteStamps}); every later one is that carry-over, stored under the next resourceVersion
 * with a fresh uid and the time of its write. An object the carry-over cannot be sure of
 * goes through `write` too. Each object is one store event, as a create is (a Pod's status
 * write is folded into it). Every seeded object is serialized as the store serves it, so
 * that the first timed LIST does not pay for it (seconds at 100,000 objects).
 *
 * Seeding is not what a benchmark times, but what it lists must be what API writes leave,
 * and this keeps it so while costing microseconds instead of milliseconds per object.
 *
 * @throws {Error} when the carried-over object differs from what the server stored (naming
 *   the first differing field), or an object already exists.
 */
export async function bulkSeed(options: BulkSeedOptions): Promise<BulkSeeded> {
  const { store, resource, namespace, from, count, input, write } = options;
  const now = options.now ?? (() => new Date());
  const written: KubernetesObject[] = [];
  if (count <= 0) return { created: 0, written };
  const template = await write(from);
  written.push(template);
  const templateName = template.metadata?.name ?? '';
  if (store.get(resource, `${namespace}/${templateName}`) === undefined) {
    throw new Error(
      `bulk seeding: the store has no "${resource}" object "${namespace}/${templateName}" after writing it; is "${resource}" the resource's store name (<group>/<plural>)?`,
    );
  }
  if (count === 1) return { created: 1, written };
  const second = await write(from + 1);
  written.push(second);
  const predicted = rebaseStoredObject(
    template as Record<string, unknown>,
    input(from),
    input(from + 1),
    {
      uid: second.metadata?.uid ?? '',
      now: second.metadata?.creationTimestamp ?? '',
    },
  );
  if (predicted === undefined || withoutWriteStamps(predicted) !== withoutWriteStamps(second)) {
    throw new Error(
      `bulk seeding of ${resource} in ${namespace}: the object carried over from index ${from} to ${from + 1} is not what the server stored (${predicted === undefined ? 'the carry-over gave up' : `first difference at ${firstDifference(JSON.parse(withoutWriteStamps(predicted)), JSON.parse(withoutWriteStamps(second)))}`}); seed through the API instead, or teach rebaseStoredObject what the server derives`,
    );
  }
  for (let index = from + 2; index < from + count; index++) {
    const object = rebaseStoredObject(
      template as Record<string, unknown>,
      input(from),
      input(index),
      {
        uid: randomUUID(),
        now: rfc3339(now()),
      },
    ) as KubernetesObject | undefined;
    if (object === undefined) {
      written.push(await write(index));
      continue;
    }
    const metadata = object.metadata ?? {};
    const key = `${namespace}/${metadata.name ?? ''}`;
    if (store.get(resource, key) !== undefined) {
      throw new Error(`bulk seeding: ${resource} "${key}" already exists; seed from a new index`);
    }
    const revision = store.nextRevision();
    metadata.resourceVersion = String(revision);
    store.create(resource, key, object, revision).bytes();
  }
  for (const object of written)
    store.get(resource, `${namespace}/${object.metadata?.name ?? ''}`)?.bytes();
  return { created: count, written };
}

/** The path of the first difference between two JSON values (for the error above). */
function firstDifference(a: unknown, b: unknown, path = ''): string {
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null)
    return path || '(root)';
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    const left = (a as Record<string, unknown>)[key];
    const right = (b as Record<string, unknown>)[key];
    if (!isDeepStrictEqual(left, right)) return firstDifference(left, right, `${path}.${key}`);
  }
  const orderA = Object.keys(a).join(',');
  const orderB = Object.keys(b).join(',');
  return orderA === orderB ? path || '(root)' : `${path || '(root)'} (key order)`;
}
