import type { KubernetesObject } from '@ops/api';
import { formatRfc3339Seconds, jsonEqual, setBuiltInCondition } from '@ops/api';
import { StatusError } from '../api/status-error.js';
import { type Json, numberOr, objectOr, objectsOf } from '../json/json.js';
import type { StoreEvent } from '../store/object-store.js';
import { isPodActive, isPodReady, msUntilAvailable } from './conditions.js';
import type { Controller } from './controller.js';
import type { ControllerClient } from './controller-client.js';
import {
  controllerKeys,
  controllerUid,
  namespacedKey,
  specOf,
  splitKey,
  statusOf,
} from './object-fields.js';
import { podFromTemplate } from './pod-from-template.js';
import type { ReconcileResult } from './reconcile-loop.js';
import { burstReplicas, slowStartBatch } from './slow-start-batch.js';

const phaseRank: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

/**
 * Orders Pods for scale-down as kube's ReplicaSet controller does (first is deleted first):
 * unscheduled before scheduled, Pending before Unknown before Running, not ready before
 * ready, then the newest first.
 */
export function comparePodsForDeletion(a: KubernetesObject, b: KubernetesObject): number {
  const assigned = (pod: KubernetesObject) => (specOf(pod).nodeName ? 1 : 0);
  if (assigned(a) !== assigned(b)) return assigned(a) - assigned(b);
  const rank = (pod: KubernetesObject) => phaseRank[String(statusOf(pod).phase)] ?? 1;
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  const ready = (pod: KubernetesObject) => (isPodReady(pod) ? 1 : 0);
  if (ready(a) !== ready(b)) return ready(a) - ready(b);
  const created = (pod: KubernetesObject) => pod.metadata?.creationTimestamp ?? '';
  if (created(a) !== created(b)) return created(a) > created(b) ? -1 : 1;
  return (a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1;
}

/**
 * The ReplicaSet controller of kube-controller-manager: keeps `spec.replicas` active Pods
 * (not terminal, not being deleted) controlled by each ReplicaSet, creating them from the
 * template (generateName `<rs>-`, the template's labels and annotations, a controller
 * reference with `blockOwnerDeletion`) and deleting extras (see
 * {@link comparePodsForDeletion}), at most {@link burstReplicas} a sync, creating in
 * {@link slowStartBatch} batches (1, 2, 4 ...) that stop at the first failure or once the
 * ReplicaSet is gone; writes `status` (replicas, fullyLabeledReplicas,
 * readyReplicas, availableReplicas with `minReadySeconds`, observedGeneration, and a
 * `ReplicaFailure` condition while Pods cannot be created) only when it changes. A
 * ReplicaSet being deleted only gets its status updated. Orphan Pods matching the selector
 * are not adopted. Keys are `namespace/name`.
 */
export class ReplicaSetController implements Controller {
  readonly name = 'replicaset';

  constructor(private readonly client: ControllerClient) {}

  initialKeys(): string[] {
    return this.client.list('apps', 'replicasets').flatMap((rs) => namespacedKey(rs) ?? []);
  }

  keysFor(resource: string, event: StoreEvent): string[] {
    if (resource === 'apps/replicasets') return [event.current.key];
    if (resource !== '/pods') return [];
    return controllerKeys(event.current.object, event.previous?.object, 'ReplicaSet');
  }

  async reconcile(key: string): Promise<ReconcileResult | undefined> {
    const { namespace, name } = splitKey(key);
    const rs = this.client.get('apps', 'replicasets', namespace, name);
    if (rs === undefined) return undefined;
    let failure: unknown;
    if (rs.metadata?.deletionTimestamp === undefined) {
      try {
        await this.manageReplicas(rs);
      } catch (error) {
        if (StatusError.isInstance(error) && (error.code === 409 || error.code === 404))
          throw error;
        failure = error;
      }
    }
    const result = await this.updateStatus(namespace, name, failure);
    if (failure !== undefined) throw failure;
    return result;
  }

  private podsOf(rs: KubernetesObject): KubernetesObject[] {
    const uid = rs.metadata?.uid ?? '';
    return this.client
      .listControlledBy('', 'pods', rs.metadata?.namespace ?? '', uid)
      .filter((pod) => controllerUid(pod, 'ReplicaSet') === uid);
  }

  private async manageReplicas(rs: KubernetesObject): Promise<void> {
    const namespace = rs.metadata?.namespace ?? '';
    const active = this.podsOf(rs).filter(isPodActive);
    const wanted = Math.max(0, numberOr(specOf(rs).replicas, 1));
    if (active.length < wanted) {
      // kube's manageReplicas: at most burstReplicas per sync, in slow-start batches, and no
      // further batch once the ReplicaSet is gone or being deleted.
      const diff = Math.min(wanted - active.length, burstReplicas);
      const { error } = await slowStartBatch(
        diff,
        () => this.client.create('', 'pods', namespace, podFromTemplate(rs)),
        () => this.stillWanted(rs),
      );
      if (error !== undefined) throw error;
    } else if (active.length > wanted) {
      const victims = [...active]
        .sort(comparePodsForDeletion)
        .slice(0, Math.min(active.length - wanted, burstReplicas));
      for (const pod of victims) {
        await this.client.delete('', 'pods', namespace, pod.metadata?.name ?? '', {
          preconditions: { uid: pod.metadata?.uid ?? '' },
        });
      }
    }
  }

  /** Whether `rs` still exists as the same object and is not being deleted. */
  private stillWanted(rs: KubernetesObject): boolean {
    const current = this.client.get(
      'apps',
      'replicasets',
      rs.metadata?.namespace ?? '',
      rs.metadata?.name ?? '',
    );
    return current?.metadata?.uid === rs.metadata?.uid && !current?.metadata?.deletionTimestamp;
  }

  private async updateStatus(
    namespace: string,
    name: string,
    failure: unknown,
  ): Promise<ReconcileResult | undefined> {
    const rs = this.client.get('apps', 'replicasets', namespace, name);
    if (rs === undefined) return undefined;
    const spec = specOf(rs);
    const templateLabels = objectOr(objectOr(objectOr(spec.template).metadata).labels);
    const minReadySeconds = numberOr(spec.minReadySeconds, 0);
    const now = new Date();
    const active = this.podsOf(rs).filter(isPodActive);
    let fullyLabeled = 0;
    let ready = 0;
    let available = 0;
    let recheck: number | undefined;
    for (const pod of active) {
      const labels = pod.metadata?.labels ?? {};
      if (Object.entries(templateLabels).every(([k, v]) => labels[k] === v)) fullyLabeled++;
      if (isPodReady(pod)) ready++;
      const wait = msUntilAvailable(pod, minReadySeconds, now);
      if (wait === 0) available++;
      else if (wait !== undefined) recheck = Math.min(recheck ?? wait, wait);
    }
    const old = statusOf(rs);
    let conditions = objectsOf(old.conditions);
    if (failure !== undefined) {
      const message = failure instanceof Error ? failure.message : String(failure);
      conditions = setBuiltInCondition(
        conditions,
        { type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message },
        { now: formatRfc3339Seconds(now) },
      );
    } else {
      conditions = conditions.filter((condition) => condition.type !== 'ReplicaFailure');
    }
    const status: Json = { replicas: active.length };
    if (fullyLabeled > 0) status.fullyLabeledReplicas = fullyLabeled;
    if (ready > 0) status.readyReplicas = ready;
    if (available > 0) status.availableReplicas = available;
    if (rs.metadata?.generation !== undefined) status.observedGeneration = rs.metadata.generation;
    if (conditions.length > 0) status.conditions = conditions;
    if (!jsonEqual(status, old)) {
      await this.client.update('apps', 'replicasets', { ...structuredClone(rs), status }, 'status');
    }
    return recheck === undefined ? undefined : { requeueAfterMs: recheck + 5 };
  }
}
