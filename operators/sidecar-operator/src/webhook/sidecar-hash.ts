import { createHash } from 'node:crypto';
import { isJsonObject } from '@ops/api';
import type { Pod } from '@ops/core';
import { stringify } from 'safe-stable-stringify';
import type { SidecarSet } from '../api/v1alpha1/sidecar-set.js';

/**
 * The Pod annotation that records what was injected: a JSON object mapping the name of each
 * SidecarSet that injected into the Pod to {@link sidecarHash} of its containers at that
 * moment, e.g. `{"logging":"3f1c…"}`.
 */
export const sidecarHashAnnotation = 'chinalhr.github.io/sidecar-hash';

/**
 * The hash of a SidecarSet's containers, the same in every operator process and replica,
 * before and after restarts, for equal containers:
 *
 * - input: `spec.containers` exactly as stored in the SidecarSet (as declared: before the
 *   webhook adds `IS_INJECTED=true`), `[]` when absent; nothing else of the SidecarSet
 *   (not its name, labels, selector or generation), so relabelling or reselecting does not
 *   make Pods outdated, and only a change of the containers does;
 * - serialisation: JSON with object keys sorted at every level, arrays in their order
 *   (`safe-stable-stringify`), so the order in which a client wrote the keys does not matter
 *   but the order of containers, args and env vars does (it changes the Pod);
 * - algorithm: SHA-256 of that UTF-8 text, lower-case hex (64 characters).
 */
export function sidecarHash(sidecarSet: Pick<SidecarSet, 'spec'>): string {
  const text = stringify(sidecarSet.spec?.containers ?? []) ?? '[]';
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * The hashes recorded on a Pod ({@link sidecarHashAnnotation}), by SidecarSet name. An
 * absent annotation, or one that is not a JSON object of strings (written by hand), reads
 * as no hashes: such a Pod counts as not updated rather than breaking the status.
 */
export function recordedSidecarHashes(pod: Pod): Record<string, string> {
  const text = pod.metadata?.annotations?.[sidecarHashAnnotation];
  if (text === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {};
  }
  if (!isJsonObject(parsed)) return {};
  const hashes: Record<string, string> = {};
  for (const [name, hash] of Object.entries(parsed)) {
    if (typeof hash === 'string') hashes[name] = hash;
  }
  return hashes;
}
