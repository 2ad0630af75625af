import type { Answer } from '../scenario.js';

/** The `metadata.resourceVersion` of an answer's object or list ('' when it has none). */
export function resourceVersionOf(answer: Answer): string {
  const version = (answer.body as { metadata?: { resourceVersion?: unknown } } | null)?.metadata
    ?.resourceVersion;
  return typeof version === 'string' ? version : '';
}

/** The `metadata.name` of an answer's object ('' when it has none). */
export function nameOf(answer: Answer): string {
  const name = (answer.body as { metadata?: { name?: unknown } } | null)?.metadata?.name;
  return typeof name === 'string' ? name : '';
}

/** The `metadata.continue` token of a list answer ('' on its last page). */
export function continueOf(answer: Answer): string {
  const token = (answer.body as { metadata?: { continue?: unknown } } | null)?.metadata?.continue;
  return typeof token === 'string' ? token : '';
}

/** A copy of `object` whose `metadata.resourceVersion` is `version` (an update's precondition). */
export function withResourceVersion<T extends { metadata?: object }>(
  object: T,
  version: string,
): T {
  return { ...object, metadata: { ...object.metadata, resourceVersion: version } };
}
