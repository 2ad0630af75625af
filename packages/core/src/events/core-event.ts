/**
 * The shapes of Kubernetes Events (`core/v1` `Event`) as the {@link EventRecorder} writes
 * them, and the sink it writes them through.
 */

/** `Normal` for information, `Warning` for something that may need attention. */
export type EventType = 'Normal' | 'Warning';

/** The object an Event is about (`involvedObject`). */
export interface EventObjectReference {
  apiVersion?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
}

/** A `core/v1` Event as sent to the API server (plain JSON, times as RFC 3339). */
export interface CoreEvent {
  apiVersion: 'v1';
  kind: 'Event';
  metadata: { name: string; namespace: string };
  involvedObject: EventObjectReference;
  reason: string;
  message: string;
  type: EventType;
  source: { component: string; host?: string };
  reportingComponent: string;
  reportingInstance: string;
  firstTimestamp: string;
  lastTimestamp: string;
  count: number;
}

/**
 * The fields of a repeated Event that change: sent as a JSON merge patch
 * (`application/merge-patch+json`; a strategic merge patch of it means the same).
 */
export interface EventPatch {
  count: number;
  lastTimestamp: string;
  message: string;
}

/**
 * Where the {@link EventRecorder} writes Events: the part of a Kubernetes client it needs,
 * so that any client (or a fake in tests) can be plugged in.
 *
 * - `create` POSTs the Event to `/api/v1/namespaces/<metadata.namespace>/events`.
 * - `patch`, when present, PATCHes the Event `namespace/name` with `patch` as a JSON merge
 *   patch; it is how repeats update `count` and `lastTimestamp` of the Event already written.
 *   Without it, a repeat is written as a new Event carrying the accumulated count.
 *
 * Both reject when the API server refuses; the recorder logs that and moves on.
 */
export interface EventSink {
  create(event: CoreEvent): Promise<unknown>;
  patch?(namespace: string, name: string, patch: EventPatch): Promise<unknown>;
}
