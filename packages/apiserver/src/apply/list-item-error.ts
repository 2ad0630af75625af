const marker = Symbol.for('@ops/apiserver.ListItemError');

/**
 * A list item that has no path element (a missing key, a map in a set, a non-object item in
 * a keyed list) or shares one with another item: the value cannot be typed for server-side
 * apply. The message is structured-merge-diff's.
 */
export class ListItemError extends Error {
  readonly [marker] = true;
  override readonly name = 'ListItemError';

  /** Whether `value` is a ListItemError, from any copy of this package. */
  static isInstance(value: unknown): value is ListItemError {
    return typeof value === 'object' && value !== null && marker in value;
  }
}
