import type https from 'node:https';
import type { BodyThread } from './body-thread.js';

/**
 * Request options as plain data that can be copied to another thread (the
 * {@link BodyThread}): the same options without `agent`, or undefined when some option
 * cannot be copied faithfully (a function, such as a custom `checkServerIdentity`, or an
 * instance of a class other than Buffer), in which case the request must stay on this
 * thread.
 */
export function cloneableRequestOptions(
  options: https.RequestOptions,
): https.RequestOptions | undefined {
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    if (key === 'agent' || value === undefined) continue;
    if (!isCloneable(value)) return undefined;
    copy[key] = value;
  }
  return copy as https.RequestOptions;
}

/** Whether a value holds only plain data: primitives, Buffers, arrays and plain objects. */
function isCloneable(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return typeof value !== 'function';
  if (Buffer.isBuffer(value)) return true;
  if (Array.isArray(value)) return value.every(isCloneable);
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return false;
  return Object.values(value as Record<string, unknown>).every(isCloneable);
}
