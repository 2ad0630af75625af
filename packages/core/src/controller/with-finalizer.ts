import type { KubernetesObject } from '@ops/api';
import { ignoreNotFound, isConflict, isInvalid } from '../client/api-error-helpers.js';
import type { CallOptions, Client } from '../client/client.js';
import { retryOnError } from '../client/retry-on-conflict.js';
import {
  addFinalizerPatch,
  checkFinalizerName,
  hasFinalizer,
  removeFinalizerPatch,
} from '../meta/finalizers.js';
import type { Result } from './reconcile.js';

/** What {@link withFinalizer} needs of a client: reading the object again, and patching it. */
export type FinalizerClient = Pick<Client, 'get' | 'patch'>;

// biome-ignore lint/suspicious/noConfusingVoidType: handlers written as `async () => {}` return Promise<void>
type HandlerOutput = Result | undefined | void;

/** The two halves of a reconciler that owns a finalizer; see {@link withFinalizer}. */
export interface FinalizerHandlers<T extends KubernetesObject> {
  /**
   * Drives the live object to its desired state; called once the finalizer is stored, with
   * the object as stored. Its result is the reconcile's.
   */
  apply(object: T): Promise<HandlerOutput> | HandlerOutput;
  /**
   * Releases what the object holds once it is being deleted. Resolve with nothing (or a
   * result without requeue) when cleanup is complete: the finalizer is then removed and the
   * API server deletes the object. Resolve with `{ requeue: true }` or `{ requeueAfterMs }`
   * while cleanup is still under way: the finalizer stays and the reconcile comes back.
   * Throw to retry with backoff. Must be idempotent: it may run several times.
   */
  cleanup(object: T): Promise<HandlerOutput> | HandlerOutput;
}

const rejectedGuard = (error: unknown): boolean => isConflict(error) || isInvalid(error);

/**
 * Runs a reconcile of `object` that owns the finalizer `finalizer` (kube-rs's `finalizer`,
 * controller-runtime's finalizer pattern in one call):
 *
 * - the object is alive and lacks the finalizer: adds it, then calls `apply` with the
 *   object as stored, so cleanup is guaranteed to run for whatever `apply` creates;
 * - the object is alive and has it: calls `apply`;
 * - the object is being deleted and has it: calls `cleanup`; once cleanup reports it is
 *   complete, removes the finalizer;
 * - the object is being deleted without it: does nothing (it is not ours to hold).
 *
 * The finalizer is added and removed with guarded JSON patches (`addFinalizerPatch`,
 * `removeFinalizerPatch`): other controllers' finalizers are never overwritten. When a
 * concurrent writer made the guard fail (409 Conflict or 422 on a failed `test`), the object
 * is read again and the patch rebuilt, up to 5 attempts. An object that disappears meanwhile
 * ends the reconcile quietly.
 *
 * Resolves with the handler's result; `{ requeue: true }` when the object started being
 * deleted while the finalizer was being added (the next reconcile runs `cleanup`).
 * `options.signal` (a reconcile's `signal`) aborts the reads, the patches and the waits
 * between attempts; the handlers get their own signal from the reconcile.
 *
 * @throws {FinalizerError} `InvalidFinalizer` when `finalizer` is not a qualified name.
 * @throws {ApiError} from the reads and patches; whatever the handlers throw.
 */
export async function withFinalizer<T extends KubernetesObject>(
  client: FinalizerClient,
  object: T,
  finalizer: string,
  handlers: FinalizerHandlers<T>,
  options: CallOptions = {},
): Promise<Result | undefined> {
  checkFinalizerName(finalizer);
  if (object.metadata?.deletionTimestamp) {
    if (!hasFinalizer(object, finalizer)) return undefined;
    const result = (await handlers.cleanup(object)) ?? undefined;
    if (result?.requeue || result?.requeueAfterMs !== undefined) return result;
    await patchGuarded(
      client,
      object,
      (current) => removeFinalizerPatch(current, finalizer),
      options,
    );
    return result;
  }
  let live: T | undefined = object;
  if (!hasFinalizer(object, finalizer)) {
    live = await patchGuarded(
      client,
      object,
      (current) =>
        current.metadata?.deletionTimestamp ? undefined : addFinalizerPatch(current, finalizer),
      options,
    );
    if (live === undefined) return undefined;
    if (live.metadata?.deletionTimestamp) return { requeue: true };
  }
  return (await handlers.apply(live)) ?? undefined;
}

/**
 * Sends the patch `build` makes of the object, reading it again and rebuilding the patch when
 * a guard failed. Resolves with the object as stored; `undefined` when it is gone. `build`
 * returns `[]` when nothing needs sending and `undefined` to stop (the object as read then).
 */
async function patchGuarded<T extends KubernetesObject>(
  client: FinalizerClient,
  object: T,
  build: (current: T) => ReturnType<typeof addFinalizerPatch> | undefined,
  options: CallOptions,
): Promise<T | undefined> {
  const call: CallOptions = options.signal ? { signal: options.signal } : {};
  let current: T | undefined = object;
  let first = true;
  return retryOnError(
    rejectedGuard,
    async () => {
      if (!first) current = await ignoreNotFound(client.get<T>(object, call));
      first = false;
      if (current === undefined) return undefined;
      const patch = build(current);
      if (patch === undefined || patch.length === 0) return current;
      return ignoreNotFound(client.patch(current, patch, 'json', call));
    },
    call,
  );
}
