import type { KubernetesObject } from '@ops/api';
import { shardingDomain } from './shard-labels.js';

/** Annotation of the assignment Lease: the newest generation of the ring's membership. */
export const generationAnnotation = `${shardingDomain}/generation`;
/** Annotation of the assignment Lease: the members of the newest generation, comma-separated. */
export const membersAnnotation = `${shardingDomain}/members`;
/** Annotation of the assignment Lease: the generation every live replica has acknowledged. */
export const activeGenerationAnnotation = `${shardingDomain}/active-generation`;
/** Annotation of the assignment Lease: the members of the active generation. */
export const activeMembersAnnotation = `${shardingDomain}/active-members`;
/**
 * Annotation of a shard Lease: the newest generation this replica has adopted, having
 * stopped reconciling everything outside its share in it.
 */
export const acknowledgedAnnotation = `${shardingDomain}/acknowledged-generation`;

/** Name of the Lease that carries a ring's {@link RingAssignment} (server-side sharding). */
export function assignmentLeaseName(ring: string): string {
  return `${ring}-assignment`;
}

/**
 * Who is in a ring with server-side sharding, as its sharder publishes it: the newest
 * membership (`generation`, `members`) and the one every live replica has acknowledged
 * (`active`, `activeMembers`). At most one change is in flight: a new generation is
 * published only once the last one is active.
 */
export interface RingAssignment {
  generation: number;
  members: string[];
  active: number;
  activeMembers: string[];
}

/** The assignment an assignment Lease carries, or undefined when it carries none (or garbage). */
export function readAssignment(lease: KubernetesObject | undefined): RingAssignment | undefined {
  const annotations = lease?.metadata?.annotations ?? {};
  const generation = Number(annotations[generationAnnotation]);
  const active = Number(annotations[activeGenerationAnnotation]);
  if (!Number.isSafeInteger(generation) || !Number.isSafeInteger(active)) return undefined;
  if (generation < 1 || active < 1 || active > generation) return undefined;
  return {
    generation,
    members: splitMembers(annotations[membersAnnotation]),
    active,
    activeMembers: splitMembers(annotations[activeMembersAnnotation]),
  };
}

/** The annotations that carry `assignment`. */
export function assignmentAnnotations(assignment: RingAssignment): Record<string, string> {
  return {
    [generationAnnotation]: String(assignment.generation),
    [membersAnnotation]: [...assignment.members].sort().join(','),
    [activeGenerationAnnotation]: String(assignment.active),
    [activeMembersAnnotation]: [...assignment.activeMembers].sort().join(','),
  };
}

/** The generation a shard Lease says its replica acknowledged (0 when none). */
export function acknowledgedGeneration(lease: KubernetesObject): number {
  const value = Number(lease.metadata?.annotations?.[acknowledgedAnnotation]);
  return Number.isSafeInteger(value) && value > 0 ? value : 0;
}

function splitMembers(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((member) => member.trim())
    .filter((member) => member !== '')
    .sort();
}

/**
 * The next assignment the sharder publishes, given the current one (undefined when none was
 * ever published), the replicas now `ready`, and the generation each live replica (every
 * member not dead: ready, expired or lapsed but not yet fenced) has acknowledged. Undefined
 * when nothing changes.
 *
 * - none yet: generation 1 with the ready replicas, active at once (nobody reconciled
 *   anything before it); but when live replicas acknowledged generations already (the Lease
 *   was deleted under them), the generation after the newest of those, with an empty active
 *   membership, so that nobody reconciles until every live replica adopted it;
 * - a generation in flight: it becomes active once every live replica acknowledged it (each
 *   then reconciles only within its share in it);
 * - otherwise, when the ready replicas differ from the newest members: the next generation.
 */
export function nextAssignment(
  current: RingAssignment | undefined,
  ready: readonly string[],
  liveAcknowledged: ReadonlyMap<string, number>,
): RingAssignment | undefined {
  const members = [...new Set(ready)].sort();
  if (current === undefined) {
    const newest = Math.max(0, ...liveAcknowledged.values());
    return newest === 0
      ? { generation: 1, members, active: 1, activeMembers: members }
      : { generation: newest + 1, members, active: newest, activeMembers: [] };
  }
  if (current.active < current.generation) {
    for (const acknowledged of liveAcknowledged.values())
      if (acknowledged < current.generation) return undefined;
    return { ...current, active: current.generation, activeMembers: current.members };
  }
  if (members.join(',') === [...current.members].sort().join(',')) return undefined;
  return { ...current, generation: current.generation + 1, members };
}
