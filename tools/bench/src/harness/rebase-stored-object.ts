/**
 * What a server stored for one request body (`stored`, for `input`), carried over to another
 * body of the same structure (`next`): the object the server would store for `next`, without
 * running its write path again. For bulk seeding (see `bulk-seed.ts`), where the write path
 * costs milliseconds per object and the objects differ only in values.
 *
 * How: `input` and `next` must have the same structure (same keys, same array lengths, same
 * value types); their differing leaves give a substitution of values (`web-7` -> `web-8`).
 * The result is `stored` with every leaf that came from `input` taken from `next`, and
 * everything the server added or changed (defaults, `managedFields`, a list it rewrote, ...)
 * copied with the substitution
 * applied to its string and number leaves and to the values inside `k:{...}` and `v:...`
 * field-set keys. Values the server stamps afresh on every write are not copied but made
 * anew: `metadata.uid`, `metadata.resourceVersion` (left empty, in its place, for the store
 * to set), and every string equal to the stored `metadata.creationTimestamp` or to a
 * `managedFields` time the request did not set (the times of the writes) becomes `now`.
 *
 * Returns `undefined` when the carry-over cannot be sure of the result: the structures of
 * `input` and `next` differ, or a server-added value is one that maps to two different values
 * in `next`. The caller then runs the real write path. The carry-over assumes that what the
 * server derives from a value it derives alike from the value that replaces it: callers
 * check that on one object against the real write path (`bulkSeed` does).
 */
import { isJsonObject } from '@ops/api';

export function rebaseStoredObject(
  stored: Record<string, unknown>,
  input: Record<string, unknown>,
  next: Record<string, unknown>,
  fresh: { uid: string; now: string },
): Record<string, unknown> | undefined {
  const substitution = new Map<string, unknown>();
  const ambiguous = new Set<string>();
  if (!collectSubstitution(input, next, substitution, ambiguous)) return undefined;
  const metadata = stored.metadata as Record<string, unknown> | undefined;
  // The times of the write(s) that made `stored`: its creation and managedFields times that
  // the request did not set (a later status write may fall in the next second).
  const writeTimes = new Set<unknown>([metadata?.creationTimestamp]);
  if (Array.isArray(metadata?.managedFields))
    for (const entry of metadata.managedFields as Array<{ time?: unknown }>)
      if (!substitution.has(leafKey(entry.time))) writeTimes.add(entry.time);
  const rebase = new Rebase(substitution, ambiguous, writeTimes, fresh.now);
  const result = rebase.merge(stored, input, next);
  if (rebase.failed || !isJsonObject(result)) return undefined;
  const resultMeta = result.metadata;
  if (isJsonObject(resultMeta)) {
    if (metadata?.uid !== undefined) resultMeta.uid = fresh.uid;
    // Kept in its place (key order is part of the bytes served); the store sets its value.
    if (metadata?.resourceVersion !== undefined) resultMeta.resourceVersion = '';
  }
  return result;
}

/** A leaf's identity in a substitution: its type and value (`7` and `"7"` differ). */
const leafKey = (value: unknown): string => `${typeof value}:${String(value)}`;

/**
 * Walks `a` and `b` together, recording how each leaf of `a` maps to `b`'s; `false` when
 * their structures differ.
 */
function collectSubstitution(
  a: unknown,
  b: unknown,
  substitution: Map<string, unknown>,
  ambiguous: Set<string>,
): boolean {
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, index) => collectSubstitution(item, b[index], substitution, ambiguous));
  }
  if (isJsonObject(a)) {
    if (!isJsonObject(b)) return false;
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every(
      (key) => key in b && collectSubstitution(a[key], b[key], substitution, ambiguous),
    );
  }
  if (typeof a !== typeof b || a === null || b === null || isJsonObject(b) || Array.isArray(b))
    return a === b;
  const key = leafKey(a);
  const seen = substitution.get(key);
  if (seen === undefined && !substitution.has(key)) substitution.set(key, b);
  else if (seen !== b) ambiguous.add(key);
  return true;
}

/** One carry-over; {@link failed} once it cannot be sure of its result. */
class Rebase {
  failed = false;

  constructor(
    private readonly substitution: ReadonlyMap<string, unknown>,
    private readonly ambiguous: ReadonlySet<string>,
    private readonly writeTimes: ReadonlySet<unknown>,
    private readonly now: string,
  ) {}

  /** `stored` at a path where the input held `input` and the next input holds `next`. */
  merge(stored: unknown, input: unknown, next: unknown): unknown {
    if (input === undefined) return this.added(stored);
    if (Array.isArray(stored)) {
      // The server made its own list of the one sent (added or dropped items): derived.
      if (!Array.isArray(input) || !Array.isArray(next) || stored.length !== input.length)
        return this.added(stored);
      return stored.map((item, index) => this.merge(item, input[index], next[index]));
    }
    if (isJsonObject(stored)) {
      if (!isJsonObject(input) || !isJsonObject(next)) return this.added(stored);
      const result: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(stored)) {
        result[key] = this.merge(value, input[key], next[key]);
      }
      return result;
    }
    // A leaf the request set, kept as sent, or one the server changed (derived).
    return stored === input ? next : this.added(stored);
  }

  /** A server-added value, with the substitution applied. */
  private added(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((item) => this.added(item));
    if (isJsonObject(value)) {
      const result: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) result[this.key(key)] = this.added(item);
      return result;
    }
    if (typeof value === 'string' && this.writeTimes.has(value)) return this.now;
    return this.leaf(value);
  }

  private leaf(value: unknown): unknown {
    if (value === null || (typeof value !== 'string' && typeof value !== 'number')) return value;
    const key = leafKey(value);
    if (this.ambiguous.has(key)) {
      this.failed = true;
      return value;
    }
    return this.substitution.has(key) ? this.substitution.get(key) : value;
  }

  /** A field-set key: `k:{...}` and `v:...` embed values; `f:` and `i:` keys do not. */
  private key(key: string): string {
    if (!key.startsWith('k:') && !key.startsWith('v:')) return key;
    let embedded: unknown;
    try {
      embedded = JSON.parse(key.slice(2));
    } catch {
      return key;
    }
    return `${key.slice(0, 2)}${JSON.stringify(this.added(embedded))}`;
  }
}
