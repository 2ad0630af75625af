import {
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

/**
 * The permissions this controller uses, declared next to it (what kubebuilder's rbac markers
 * do). `pnpm run manifests` turns them into config/rbac/role.yaml; the end-to-end test runs
 * the controller under exactly that role, so a missing rule fails it with the real 403.
 * Reads come from the informer cache (list + watch), so no `get`.
 */
export const sidecarSetRbac: PolicyRule[] = [
  { apiGroups: ['apps.chinalhr.github.io'], resources: ['sidecarsets'], verbs: ['list', 'watch'] },
  { apiGroups: ['apps.chinalhr.github.io'], resources: ['sidecarsets/status'], verbs: ['patch'] },
];

/** The reconciler's collaborators, passed in so tests can give their own. */
export interface SidecarSetReconcilerDeps {
  client: Reader & StatusWriter;
  now?: () => Date;
}

/**
 * Reconciles one SidecarSet, level-based: whatever woke it up, it makes the status say that the
 * current spec has been seen: `status.observedGeneration` = `metadata.generation`, and a
 * `Ready` condition (status True, reason `Reconciled`) whose message quotes `spec.message`.
 * No write is made when nothing needs changing. Replace the body with your operator's work
 * (create or update what the SidecarSet describes, then report it in the condition).
 */
export function sidecarSetReconciler(deps: SidecarSetReconcilerDeps) {
  const { client } = deps;
  const now = deps.now ?? (() => new Date());
  return async (request: Request, { log }: ReconcileContext): Promise<Result | undefined> => {
    const object = await ignoreNotFound(
      client.get(sidecarSetResource, request.name, request.namespace),
    );
    if (object === undefined || object.metadata.deletionTimestamp) return undefined;
    const generation = object.metadata.generation ?? 0;
    const next = structuredClone(object);
    const changed = setCondition(
      next,
      {
        type: 'Ready',
        status: 'True',
        reason: 'Reconciled',
        message: `observed spec.message ${JSON.stringify(object.spec.message)}`,
      },
      { now },
    );
    if (!changed && object.status?.observedGeneration === generation) return undefined;
    await client.patchStatus(
      object,
      { status: { observedGeneration: generation, conditions: next.status?.conditions } },
      'merge',
    );
    log.info({ generation }, 'updated the status');
    return undefined;
  };
}
