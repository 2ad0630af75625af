/**
 * Shares equal strings between cached objects. `JSON.parse` makes a new string for every
 * occurrence of a value (V8 shares only property names and values of fewer than ten
 * characters), so ten thousand Pods carry ten thousand copies of the same image name, label
 * values, owner uid and node name, and ten thousand Helm ConfigMaps as many copies of the
 * chart's data; interning keeps one.
 *
 * Only strings seen in at least two objects are kept in the table: a string seen in one
 * object is a candidate until another object has it too (copies within one object are
 * shared without a table entry), and {@link forgetCandidates} (called once a list has been
 * interned) drops the candidates, so strings unique to one object (a
 * `last-applied-configuration`, a checksum) cost nothing once the list is interned. `metadata.name`, `metadata.uid`,
 * `metadata.resourceVersion` and `metadata.selfLink` of the object passed to {@link intern}
 * are never looked up: they are unique to the object, or to one version of it.
 *
 * Guarantees: values are unchanged (equal strings replace equal strings); strings longer than
 * `maxLength` are left alone (hashing them costs more than they are likely to save); the
 * shared table and the candidates are each bounded by `maxEntries`: a full one starts over,
 * which costs only sharing.
 * Assumes: objects are plain JSON (no cycles), owned by the caller, changed in place.
 */
import { isJsonObject } from '@ops/api';
export class StringInterner {
  private table = new Map<string, string>();
  private candidates = new Map<string, string>();
  /** The candidates first seen in the current {@link intern} call. */
  private readonly local = new Set<string>();

  /**
   * @param maxEntries bound of the shared table and of the candidates (each).
   * @param maxLength strings longer than this are not shared.
   * @throws {RangeError} when either is not a positive integer.
   */
  constructor(
    private readonly maxEntries = 50_000,
    private readonly maxLength = maxInternedLength,
  ) {
    for (const [what, value] of [
      ['maxEntries', maxEntries],
      ['maxLength', maxLength],
    ] as const) {
      if (!Number.isInteger(value) || value < 1) {
        throw new RangeError(`StringInterner ${what} must be a positive integer, got ${value}`);
      }
    }
  }

  /**
   * Replaces, in place, every string value of at most `maxLength` characters in `value` that
   * was seen before by its shared copy; returns `value`. When `value` has a `metadata` object,
   * its per-object identifiers (name, uid, resourceVersion, selfLink) are skipped.
   */
  intern<T>(value: T): T {
    this.local.clear();
    const node = value as unknown;
    if (isJsonObject(node)) {
      this.walkRecord(node, topLevel);
    } else {
      this.walk(node);
    }
    return value;
  }

  /**
   * Drops the strings seen only once: call it when a batch of objects (a list) has been
   * interned, so that strings unique to one object are not kept alive by the table.
   */
  forgetCandidates(): void {
    this.candidates = new Map();
    this.local.clear();
  }

  /** How many strings are shared (seen in two objects or more) and how many are candidates. */
  counts(): { shared: number; candidates: number } {
    return { shared: this.table.size, candidates: this.candidates.size };
  }

  private shared(text: string): string {
    const known = this.table.get(text);
    if (known !== undefined) return known;
    const seen = this.candidates.get(text);
    if (seen === undefined) {
      if (this.candidates.size >= this.maxEntries) this.candidates = new Map();
      this.candidates.set(text, text);
      this.local.add(text);
      return text;
    }
    // Repeated within one object (a Pod's IP in status.podIP and status.podIPs): one copy,
    // but not worth a table entry, which costs more than the string it would share.
    if (this.local.has(text)) return seen;
    // Seen in a second object: from now on the first copy is the shared one.
    this.candidates.delete(text);
    if (this.table.size >= this.maxEntries) this.table = new Map();
    this.table.set(seen, seen);
    return seen;
  }

  private walk(node: unknown): void {
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const item = node[i];
        if (typeof item === 'string') {
          if (item.length <= this.maxLength) node[i] = this.shared(item);
        } else if (item !== null && typeof item === 'object') {
          this.walk(item);
        }
      }
      return;
    }
    if (node === null || typeof node !== 'object') return;
    this.walkRecord(node as Record<string, unknown>, undefined);
  }

  /** Interns the values of `record`; `skip` names fields left alone and nested skips. */
  private walkRecord(record: Record<string, unknown>, skip: Skip | undefined): void {
    const keys = Object.keys(record);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      const item = record[key];
      if (typeof item === 'string') {
        if (item.length <= this.maxLength && skip?.fields.has(key) !== true) {
          record[key] = this.shared(item);
        }
      } else if (item !== null && typeof item === 'object') {
        const nested = skip?.nested.get(key);
        if (nested !== undefined && !Array.isArray(item)) {
          this.walkRecord(item as Record<string, unknown>, nested);
        } else {
          this.walk(item);
        }
      }
    }
  }
}

/** Fields of a record left alone, and the skips of its nested records. */
interface Skip {
  readonly fields: ReadonlySet<string>;
  readonly nested: ReadonlyMap<string, Skip>;
}

/** An object's identifiers that are unique to it (or to one version of it). */
const topLevel: Skip = {
  fields: new Set(),
  nested: new Map([
    [
      'metadata',
      { fields: new Set(['name', 'uid', 'resourceVersion', 'selfLink']), nested: new Map() },
    ],
  ]),
};

/**
 * Strings longer than this are not shared by default: 256 keeps one copy of repeated
 * ConfigMap data and digest-pinned image names; 1,024 and 4,096 saved nothing more on the
 * bench's shapes (tools/bench/README.md, issue #17).
 */
export const maxInternedLength = 256;
