import diff from 'microdiff';
import type { NormalizedAnswer } from './normalize.js';

/**
 * How two answers differ at one field: `missing locally` (only kube-apiserver has it),
 * `only locally` (only the local server has it) or `differs` (both have it, with other values).
 */
export type DifferenceKind = 'missing locally' | 'only locally' | 'differs';

/** One field at which the local server's normalized answer differs from kube-apiserver's. */
export interface Difference {
  /** Where, in the answer: `status`, `body.metadata.managedFields`, `body.items[0].data`. */
  path: string;
  /** {@link path} with indices and discovery keys as `[*]`, to group like differences. */
  pattern: string;
  kind: DifferenceKind;
  /** The local server's value (absent when `missing locally`). */
  local?: unknown;
  /** kube-apiserver's value (absent when `only locally`). */
  real?: unknown;
}

const identifier = /^[A-Za-z_$][\w$]*$/;
const discoveryKey = /^\w+=/;

/**
 * Formats a path as JavaScript would read it: `body.items[0]["app.kubernetes.io/name"]`;
 * a discovery key (`name=pods`, see normalizeAnswer) as `[name=pods]`.
 */
export function formatPath(segments: readonly (string | number)[]): string {
  return format(segments, false);
}

/** {@link formatPath} with every index and discovery key as `[*]`. */
export function formatPattern(segments: readonly (string | number)[]): string {
  return format(segments, true);
}

function format(segments: readonly (string | number)[], wildcards: boolean): string {
  let path = '';
  for (const segment of segments) {
    if (typeof segment === 'number') path += wildcards ? '[*]' : `[${segment}]`;
    else if (discoveryKey.test(segment)) path += wildcards ? '[*]' : `[${segment}]`;
    else if (identifier.test(segment)) path += path === '' ? segment : `.${segment}`;
    else path += `[${JSON.stringify(segment)}]`;
  }
  return path;
}

/**
 * The differences between the local server's and kube-apiserver's normalized answers to the
 * same request, field by field, in a stable order (by path). Empty when they match.
 */
export function compareAnswers(local: NormalizedAnswer, real: NormalizedAnswer): Difference[] {
  return diff(
    local as unknown as Record<string, unknown>,
    real as unknown as Record<string, unknown>,
    { cyclesFix: false },
  )
    .map((change): Difference => {
      const path = formatPath(change.path);
      const pattern = formatPattern(change.path);
      if (change.type === 'CREATE')
        return { path, pattern, kind: 'missing locally', real: change.value };
      if (change.type === 'REMOVE')
        return { path, pattern, kind: 'only locally', local: change.oldValue };
      return { path, pattern, kind: 'differs', local: change.oldValue, real: change.value };
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
