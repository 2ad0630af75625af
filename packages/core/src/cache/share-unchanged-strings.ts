/**
 * Makes a new version of an object share the strings it has in common with the version it
 * replaces: wherever `next` holds, at the same path, a string equal to `previous`'s, it
 * takes `previous`'s copy. For a watched update, whose previous version is already cached
 * with its strings shared, this gives the new version the same sharing as interning it
 * would for every unchanged field, at a fraction of the cost: one comparison of two strings
 * at the same place instead of a hash-table lookup per string. Changed strings stay as
 * parsed (they are mostly unique anyway: resourceVersion, timestamps, new values).
 *
 * Guarantees: values are unchanged (equal strings replace equal strings) and so is `next`'s
 * shape; `previous` is only read. Walks `next` once; work is proportional to its size.
 * Assumes: both are plain JSON (no cycles); `next` is owned by the caller, changed in place.
 */
export function shareUnchangedStrings<T>(previous: unknown, next: T): T {
  share(previous, next);
  return next;
}

function share(previous: unknown, next: unknown): void {
  if (Array.isArray(next)) {
    if (!Array.isArray(previous)) return;
    const length = Math.min(next.length, previous.length);
    for (let i = 0; i < length; i++) next[i] = sharedValue(previous[i], next[i]);
    return;
  }
  if (
    next === null ||
    typeof next !== 'object' ||
    previous === null ||
    typeof previous !== 'object' ||
    Array.isArray(previous)
  )
    return;
  const record = next as Record<string, unknown>;
  const before = previous as Record<string, unknown>;
  // for-in over a parsed object uses V8's enum cache (no key array is allocated); the
  // own-property check runs only on a match, so a key `previous` lacks is left as it is.
  for (const key in record) {
    const value = record[key];
    if (typeof value === 'string') {
      const old = before[key];
      if (value === old && Object.hasOwn(before, key)) record[key] = old;
    } else if (value !== null && typeof value === 'object') {
      const old = before[key];
      if (old !== null && typeof old === 'object' && Object.hasOwn(before, key)) share(old, value);
    }
  }
}

/** `value`, or `old` where both are equal strings; nested objects and arrays shared within. */
function sharedValue(old: unknown, value: unknown): unknown {
  if (typeof value === 'string') return value === old ? old : value;
  if (value !== null && typeof value === 'object' && old !== null && typeof old === 'object')
    share(old, value);
  return value;
}
