import { OwnerReferenceError } from './errors/owner-reference-error.js';
import type { KubernetesObject, ObjectMeta, OwnerReference } from './kubernetes-object.js';

/** `object` as returned by the setters: its `metadata` now exists and has owner references. */
export type WithOwners<T extends KubernetesObject> = T & { metadata: ObjectMeta };

/** The API group of an `apiVersion` (`apps/v1` -> `apps`, `v1` -> `` for the core group). */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash === -1 ? '' : apiVersion.slice(0, slash);
}

/**
 * Whether two references point at the same object kind and name. Versions are ignored (an
 * owner read as `apps/v1beta1` is the same owner as `apps/v1`), as controller-runtime does.
 */
function sameOwner(a: OwnerReference, b: OwnerReference): boolean {
  return groupOf(a.apiVersion) === groupOf(b.apiVersion) && a.kind === b.kind && a.name === b.name;
}

function referenceTo(owner: KubernetesObject): OwnerReference {
  const { apiVersion, kind } = owner;
  const name = owner.metadata?.name;
  const uid = owner.metadata?.uid;
  const missing = [
    apiVersion ? undefined : 'apiVersion',
    kind ? undefined : 'kind',
    name ? undefined : 'metadata.name',
    uid ? undefined : 'metadata.uid',
  ].filter((field): field is string => field !== undefined);
  if (missing.length > 0 || !apiVersion || !kind || !name || !uid) {
    throw new OwnerReferenceError(
      'InvalidOwner',
      `cannot reference owner ${kind ?? '<no kind>'} "${name ?? '<no name>'}": it has no ${missing.join(', ')}; use the owner as read from the API server (a created or fetched object), not a locally built one`,
    );
  }
  return { apiVersion, kind, name, uid };
}

function describe(object: KubernetesObject): string {
  const meta = object.metadata ?? {};
  const name = meta.namespace ? `${meta.namespace}/${meta.name ?? ''}` : (meta.name ?? '');
  return `${object.kind ?? 'object'} "${name}"`;
}

function checkScope(owner: KubernetesObject, object: KubernetesObject): void {
  const ownerNamespace = owner.metadata?.namespace ?? '';
  const objectNamespace = object.metadata?.namespace ?? '';
  if (ownerNamespace === '') return;
  if (objectNamespace === '') {
    throw new OwnerReferenceError(
      'CrossNamespace',
      `cluster-scoped resource ${describe(object)} must not have a namespace-scoped owner ${describe(owner)}; the garbage collector would delete it at once`,
    );
  }
  if (objectNamespace !== ownerNamespace) {
    throw new OwnerReferenceError(
      'CrossNamespace',
      `cross-namespace owner references are disallowed: owner ${describe(owner)} is in namespace "${ownerNamespace}", object ${describe(object)} is in "${objectNamespace}"; create the object in the owner's namespace`,
    );
  }
}

function upsert(object: KubernetesObject, reference: OwnerReference): void {
  object.metadata ??= {};
  const references = object.metadata.ownerReferences ?? [];
  const index = references.findIndex((existing) => sameOwner(existing, reference));
  if (index === -1) {
    references.push(reference);
  } else {
    references[index] = reference;
  }
  object.metadata.ownerReferences = references;
}

/**
 * Makes `owner` the controller of `object`: adds (or updates in place) an owner reference
 * with `controller: true` and `blockOwnerDeletion: true`, so that Kubernetes' garbage
 * collector deletes `object` with its owner and controllers that `owns()` the kind route
 * events for `object` to `owner`. Other owner references are kept.
 *
 * Mutates `object` and returns it.
 *
 * @throws {OwnerReferenceError} `AlreadyOwned` when another object is already the controller
 *   (an object has at most one); `CrossNamespace` when a namespaced owner is in another
 *   namespace or the object is cluster-scoped; `InvalidOwner` when the owner has no uid or
 *   name (it was not read from the server). The object is unchanged when it throws.
 */
export function setControllerReference<T extends KubernetesObject>(
  owner: KubernetesObject,
  object: T,
): WithOwners<T> {
  const reference: OwnerReference = {
    ...referenceTo(owner),
    blockOwnerDeletion: true,
    controller: true,
  };
  checkScope(owner, object);
  const current = getControllerOf(object);
  if (current !== undefined && !sameOwner(current, reference)) {
    throw new OwnerReferenceError(
      'AlreadyOwned',
      `${describe(object)} is already owned by another ${current.kind} controller "${current.name}"; an object has at most one controller, so adopt it only after that owner releases it`,
    );
  }
  upsert(object, reference);
  return object as WithOwners<T>;
}

/**
 * Adds `owner` as a non-controlling owner of `object` (or updates the reference in place),
 * keeping any `controller`/`blockOwnerDeletion` flags an existing reference has. Mutates
 * `object` and returns it.
 *
 * @throws {OwnerReferenceError} `CrossNamespace` or `InvalidOwner`, as for
 *   {@link setControllerReference}.
 */
export function setOwnerReference<T extends KubernetesObject>(
  owner: KubernetesObject,
  object: T,
): WithOwners<T> {
  const reference = referenceTo(owner);
  checkScope(owner, object);
  const existing = object.metadata?.ownerReferences?.find((ref) => sameOwner(ref, reference));
  upsert(object, {
    ...reference,
    ...(existing?.controller !== undefined ? { controller: existing.controller } : {}),
    ...(existing?.blockOwnerDeletion !== undefined
      ? { blockOwnerDeletion: existing.blockOwnerDeletion }
      : {}),
  });
  return object as WithOwners<T>;
}

/**
 * Removes the reference to `owner` from `object`, if there is one. Mutates `object` and
 * returns whether a reference was removed.
 */
export function removeOwnerReference(owner: KubernetesObject, object: KubernetesObject): boolean {
  const references = object.metadata?.ownerReferences;
  if (!references || !owner.apiVersion || !owner.kind || !owner.metadata?.name) return false;
  const target: OwnerReference = {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name,
    uid: owner.metadata.uid ?? '',
  };
  const kept = references.filter((ref) => !sameOwner(ref, target));
  if (kept.length === references.length) return false;
  if (object.metadata) object.metadata.ownerReferences = kept;
  return true;
}

/** The owner reference with `controller: true`, if `object` has one. */
export function getControllerOf(object: KubernetesObject): OwnerReference | undefined {
  return object.metadata?.ownerReferences?.find((ref) => ref.controller === true);
}

/**
 * Whether `owner` is the controller of `object`: the controlling reference carries the
 * owner's uid. Comparing uids means a deleted-and-recreated owner of the same name is not
 * taken for the old one.
 */
export function isControlledBy(object: KubernetesObject, owner: KubernetesObject): boolean {
  const controller = getControllerOf(object);
  const uid = owner.metadata?.uid;
  return controller !== undefined && uid !== undefined && controller.uid === uid;
}

/** Whether `object` lists `owner` (matched by uid) among its owners, as controller or not. */
export function hasOwnerReference(object: KubernetesObject, owner: KubernetesObject): boolean {
  const uid = owner.metadata?.uid;
  return (
    uid !== undefined && (object.metadata?.ownerReferences ?? []).some((ref) => ref.uid === uid)
  );
}
