import type { Pod } from '@ops/core';
import type { SidecarSet } from '../api/v1alpha1/sidecar-set.js';
import { sidecarSetSelector } from '../api/v1alpha1/sidecar-set-selector.js';
import type { PodContainer } from '../pod.js';
import { recordedSidecarHashes, sidecarHash, sidecarHashAnnotation } from './sidecar-hash.js';

/** The env var every injected container carries. */
export const injectedEnv = { name: 'IS_INJECTED', value: 'true' } as const;

/** A container of a SidecarSet left out of a Pod because the name was taken. */
export interface SkippedContainer {
  /** The SidecarSet whose container was left out. */
  sidecarSet: string;
  container: string;
  /** Who has the name: `the Pod` or `SidecarSet <name>`. */
  takenBy: string;
}

/** What {@link injectSidecars} did. */
export interface Injection {
  /** The Pod to admit (a new object; the input is not changed). */
  pod: Pod;
  /** The SidecarSets that matched, by name, sorted. */
  matched: string[];
  /** Containers added, as `<sidecarset>/<container>`. */
  added: string[];
  /** Containers left out because their name was taken. */
  skipped: SkippedContainer[];
}

/**
 * Injects the containers of every SidecarSet whose selector matches the Pod's labels (an
 * absent or empty selector, or an invalid one, matches nothing), as the mutating webhook
 * `mpod.kb.io` does on Pod CREATE. Pure: the same Pod and SidecarSets give the same result,
 * and neither input is changed.
 *
 * - Each injected container is the SidecarSet's container with `IS_INJECTED=true` appended to
 *   its env (replacing an `IS_INJECTED` it declares), appended after the Pod's containers.
 * - The clash rule, never a duplicate container name: SidecarSets are applied in the order
 *   of their names; a container whose name the Pod already has (its own containers, ones a
 *   SidecarSet earlier in that order injected, or ones injected at an earlier admission) is
 *   not added. So the Pod's own container wins over any sidecar, and between two
 *   SidecarSets the one whose name sorts first wins. Each such case is in `skipped`.
 * - The annotation {@link sidecarHashAnnotation} maps every matching SidecarSet to
 *   {@link sidecarHash} of its containers (entries for other SidecarSets already there are
 *   kept). A Pod that already records a hash for a SidecarSet was injected before: its
 *   containers are there by name and its recorded hash stays, so injecting an injected Pod
 *   again changes nothing (and an old Pod does not pass for an updated one).
 */
export function injectSidecars(pod: Pod, sidecarSets: readonly SidecarSet[]): Injection {
  const matching = sidecarSets
    .filter((sidecarSet) => selects(sidecarSet, pod))
    .sort((a, b) => compare(a.metadata.name ?? '', b.metadata.name ?? ''));
  const result: Injection = {
    pod: structuredClone(pod),
    matched: matching.map((sidecarSet) => sidecarSet.metadata.name ?? ''),
    added: [],
    skipped: [],
  };
  if (matching.length === 0) return result;
  const next = result.pod;
  // A Pod without a spec (refused later by validation) gets the sidecars alone.
  next.spec ??= { containers: [] };
  const spec = next.spec;
  const containers: PodContainer[] = [...(spec.containers ?? [])];
  // Who holds each container name: the Pod (as it came in), or a SidecarSet injecting now.
  const owners = new Map<string, string>(containers.map((c) => [c.name, 'the Pod']));
  const hashes = recordedSidecarHashes(pod);
  for (const sidecarSet of matching) {
    const setName = sidecarSet.metadata.name ?? '';
    // Injected at an earlier admission: its containers are there by name, and the hash
    // recorded then stays (it says which version of the containers the Pod runs).
    const injectedBefore = hashes[setName] !== undefined;
    for (const sidecar of sidecarSet.spec?.containers ?? []) {
      const takenBy = owners.get(sidecar.name);
      if (takenBy !== undefined) {
        if (!injectedBefore || takenBy !== 'the Pod')
          result.skipped.push({ sidecarSet: setName, container: sidecar.name, takenBy });
        continue;
      }
      containers.push(withInjectedEnv(sidecar as PodContainer));
      owners.set(sidecar.name, `SidecarSet ${setName}`);
      result.added.push(`${setName}/${sidecar.name}`);
    }
    hashes[setName] ??= sidecarHash(sidecarSet);
  }
  spec.containers = containers;
  next.metadata = {
    ...next.metadata,
    annotations: { ...next.metadata?.annotations, [sidecarHashAnnotation]: sortedJson(hashes) },
  };
  return result;
}

function selects(sidecarSet: SidecarSet, pod: Pod): boolean {
  try {
    return sidecarSetSelector(sidecarSet).matches(pod.metadata?.labels);
  } catch {
    // An invalid selector (stored before the validating webhook existed) selects nothing.
    return false;
  }
}

function withInjectedEnv(container: PodContainer): PodContainer {
  const copy = structuredClone(container);
  copy.env = [
    ...(copy.env ?? []).filter((env) => env.name !== injectedEnv.name),
    { ...injectedEnv },
  ];
  return copy;
}

/** The annotation's JSON, keys sorted, so the same hashes always give the same text. */
function sortedJson(hashes: Record<string, string>): string {
  const sorted: Record<string, string> = {};
  for (const name of Object.keys(hashes).sort(compare)) sorted[name] = hashes[name] ?? '';
  return JSON.stringify(sorted);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
