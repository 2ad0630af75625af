import { groupOf, type KubernetesObject, type OwnerReference } from '@ops/api';
import { objectKey, type ResourceType, storageKeyOf } from '../registry/resource-type.js';
import type { StoreEvent } from '../store/object-store.js';
import type { Controller } from './controller.js';
import type { ClusterHost, ControllerClient } from './controller-client.js';

const foregroundFinalizer = 'foregroundDeletion';
const orphanFinalizer = 'orphan';

/** Where an object lives: its resource (`group/plural`) and key (`ns/name` or `name`). */
interface Location {
  resource: string;
  key: string;
}

const locationKey = (location: Location): string => `${location.resource}|${location.key}`;

function parseLocation(text: string): Location {
  const bar = text.indexOf('|');
  return { resource: text.slice(0, bar), key: text.slice(bar + 1) };
}

/**
 * The garbage collector of kube-controller-manager, over `metadata.ownerReferences`:
 *
 * - a dependent none of whose owners exists (looked up by the reference's group, kind and
 *   name, in the dependent's namespace or at cluster scope, with a matching uid) is deleted
 *   in the background; references to missing owners are removed from dependents that still
 *   have an owner;
 * - an owner deleted with the `foregroundDeletion` finalizer gets its dependents deleted
 *   (Foreground when they have dependents of their own, as kube's GC does), and the finalizer
 *   removed once no dependent with `blockOwnerDeletion: true` is left;
 * - an owner deleted with the `orphan` finalizer gets the references to it removed from its
 *   dependents, then the finalizer removed.
 *
 * References to kinds the server does not serve, and namespaced owners of cluster-scoped
 * dependents, are left alone (unresolvable), never treated as missing. Keys are
 * `group/plural|key`. Dependency cycles with foreground deletion are not broken (kube
 * unblocks them; here they wait).
 */
export class GarbageCollector implements Controller {
  readonly name = 'garbagecollector';
  /** uid → where the object with that uid lives. */
  private readonly byUid = new Map<string, Location>();
  /** owner uid → the dependents referring to it (location keys). */
  private readonly dependents = new Map<string, Set<string>>();
  /** dependent location key → the owner uids it refers to. */
  private readonly ownersOf = new Map<string, string[]>();

  constructor(
    private readonly host: ClusterHost,
    private readonly client: ControllerClient,
  ) {}

  initialKeys(): string[] {
    const keys: string[] = [];
    for (const resource of this.host.store.resourceNames()) {
      for (const stored of this.host.store.list(resource)) {
        const location = { resource, key: stored.key };
        this.index(location, stored.object);
        if (this.interesting(stored.object)) keys.push(locationKey(location));
      }
    }
    return keys;
  }

  keysFor(resource: string, event: StoreEvent): string[] {
    const object = event.current.object;
    const location = { resource, key: event.current.key };
    const keys: string[] = [];
    const previousOwners = this.ownersOf.get(locationKey(location)) ?? [];
    if (event.type === 'DELETED') {
      this.unindex(location, object);
      const uid = object.metadata?.uid;
      if (uid !== undefined)
        for (const dependent of this.dependents.get(uid) ?? []) keys.push(dependent);
    } else {
      this.index(location, object);
      if (this.interesting(object)) keys.push(locationKey(location));
    }
    // Owners waiting for their dependents hear about every change to them.
    for (const uid of new Set([
      ...previousOwners,
      ...(object.metadata?.ownerReferences ?? []).map((r) => r.uid),
    ])) {
      const owner = this.byUid.get(uid);
      if (owner === undefined) continue;
      const stored = this.host.store.get(owner.resource, owner.key);
      if (stored?.object.metadata?.deletionTimestamp !== undefined) keys.push(locationKey(owner));
    }
    return keys;
  }

  async reconcile(key: string): Promise<undefined> {
    const location = parseLocation(key);
    const object = this.host.store.get(location.resource, location.key)?.object;
    const type = this.typeOf(location.resource);
    if (object === undefined || type === undefined) return undefined;
    const meta = object.metadata ?? {};
    if (meta.deletionTimestamp !== undefined) {
      const finalizers = meta.finalizers ?? [];
      if (finalizers.includes(foregroundFinalizer)) await this.deleteDependentsFirst(type, object);
      else if (finalizers.includes(orphanFinalizer)) await this.orphanDependents(type, object);
      return undefined;
    }
    if ((meta.ownerReferences ?? []).length > 0) await this.collectIfOwnerless(type, object);
    return undefined;
  }

  private interesting(object: KubernetesObject): boolean {
    const meta = object.metadata ?? {};
    if (meta.deletionTimestamp !== undefined) {
      const finalizers = meta.finalizers ?? [];
      return finalizers.includes(foregroundFinalizer) || finalizers.includes(orphanFinalizer);
    }
    return (meta.ownerReferences ?? []).length > 0;
  }

  private index(location: Location, object: KubernetesObject): void {
    const id = locationKey(location);
    this.unlinkOwners(id);
    const uid = object.metadata?.uid;
    if (uid !== undefined) this.byUid.set(uid, location);
    const owners = (object.metadata?.ownerReferences ?? [])
      .map((r) => r.uid)
      .filter((u) => u !== '');
    if (owners.length === 0) return;
    this.ownersOf.set(id, owners);
    for (const owner of owners) {
      let set = this.dependents.get(owner);
      if (set === undefined) {
        set = new Set();
        this.dependents.set(owner, set);
      }
      set.add(id);
    }
  }

  private unindex(location: Location, object: KubernetesObject): void {
    const id = locationKey(location);
    this.unlinkOwners(id);
    const uid = object.metadata?.uid;
    if (uid !== undefined) {
      const current = this.byUid.get(uid);
      if (current !== undefined && locationKey(current) === id) this.byUid.delete(uid);
    }
  }

  private unlinkOwners(id: string): void {
    for (const owner of this.ownersOf.get(id) ?? []) {
      const set = this.dependents.get(owner);
      set?.delete(id);
      if (set?.size === 0) this.dependents.delete(owner);
    }
    this.ownersOf.delete(id);
  }

  private typeOf(resource: string): ResourceType | undefined {
    const slash = resource.indexOf('/');
    return this.host.registry.findAnyVersion(resource.slice(0, slash), resource.slice(slash + 1));
  }

  /** The live dependents of an owner, each with its type. */
  private dependentsOf(uid: string): Array<{ type: ResourceType; object: KubernetesObject }> {
    const result: Array<{ type: ResourceType; object: KubernetesObject }> = [];
    for (const id of this.dependents.get(uid) ?? []) {
      const location = parseLocation(id);
      const object = this.host.store.get(location.resource, location.key)?.object;
      const type = this.typeOf(location.resource);
      if (object === undefined || type === undefined) continue;
      if ((object.metadata?.ownerReferences ?? []).some((r) => r.uid === uid))
        result.push({ type, object });
    }
    return result;
  }

  private hasDependents(object: KubernetesObject): boolean {
    const uid = object.metadata?.uid;
    return uid !== undefined && this.dependentsOf(uid).length > 0;
  }

  private async deleteDependentsFirst(type: ResourceType, owner: KubernetesObject): Promise<void> {
    const uid = owner.metadata?.uid ?? '';
    const dependents = this.dependentsOf(uid);
    for (const dependent of dependents) {
      if (dependent.object.metadata?.deletionTimestamp === undefined)
        await this.collectIfOwnerless(dependent.type, dependent.object);
    }
    const blocking = this.dependentsOf(uid).filter(({ object }) =>
      (object.metadata?.ownerReferences ?? []).some(
        (r) => r.uid === uid && r.blockOwnerDeletion === true,
      ),
    );
    if (blocking.length === 0) await this.removeFinalizer(type, owner, foregroundFinalizer);
  }

  private async orphanDependents(type: ResourceType, owner: KubernetesObject): Promise<void> {
    const uid = owner.metadata?.uid ?? '';
    for (const dependent of this.dependentsOf(uid)) {
      await this.removeReferences(dependent.type, dependent.object, new Set([uid]));
    }
    await this.removeFinalizer(type, owner, orphanFinalizer);
  }

  private async collectIfOwnerless(type: ResourceType, object: KubernetesObject): Promise<void> {
    const solid: OwnerReference[] = [];
    const dangling: OwnerReference[] = [];
    const waiting: OwnerReference[] = [];
    for (const ref of object.metadata?.ownerReferences ?? []) {
      const state = this.ownerState(type, object, ref);
      if (state === 'solid' || state === 'unresolvable') solid.push(ref);
      else if (state === 'waiting') waiting.push(ref);
      else dangling.push(ref);
    }
    if (solid.length > 0) {
      if (dangling.length + waiting.length === 0) return;
      await this.removeReferences(
        type,
        object,
        new Set([...dangling, ...waiting].map((r) => r.uid)),
      );
      return;
    }
    if (object.metadata?.deletionTimestamp !== undefined) return;
    const meta = object.metadata ?? {};
    const policy = waiting.length > 0 && this.hasDependents(object) ? 'Foreground' : 'Background';
    await this.client.delete(type.group, type.plural, meta.namespace ?? '', meta.name ?? '', {
      propagationPolicy: policy,
      preconditions: { uid: meta.uid ?? '' },
    });
  }

  private ownerState(
    type: ResourceType,
    dependent: KubernetesObject,
    ref: OwnerReference,
  ): 'solid' | 'waiting' | 'dangling' | 'unresolvable' {
    const group = groupOf(ref.apiVersion);
    const ownerType = this.host.registry
      .all()
      .find((t) => t.group === group && t.kind === ref.kind);
    if (ownerType === undefined) return 'unresolvable';
    if (ownerType.namespaced && !type.namespaced) return 'unresolvable';
    const namespace = ownerType.namespaced ? dependent.metadata?.namespace : undefined;
    const owner = this.host.store.get(
      storageKeyOf(ownerType),
      objectKey(namespace, ref.name),
    )?.object;
    if (owner === undefined || owner.metadata?.uid !== ref.uid) return 'dangling';
    const meta = owner.metadata;
    if (
      meta.deletionTimestamp !== undefined &&
      (meta.finalizers ?? []).includes(foregroundFinalizer)
    )
      return 'waiting';
    return 'solid';
  }

  private async removeReferences(
    type: ResourceType,
    object: KubernetesObject,
    uids: Set<string>,
  ): Promise<void> {
    const copy = structuredClone(object);
    const meta = copy.metadata ?? {};
    const kept = (meta.ownerReferences ?? []).filter((r) => !uids.has(r.uid));
    if (kept.length === (meta.ownerReferences ?? []).length) return;
    if (kept.length === 0) delete meta.ownerReferences;
    else meta.ownerReferences = kept;
    await this.client.update(type.group, type.plural, copy);
  }

  private async removeFinalizer(
    type: ResourceType,
    object: KubernetesObject,
    finalizer: string,
  ): Promise<void> {
    const copy = structuredClone(object);
    const meta = copy.metadata ?? {};
    const kept = (meta.finalizers ?? []).filter((f) => f !== finalizer);
    if (kept.length === 0) delete meta.finalizers;
    else meta.finalizers = kept;
    await this.client.update(type.group, type.plural, copy);
  }
}
