import type { KubernetesObject } from './kubernetes-object.js';

/** The `type` of a {@link WatchEvent}. */
export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/**
 * One event of a watch stream (`metav1.WatchEvent`), one JSON line each: the object after the
 * change (`ADDED`, `MODIFIED`), its last state (`DELETED`), a bookmark carrying only
 * `metadata.resourceVersion` (`BOOKMARK`), or a `Status` (`ERROR`, e.g. 410 Gone). A type this
 * union does not know is passed through as a string.
 */
export interface WatchEvent<T = KubernetesObject> {
  type: WatchEventType | (string & {});
  object: T;
}
