import type { KubeConfig } from '@kubernetes/client-node';
import { Client, type KubernetesObject } from '@ops/core';

/** A kind whose objects make up a scenario's outcome. */
export interface OutcomeKind {
  apiVersion: string;
  kind: string;
}

/** A field whose value may differ from run to run: left out of the outcome. */
export interface NondeterministicField {
  /** The kind it belongs to (`ConfigMap`); every kind when absent. */
  kind?: string;
  /** A dotted path, `metadata.name` or `status.childName`. */
  path: string;
}

/** What {@link readOutcome} reads. */
export interface OutcomeOptions {
  namespace: string;
  kinds: readonly OutcomeKind[];
  nondeterministic?: readonly NondeterministicField[];
}

/**
 * The state a run ended in: per kind, its objects (in the scenario's namespace) with the
 * fields the API server sets (uid, resourceVersion, timestamps, managedFields, generation)
 * and the declared nondeterministic ones left out, owner references reduced to kind and
 * name, sorted; and the reasons of the Normal Events recorded there.
 */
export interface Outcome {
  objects: Record<string, unknown[]>;
  /** `<reason> <involved kind>`, sorted, without repeats. */
  events: string[];
  /** Live children whose owner (by uid) is gone: `<kind>/<name> owned by <kind>/<name>`. */
  orphans: string[];
}

const serverSet = [
  'metadata.uid',
  'metadata.resourceVersion',
  'metadata.creationTimestamp',
  'metadata.managedFields',
  'metadata.generation',
  'metadata.selfLink',
  'metadata.deletionGracePeriodSeconds',
];

function removePath(object: Record<string, unknown>, path: string): void {
  const parts = path.split('.');
  let current: unknown = object;
  for (const part of parts.slice(0, -1)) {
    if (typeof current !== 'object' || current === null) return;
    current = (current as Record<string, unknown>)[part];
  }
  if (typeof current === 'object' && current !== null)
    delete (current as Record<string, unknown>)[parts[parts.length - 1] ?? ''];
}

/**
 * `value` with the keys of its objects in sorted order, at every depth (arrays keep theirs):
 * the order in which an object's fields were written (a merge patch appends new ones) is no
 * part of an outcome.
 */
export function withSortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withSortedKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, withSortedKeys((value as Record<string, unknown>)[key])]),
  );
}

const sortedByJson = (items: unknown[]) =>
  items
    .map((item) => JSON.stringify(item))
    .sort()
    .map((text) => JSON.parse(text) as unknown);

/** Reads the outcome of a run as the admin (`kubeConfig`), straight from the API server. */
export async function readOutcome(
  kubeConfig: KubeConfig,
  options: OutcomeOptions,
): Promise<Outcome> {
  const client = new Client({ kubeConfig });
  try {
    const objects: Record<string, unknown[]> = {};
    const listed: KubernetesObject[] = [];
    for (const { apiVersion, kind } of options.kinds) {
      const list = await client.list(apiVersion, kind, { namespace: options.namespace });
      const items: unknown[] = [];
      for (const item of list.items) {
        const object = structuredClone(item) as KubernetesObject & Record<string, unknown>;
        object.apiVersion = apiVersion;
        object.kind = kind;
        listed.push(object);
        const copy = structuredClone(object);
        for (const path of serverSet) removePath(copy, path);
        for (const field of options.nondeterministic ?? [])
          if (field.kind === undefined || field.kind === kind) removePath(copy, field.path);
        const owners = copy.metadata?.ownerReferences;
        if (owners && copy.metadata)
          (copy.metadata as Record<string, unknown>).ownerReferences = owners.map(
            ({ kind: ownerKind, name }) => ({ kind: ownerKind, name }),
          );
        items.push(withSortedKeys(copy));
      }
      objects[`${apiVersion}/${kind}`] = sortedByJson(items);
    }
    const orphans = findOrphans(listed, new Set(options.kinds.map(({ kind }) => kind)));
    const events = await client.list('v1', 'Event', { namespace: options.namespace });
    const reasons = new Set<string>();
    for (const event of events.items as Array<
      KubernetesObject & { type?: string; reason?: string; involvedObject?: { kind?: string } }
    >) {
      if (event.type === 'Normal') reasons.add(`${event.reason} ${event.involvedObject?.kind}`);
    }
    return { objects, events: [...reasons].sort(), orphans };
  } finally {
    client.close();
  }
}

/**
 * The objects among `listed` owned (by uid) by an object of one of `ownerKinds` that is not
 * among them: `<kind>/<name> owned by <kind>/<name> (uid <uid>, gone)`, sorted. (A garbage
 * collector removes such children in time; the local plane's does so at once.)
 */
export function findOrphans(
  listed: readonly KubernetesObject[],
  ownerKinds: ReadonlySet<string>,
): string[] {
  const uids = new Set(listed.map((object) => object.metadata?.uid));
  const orphans: string[] = [];
  for (const object of listed) {
    for (const owner of object.metadata?.ownerReferences ?? []) {
      if (ownerKinds.has(owner.kind) && !uids.has(owner.uid))
        orphans.push(
          `${object.kind}/${object.metadata?.name} owned by ${owner.kind}/${owner.name} (uid ${owner.uid}, gone)`,
        );
    }
  }
  return orphans.sort();
}

/**
 * How `actual` differs from `reference`, one line per difference; empty when the objects are
 * equal, no child is orphaned and every Normal Event reason of `actual` is one the reference
 * recorded. (Events are best-effort in Kubernetes: one the reference recorded may be missing
 * after a crash, and that is no failure.)
 */
export function outcomeDifferences(reference: Outcome, actual: Outcome): string[] {
  const differences: string[] = [];
  for (const key of new Set([...Object.keys(reference.objects), ...Object.keys(actual.objects)])) {
    const want = reference.objects[key] ?? [];
    const got = actual.objects[key] ?? [];
    if (got.length !== want.length)
      differences.push(
        `${key}: ${got.length} object(s) where the reference run left ${want.length} (${got.length > want.length ? 'duplicated or leaked' : 'missing'})`,
      );
    const wantText = want.map((item) => JSON.stringify(item));
    const gotText = got.map((item) => JSON.stringify(item));
    for (const text of gotText)
      if (!wantText.includes(text)) differences.push(`${key}: unexpected ${text}`);
    for (const text of wantText)
      if (!gotText.includes(text)) differences.push(`${key}: missing ${text}`);
  }
  for (const orphan of actual.orphans) differences.push(`orphaned child: ${orphan}`);
  for (const event of actual.events)
    if (!reference.events.includes(event))
      differences.push(`Event ${event}: recorded here, never in the reference run`);
  return differences;
}
