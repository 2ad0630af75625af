import {
  type EventRecorder,
  ignoreNotFound,
  type PolicyRule,
  type Reader,
  type ReconcileContext,
  type Request,
  type Result,
  type StatusWriter,
  setCondition,
} from '@ops/core';
import { sidecarSetResource } from '../api/v1alpha1/sidecar-set.js';
import { sidecarSetSelector } from '../api/v1alpha1/sidecar-set-selector.js';
import { type PodIndexReader, podsSelectedBy } from './pod-label-index.js';
import { countPods, readyCondition } from './sidecar-set-status.js';

/**
 * The permissions the controller uses, declared next to it (kubebuilder's rbac markers);
 * `pnpm run manifests` turns them into config/rbac/role.yaml and the end-to-end tests run
 * the operator under exactly that role. Reads come from the informer cache (list + watch),
 * so no `get`; Pods are only read (the webhook changes them during admission, which needs
 * no permission).
 */
export const sidecarSetRbac: PolicyRule[] = [
  { apiGroups: ['apps.chinalhr.github.io'], resources: ['sidecarsets'], verbs: ['list', 'watch'] },
  { apiGroups: ['apps.chinalhr.github.io'], resources: ['sidecarsets/status'], verbs: ['patch'] },
  { apiGroups: [''], resources: ['pods'], verbs: ['list', 'watch'] },
  { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
];

/** The reconciler's collaborators, passed in so tests can give their own. */
export interface SidecarSetReconcilerDeps {
  /** Reads SidecarSets from the informer cache; writes their status. */
  client: Reader & StatusWriter;
  /** The Pod informer, with the label index ({@link podsSelectedBy}). */
  pods: PodIndexReader;
  recorder: EventRecorder;
  now?: () => Date;
}

/**
 * Reconciles one SidecarSet, level-based: counts the Pods its selector matches now (through
 * the Pod label index, not a scan), and makes `status` say so: `matchedPods`, `updatedPods`,
 * `readyPods` ({@link countPods}), `observedGeneration`, and the `Ready` condition
 * ({@link readyCondition}). A change of the condition's reason is recorded as an Event
 * (Warning for `PodsNotUpdated`). No write is made when nothing changed, so a SidecarSet at
 * rest costs no request. Errors (a failed status patch) are returned and requeued.
 */
export function sidecarSetReconciler(deps: SidecarSetReconcilerDeps) {
  const { client, pods, recorder } = deps;
  const now = deps.now ?? (() => new Date());
  return async (request: Request, { log }: ReconcileContext): Promise<Result | undefined> => {
    const sidecarSet = await ignoreNotFound(client.get(sidecarSetResource, request.name));
    if (sidecarSet === undefined || sidecarSet.metadata.deletionTimestamp) return undefined;
    let selected: ReturnType<typeof podsSelectedBy> = [];
    try {
      selected = podsSelectedBy(sidecarSetSelector(sidecarSet), pods);
    } catch (error) {
      // An invalid selector (stored before the validating webhook) selects nothing.
      log.info({ err: error }, 'the selector is invalid: no Pod matches it');
    }
    const counts = countPods(sidecarSet, selected);
    const generation = sidecarSet.metadata.generation ?? 0;
    const condition = readyCondition(counts);
    const next = structuredClone(sidecarSet);
    const before = next.status?.conditions?.find((c) => c.type === 'Ready')?.reason;
    const conditionChanged = setCondition(next, condition, { now });
    const status = sidecarSet.status;
    if (
      !conditionChanged &&
      status?.observedGeneration === generation &&
      status.matchedPods === counts.matchedPods &&
      status.updatedPods === counts.updatedPods &&
      status.readyPods === counts.readyPods
    )
      return undefined;
    await client.patchStatus(
      sidecarSet,
      {
        status: { observedGeneration: generation, ...counts, conditions: next.status?.conditions },
      },
      'merge',
    );
    log.info({ ...counts, reason: condition.reason }, 'updated the status');
    if (before !== condition.reason)
      recorder.event(
        sidecarSet,
        condition.status === 'True' ? 'Normal' : 'Warning',
        condition.reason,
        condition.message,
      );
    return undefined;
  };
}
