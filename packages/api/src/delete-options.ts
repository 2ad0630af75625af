/**
 * `meta/v1` `DeleteOptions`: the object a client may send as the body of a DELETE (and of a
 * DeleteCollection or an Eviction) to say how the object is to be deleted.
 */

/** What happens to an object's dependents when it is deleted (`DeletionPropagation`). */
export type DeletionPropagation = 'Foreground' | 'Background' | 'Orphan';

/** Conditions the object must still meet for the delete to go ahead, or it fails with a Conflict. */
export interface Preconditions {
  /** The object's uid: guards against deleting an object recreated under the same name. */
  uid?: string;
  /** The object's resourceVersion: guards against deleting an object changed since it was read. */
  resourceVersion?: string;
}

/** The `DeleteOptions` body of a DELETE; every field is optional. */
export interface DeleteOptions {
  /** `v1` or `meta.k8s.io/v1` (any group version the API server registers it in). */
  apiVersion?: string;
  kind?: 'DeleteOptions';
  /** Seconds before the object is deleted; `0` deletes it at once. Default: the kind's own. */
  gracePeriodSeconds?: number;
  preconditions?: Preconditions;
  /** Deprecated by the API in favour of {@link propagationPolicy}: `true` means `Orphan`. */
  orphanDependents?: boolean;
  /** Foreground, Background (most kinds' default) or Orphan. */
  propagationPolicy?: DeletionPropagation;
  /** `['All']` admits the delete without performing it. */
  dryRun?: string[];
}
