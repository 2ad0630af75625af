/**
 * Shares equal strings between cached objects. `JSON.parse` makes a new string for every
 * occurrence of a value, so ten thousand Pods carry ten thousand copies of the same image
 * name, label values, probe paths and node name; interning keeps one.
 *
 * Guarantees: values are unchanged (equal strings replace equal strings); only strings of at
 * most {@link maxInternedLength} characters are shared (long ones are rarely repeated); the
 * table is bounded: when it reaches `maxEntries` it starts over, which costs only sharing.
 * Assumes: objects are plain JSON (no cycles), owned by the caller, changed in place.
 */
export class StringInterner {
  private table = new Map<string, string>();

  constructor(private readonly maxEntries = 50_000) {}

  /** Replaces, in place, every short string value in `value` by its shared copy; returns `value`. */
  intern<T>(value: T): T {
    this.walk(value as unknown);
    return value;
  }

  private shared(text: string): string {
    const existing = this.table.get(text);
    if (existing !== undefined) return existing;
    if (this.table.size >= this.maxEntries) this.table = new Map();
    this.table.set(text, text);
    return text;
  }

  private walk(node: unknown): void {
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const item = node[i];
        if (typeof item === 'string') {
          if (item.length <= maxInternedLength) node[i] = this.shared(item);
        } else if (item !== null && typeof item === 'object') {
          this.walk(item);
        }
      }
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    const keys = Object.keys(record);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      const item = record[key];
      if (typeof item === 'string') {
        if (item.length <= maxInternedLength) record[key] = this.shared(item);
      } else if (item !== null && typeof item === 'object') {
        this.walk(item);
      }
    }
  }
}

/** Strings longer than this are not shared. */
export const maxInternedLength = 64;
