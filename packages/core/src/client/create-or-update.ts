import type { KubernetesObject } from '@ops/api';
import { jsonEqual } from '@ops/api';
import { badRequestError } from './api-error-from-response.js';
import { isNotFound } from './api-error-helpers.js';
import type { CallOptions, Client } from './client.js';

/** What {@link createOrUpdate} did. */
export type OperationResult = 'created' | 'updated' | 'unchanged';

/** The part of a {@link Client} that {@link createOrUpdate} uses. */
export type CreateOrUpdateClient = Pick<Client, 'get' | 'create' | 'update'>;

const identity = (obj: KubernetesObject) =>
  `${obj.apiVersion ?? ''} ${obj.kind ?? ''} ${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`;

/**
 * Makes the object named by `obj` (apiVersion, kind, metadata.name and namespace) hold the
 * state `mutate` sets, like controller-runtime's `controllerutil.CreateOrUpdate`:
 *
 * 1. reads the live object (from the cache when the client has the kind cached);
 * 2. when missing, calls `mutate` on a copy of `obj` and creates it: `'created'`;
 * 3. else calls `mutate` on the live object and, only when that changed it (deep comparison
 *    of the object before and after), updates it: `'updated'`; otherwise sends nothing:
 *    `'unchanged'`.
 *
 * A reconcile that finds everything in place thus sends no write at all. `mutate` must only
 * set the fields it manages (keeping what the server defaulted), and must not change the
 * apiVersion, kind, name or namespace. `obj` itself is not changed. Resolves with the result
 * and the object as stored (the live object when unchanged). `options.signal` (a reconcile's
 * `signal`) aborts the read and the write: an aborted call rejects, and nothing is sent after.
 *
 * @throws {ApiError} from the read or the write (`Conflict` when the object changed between
 *   read and update: retry with `retryOnConflict`; `AlreadyExists` when a cached read missed a
 *   fresh object); `BadRequest` when `mutate` changed the object's identity.
 */
export async function createOrUpdate<T extends KubernetesObject>(
  client: CreateOrUpdateClient,
  obj: T,
  mutate: (obj: T) => void | Promise<void>,
  options: CallOptions = {},
): Promise<{ result: OperationResult; object: T }> {
  const call: CallOptions = options.signal ? { signal: options.signal } : {};
  const key = identity(obj);
  const checkIdentity = (changed: T) => {
    if (identity(changed) !== key) {
      throw badRequestError(
        `createOrUpdate: mutate changed the object's identity from ${key} to ${identity(changed)}; mutate may change any field but apiVersion, kind, metadata.name and metadata.namespace`,
      );
    }
  };
  let live: T;
  try {
    live = await client.get<T>(obj, call);
  } catch (error) {
    if (!isNotFound(error)) throw error;
    const desired = structuredClone(obj);
    await mutate(desired);
    checkIdentity(desired);
    return { result: 'created', object: await client.create(desired, call) };
  }
  const before = structuredClone(live);
  await mutate(live);
  checkIdentity(live);
  if (jsonEqual(before, live)) return { result: 'unchanged', object: live };
  return { result: 'updated', object: await client.update(live, call) };
}
