import type { KubernetesObject } from '@ops/api';
import {
  type BuiltInConditionInput,
  formatRfc3339Seconds,
  jsonEqual,
  setBuiltInCondition,
} from '@ops/api';
import { objectOr, objectsOf } from '../json/json.js';
import type { StoreEvent } from '../store/object-store.js';
import { isPodTerminal } from './conditions.js';
import type { Controller } from './controller.js';
import type { ControllerClient } from './controller-client.js';
import { namespacedKey, specOf, splitKey, statusOf } from './object-fields.js';
import type { ReconcileResult } from './reconcile-loop.js';

/** Whether a Pod is waiting for the default scheduler: no node, not ending, not being deleted. */
export function awaitsScheduling(pod: KubernetesObject): boolean {
  const spec = specOf(pod);
  return (
    !spec.nodeName &&
    (spec.schedulerName === undefined || spec.schedulerName === 'default-scheduler') &&
    pod.metadata?.deletionTimestamp === undefined &&
    !isPodTerminal(pod)
  );
}

/**
 * kube-scheduler for a one-node cluster: binds every Pod of the default scheduler without a
 * `spec.nodeName` to the node (an update of `spec.nodeName`, then the `PodScheduled`
 * condition), unless the Pod's `nodeSelector` does not match the node's labels or the node
 * is unschedulable or missing, in which case the Pod gets `PodScheduled` False, reason
 * `Unschedulable`, and waits for the node to change. Affinity, taints, tolerations and
 * resources are not considered. Keys are `namespace/name` of Pods.
 */
export class Scheduler implements Controller {
  readonly name = 'scheduler';

  constructor(
    private readonly client: ControllerClient,
    private readonly nodeName: string,
  ) {}

  initialKeys(): string[] {
    return this.client
      .list('', 'pods')
      .filter(awaitsScheduling)
      .flatMap((pod) => namespacedKey(pod) ?? []);
  }

  keysFor(resource: string, event: StoreEvent): string[] {
    if (resource === '/pods')
      return event.type !== 'DELETED' && awaitsScheduling(event.current.object)
        ? [event.current.key]
        : [];
    if (resource === '/nodes' && event.current.key === this.nodeName) return this.initialKeys();
    return [];
  }

  async reconcile(key: string): Promise<ReconcileResult | undefined> {
    const { namespace, name } = splitKey(key);
    const pod = this.client.get('', 'pods', namespace, name);
    if (pod === undefined || !awaitsScheduling(pod)) return undefined;
    const problem = this.unschedulableBecause(pod);
    if (problem !== undefined) {
      await this.setScheduled(pod, {
        type: 'PodScheduled',
        status: 'False',
        reason: 'Unschedulable',
        message: problem,
      });
      return undefined;
    }
    const bound = structuredClone(pod);
    bound.spec = { ...specOf(pod), nodeName: this.nodeName };
    const updated = await this.client.update('', 'pods', bound);
    await this.setScheduled(updated, { type: 'PodScheduled', status: 'True' });
    return undefined;
  }

  private unschedulableBecause(pod: KubernetesObject): string | undefined {
    const node = this.client.get('', 'nodes', '', this.nodeName);
    if (node === undefined) return 'no nodes available to schedule pods';
    if (specOf(node).unschedulable === true)
      return '0/1 nodes are available: 1 node(s) were unschedulable. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.';
    const selector = objectOr(specOf(pod).nodeSelector);
    const labels = node.metadata?.labels ?? {};
    if (Object.entries(selector).some(([k, v]) => labels[k] !== v)) {
      return "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.";
    }
    return undefined;
  }

  private async setScheduled(
    pod: KubernetesObject,
    condition: BuiltInConditionInput,
  ): Promise<void> {
    const old = statusOf(pod);
    const conditions = setBuiltInCondition(objectsOf(old.conditions), condition, {
      now: formatRfc3339Seconds(new Date()),
    });
    if (jsonEqual(conditions, old.conditions)) return;
    const copy = structuredClone(pod);
    copy.status = { ...old, conditions };
    await this.client.update('', 'pods', copy, 'status');
  }
}
