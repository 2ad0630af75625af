import type { StoredObject } from './object-store.js';

/** Where a {@link KeyRange} starts and which keys it holds. */
export interface KeyRangeBounds {
  /** Only keys after this one (exclusive): a continue token's last key. */
  after?: string;
  /** Only keys starting with this prefix (`namespace/` for one namespace). */
  prefix?: string;
}

/**
 * The objects of one resource whose keys fall in a range, in key order, as they are now or
 * as they were at an earlier revision.
 *
 * Contract: reading the first `n` objects costs O(log N + n + w), where N is the number of
 * objects the resource holds now and w the number of keys written since the revision read,
 * never O(N): this is what keeps a paged LIST's cost proportional to its page rather than to
 * whatever follows the cursor (kube-apiserver reads one etcd range per page the same way).
 * {@link KeyRange.size} costs O(log N + w).
 *
 * Assumes: `sortedKeys` are the keys of `current`, sorted, and neither changes while the range is
 * read (the store is single-threaded and a LIST reads synchronously); `past` maps each key
 * written since the revision read to its object at that revision (`undefined`: it did not
 * exist then).
 */
export class KeyRange {
  private readonly start: number;
  private readonly end: number;
  /** Keys that existed at the revision read but no longer do, in the range, sorted. */
  private readonly removed: string[];

  constructor(
    private readonly sortedKeys: readonly string[],
    private readonly current: ReadonlyMap<string, StoredObject>,
    private readonly past: ReadonlyMap<string, StoredObject | undefined>,
    bounds: KeyRangeBounds,
  ) {
    const { after, prefix } = bounds;
    let start = prefix === undefined ? 0 : lowerBound(sortedKeys, prefix);
    if (after !== undefined) start = Math.max(start, upperBound(sortedKeys, after));
    this.start = start;
    this.end = prefix === undefined ? sortedKeys.length : lowerBound(sortedKeys, prefixEnd(prefix));
    this.removed = [];
    for (const [key, object] of past) {
      if (object === undefined || current.has(key)) continue;
      if (prefix !== undefined && !key.startsWith(prefix)) continue;
      if (after !== undefined && key <= after) continue;
      this.removed.push(key);
    }
    this.removed.sort();
  }

  /** The number of objects in the range at the revision read. */
  size(): number {
    let size = this.end - this.start + this.removed.length;
    for (const [key, object] of this.past) {
      if (object !== undefined || !this.current.has(key)) continue;
      if (this.inCurrentRange(key)) size -= 1;
    }
    return size;
  }

  /** The objects in key order; stop iterating early to pay only for what was read. */
  *[Symbol.iterator](): IterableIterator<StoredObject> {
    let i = this.start;
    let r = 0;
    while (i < this.end || r < this.removed.length) {
      const key =
        r >= this.removed.length ||
        (i < this.end && (this.sortedKeys[i] as string) < (this.removed[r] as string))
          ? (this.sortedKeys[i++] as string)
          : (this.removed[r++] as string);
      const object = this.past.has(key) ? this.past.get(key) : this.current.get(key);
      if (object !== undefined) yield object;
    }
  }

  private inCurrentRange(key: string): boolean {
    const index = lowerBound(this.sortedKeys, key);
    return index >= this.start && index < this.end && this.sortedKeys[index] === key;
  }
}

/** The smallest string greater than every string starting with `prefix`. */
function prefixEnd(prefix: string): string {
  if (prefix === '') return '\uffff';
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

/** The index of the first key not less than `key` in sorted `keys`. */
function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((keys[mid] as string) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The index of the first key greater than `key` in sorted `keys`. */
function upperBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((keys[mid] as string) <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
