/**
 * Finalizers of Kubernetes objects (`metadata.finalizers`), after controller-runtime's
 * `controllerutil` (in-place helpers) and kube-rs's `finalizer` (guarded JSON patches).
 *
 * # Expected flow
 *
 * 1. A user creates an object; the controller sees it without its finalizer.
 * 2. The controller sends {@link addFinalizerPatch} and waits for the change to come back
 *    (the patch triggers a new reconcile); it does no other work before the finalizer is
 *    stored, because only then is cleanup guaranteed to run.
 * 3. The controller reconciles the object as usual for as long as it lives.
 * 4. A user deletes the object: the API server sets `metadata.deletionTimestamp` and keeps
 *    the object while it has finalizers.
 * 5. The controller sees the deleting object with its finalizer, cleans up (external
 *    resources, ...) and, once cleanup succeeded, sends {@link removeFinalizerPatch}.
 * 6. When no finalizers remain, the API server deletes the object.
 *
 * # Guarantees
 *
 * - The patches never overwrite other finalizers: each is guarded by RFC 6902 `test`
 *   operations on what the caller read, so if another writer changed the finalizers in the
 *   meantime the API server rejects the whole patch (a failed `test`, including one of
 *   `resourceVersion`, is answered 422 Unprocessable Entity, "Testing value ... failed")
 *   instead of clobbering them. Re-read the object (the next reconcile does) and try again.
 * - Once the add patch succeeded, the object cannot disappear before the remove patch (or
 *   someone else) takes the finalizer off.
 *
 * # Assumptions
 *
 * - The finalizer name is owned by one controller (use your domain: `example.com/cleanup`).
 * - Cleanup is idempotent and tolerates never having reconciled the object, or having been
 *   interrupted before: it may run several times.
 * - Objects passed to the patch builders were read from the API server, so that their
 *   `metadata` (finalizers, `resourceVersion`) is the server's state at some point.
 *
 * # Caveats
 *
 * - Deletion of the object hangs while the controller is not running or its cleanup keeps
 *   failing: that is the point of a finalizer, and the usual cause of "stuck" objects.
 * - A rejected patch is not an error of the controller: requeue and retry with a fresh read.
 * - Kubernetes does not de-duplicate finalizers; these helpers never add a duplicate and
 *   remove every copy of a name.
 *
 * # Errors
 *
 * The mutating helpers throw a {@link FinalizerError}: `InvalidFinalizer` for a name that is
 * not a qualified name, `MissingResourceVersion` when a guarded patch needs
 * `metadata.resourceVersion` and the object has none, `ObjectDeleting` when asked to add a
 * finalizer to an object being deleted (the API server forbids new finalizers then).
 * Sending the patch may fail as any request does (network, RBAC, or the `test` failing as
 * described above).
 */

import type { KubernetesObject } from '@ops/api';
import { validateQualifiedName } from '@ops/api';
import { FinalizerError } from '../errors/finalizer-error.js';

/**
 * One RFC 6902 JSON Patch operation as built by the finalizer helpers. Send a list of them
 * with content type `application/json-patch+json`.
 */
export interface FinalizerPatchOperation {
  op: 'test' | 'add' | 'remove';
  path: string;
  value?: unknown;
}

/** Options of {@link addFinalizerPatch} and {@link removeFinalizerPatch}. */
export interface FinalizerPatchOptions {
  /**
   * Also `test` that `metadata.resourceVersion` is still the one read, so that *any*
   * concurrent write to the object (not only to its finalizers) makes the patch fail.
   * Stricter, and more often rejected. Default false: only the finalizers are guarded, which
   * suffices for never clobbering them.
   */
  testResourceVersion?: boolean;
}

const finalizersPath = '/metadata/finalizers';
const resourceVersionPath = '/metadata/resourceVersion';

/**
 * The problems with `name` as a finalizer, empty when it is valid. A finalizer is a qualified
 * name (`name` or `prefix/name`, see {@link validateQualifiedName}), as kube-apiserver
 * requires.
 */
export function validateFinalizerName(name: string): string[] {
  return validateQualifiedName(name);
}

/**
 * Checks `name` as a finalizer.
 *
 * @throws {FinalizerError} `InvalidFinalizer` naming the problems and a valid form.
 */
export function checkFinalizerName(name: string): void {
  const problems = validateFinalizerName(name);
  if (problems.length > 0) {
    throw new FinalizerError(
      'InvalidFinalizer',
      `invalid finalizer name ${JSON.stringify(name)}: ${problems.join('; ')}; use a domain-qualified name such as "example.com/cleanup"`,
      name,
    );
  }
}

function describe(object: KubernetesObject): string {
  const meta = object.metadata ?? {};
  const name = meta.namespace ? `${meta.namespace}/${meta.name ?? ''}` : (meta.name ?? '');
  return `${object.kind ?? 'object'} "${name}"`;
}

function resourceVersionTest(
  object: KubernetesObject,
  name: string,
  why: string,
): FinalizerPatchOperation {
  const resourceVersion = object.metadata?.resourceVersion;
  if (resourceVersion === undefined || resourceVersion === '') {
    throw new FinalizerError(
      'MissingResourceVersion',
      `cannot build a guarded finalizer patch for ${describe(object)}: it has no metadata.resourceVersion, which ${why}; pass the object as read from the API server (a get, list or watch result), not a locally built one`,
      name,
    );
  }
  return { op: 'test', path: resourceVersionPath, value: resourceVersion };
}

/** Whether `object` lists the finalizer `name`. Never throws. */
export function hasFinalizer(object: KubernetesObject, name: string): boolean {
  return object.metadata?.finalizers?.includes(name) ?? false;
}

/**
 * Adds the finalizer `name` to `object` in place, unless it is already there (then nothing
 * changes). Returns whether the object changed, so the caller knows whether to update it.
 * Other finalizers and their order are kept; `name` goes last.
 *
 * @throws {FinalizerError} `InvalidFinalizer` when `name` is not a qualified name; the
 *   object is unchanged.
 */
export function addFinalizer(object: KubernetesObject, name: string): boolean {
  checkFinalizerName(name);
  if (hasFinalizer(object, name)) return false;
  object.metadata ??= {};
  object.metadata.finalizers = [...(object.metadata.finalizers ?? []), name];
  return true;
}

/**
 * Removes every occurrence of the finalizer `name` from `object` in place. Returns whether
 * the object changed. Other finalizers and their order are kept; an emptied list stays as
 * `[]` (the API server stores it as absent).
 *
 * @throws {FinalizerError} `InvalidFinalizer` when `name` is not a qualified name (it could
 *   never have been added, so this is a typo); the object is unchanged.
 */
export function removeFinalizer(object: KubernetesObject, name: string): boolean {
  checkFinalizerName(name);
  const finalizers = object.metadata?.finalizers;
  if (object.metadata === undefined || finalizers === undefined || !finalizers.includes(name)) {
    return false;
  }
  object.metadata.finalizers = finalizers.filter((finalizer) => finalizer !== name);
  return true;
}

/**
 * A JSON patch that adds the finalizer `name` to the stored object, guarded against
 * concurrent writers; `[]` when `object` already has it (send nothing).
 *
 * - When `object` has finalizers: `test` that the list is exactly what was read, then
 *   `add` `name` at its end (`/metadata/finalizers/-`). A concurrent change of the list
 *   makes the `test` fail, so a finalizer another controller just added is never lost and
 *   `name` is never added twice.
 * - When it has none: JSON Patch cannot test that a member is absent, so the patch `test`s
 *   `metadata.resourceVersion` (any write changes it) and then `add`s the list `[name]`.
 *
 * Does not modify `object`.
 *
 * @throws {FinalizerError} `InvalidFinalizer` for a bad name; `ObjectDeleting` when `object`
 *   has a `deletionTimestamp`; `MissingResourceVersion` when a `resourceVersion` test is
 *   needed (no finalizers yet, or `testResourceVersion`) and `object` has none.
 */
export function addFinalizerPatch(
  object: KubernetesObject,
  name: string,
  options: FinalizerPatchOptions = {},
): FinalizerPatchOperation[] {
  checkFinalizerName(name);
  if (hasFinalizer(object, name)) return [];
  if (object.metadata?.deletionTimestamp) {
    throw new FinalizerError(
      'ObjectDeleting',
      `cannot add finalizer "${name}" to ${describe(object)}: it is being deleted (metadata.deletionTimestamp is set) and the API server forbids new finalizers then; run cleanup instead of adding the finalizer`,
      name,
    );
  }
  const finalizers = object.metadata?.finalizers ?? [];
  if (finalizers.length === 0) {
    // The API server omits an empty list, so `test` of `[]` would never pass: guard on the
    // resourceVersion instead, which any concurrent write (adding a finalizer too) changes.
    return [
      resourceVersionTest(object, name, 'guards adding the first finalizer'),
      { op: 'add', path: finalizersPath, value: [name] },
    ];
  }
  return [
    ...(options.testResourceVersion
      ? [resourceVersionTest(object, name, 'testResourceVersion asked to test')]
      : []),
    { op: 'test', path: finalizersPath, value: [...finalizers] },
    { op: 'add', path: `${finalizersPath}/-`, value: name },
  ];
}

/**
 * A JSON patch that removes every occurrence of the finalizer `name` from the stored object,
 * guarded against concurrent writers; `[]` when `object` does not have it (send nothing).
 *
 * Finalizers are removed by index, so each `remove` is preceded by a `test` that the element
 * at that index is still `name` (kube-rs's approach); indexes are handled from the last to the
 * first so that earlier ones stay valid. If a concurrent writer reordered or removed entries
 * so that the index moved, the `test` fails and nothing is removed; entries appended
 * concurrently do not disturb it.
 *
 * Does not modify `object`.
 *
 * @throws {FinalizerError} `InvalidFinalizer` for a bad name; `MissingResourceVersion` when
 *   `testResourceVersion` is set and `object` has no `resourceVersion`.
 */
export function removeFinalizerPatch(
  object: KubernetesObject,
  name: string,
  options: FinalizerPatchOptions = {},
): FinalizerPatchOperation[] {
  checkFinalizerName(name);
  const finalizers = object.metadata?.finalizers ?? [];
  const operations: FinalizerPatchOperation[] = [];
  for (let index = finalizers.length - 1; index >= 0; index--) {
    if (finalizers[index] !== name) continue;
    const path = `${finalizersPath}/${index}`;
    operations.push({ op: 'test', path, value: name }, { op: 'remove', path });
  }
  if (operations.length === 0) return [];
  if (options.testResourceVersion) {
    operations.unshift(resourceVersionTest(object, name, 'testResourceVersion asked to test'));
  }
  return operations;
}
