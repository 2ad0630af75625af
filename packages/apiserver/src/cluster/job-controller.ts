import type { KubernetesObject } from '@ops/api';
import { formatRfc3339Seconds, jsonEqual, setBuiltInCondition } from '@ops/api';
import { type Json, numberOr, objectOr, objectsOf } from '../json/json.js';
import type { StoreEvent } from '../store/object-store.js';
import { conditionOf, isPodReady, isPodTerminal } from './conditions.js';
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
import { comparePodsForDeletion } from './replica-set-controller.js';

/** The reasons and messages of a Job's terminal conditions, as kube's Job controller writes them. */
const outcomes = {
  completed: { reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' },
  backoff: {
    reason: 'BackoffLimitExceeded',
    message: 'Job has reached the specified backoff limit',
  },
  deadline: {
    reason: 'DeadlineExceeded',
    message: 'Job was active longer than specified deadline',
  },
} as const;

const isTrue = (job: KubernetesObject, type: string): boolean =>
  conditionOf(job, type)?.status === 'True';

/** Whether a Job is finished: its `Complete` or `Failed` condition is True. */
export function isJobFinished(job: KubernetesObject): boolean {
  return isTrue(job, 'Complete') || isTrue(job, 'Failed');
}

/**
 * The Job controller of kube-controller-manager (batch/v1, `NonIndexed` completion mode):
 *
 * - Keeps up to `parallelism` active Pods (not terminal, not being deleted) controlled by the
 *   Job, created from `spec.template` (generateName `<job>-`, the template's labels, which the
 *   server fills with the Job's `batch.kubernetes.io/controller-uid`, `.../job-name`,
 *   `controller-uid` and `job-name`, and a controller owner reference), never more than the
 *   completions still missing; with `completions` unset, none once one Pod succeeded.
 * - Counts `succeeded` and `failed` from its Pods that ended (counts never go down when a
 *   finished Pod is deleted), `active`, `ready` and `terminating`; sets `startTime` on its
 *   first sync.
 * - Finishes as kube 1.31+ does, in two steps: `SuccessCriteriaMet` (reason
 *   `CompletionsReached`) once `succeeded` reaches `completions` (unset: one Pod succeeded and
 *   none active), or `FailureTarget` once `failed` exceeds `backoffLimit` (reason
 *   `BackoffLimitExceeded`) or `activeDeadlineSeconds` has passed (`DeadlineExceeded`); then
 *   deletes its remaining active Pods and, once none is terminating, adds `Complete` (with
 *   `completionTime`) or `Failed`.
 * - A finished Job is never written again, nor are its Pods touched.
 *
 * Not simulated: Pod tracking finalizers (a Pod deleted before it ended is replaced, not
 * counted as failed), the back-off delay before replacing a failed Pod (replaced at once),
 * `Indexed` completion mode, `suspend`, `podFailurePolicy`, `successPolicy` and
 * `ttlSecondsAfterFinished`. Keys are `namespace/name` of Jobs.
 */
export class JobController implements Controller {
  readonly name = 'job';

  constructor(private readonly client: ControllerClient) {}

  initialKeys(): string[] {
    return this.client.list('batch', 'jobs').flatMap((job) => namespacedKey(job) ?? []);
  }

  keysFor(resource: string, event: StoreEvent): string[] {
    if (resource === 'batch/jobs') return event.type === 'DELETED' ? [] : [event.current.key];
    if (resource !== '/pods') return [];
    return controllerKeys(event.current.object, event.previous?.object, 'Job');
  }

  async reconcile(key: string): Promise<ReconcileResult | undefined> {
    const { namespace, name } = splitKey(key);
    const job = this.client.get('batch', 'jobs', namespace, name);
    if (job === undefined || isJobFinished(job) || job.metadata?.deletionTimestamp !== undefined)
      return undefined;
    const now = new Date();
    const at = formatRfc3339Seconds(now);
    const spec = specOf(job);
    const old = statusOf(job);
    let counts = this.count(job);
    const succeeded = Math.max(numberOr(old.succeeded, 0), counts.succeeded);
    const failed = Math.max(numberOr(old.failed, 0), counts.failed);
    const startTime = typeof old.startTime === 'string' ? old.startTime : at;
    let conditions = objectsOf(old.conditions);
    let recheck: number | undefined;

    const completions = typeof spec.completions === 'number' ? spec.completions : undefined;
    const parallelism = Math.max(0, numberOr(spec.parallelism, 1));
    const deadline = numberOr(spec.activeDeadlineSeconds, 0);
    if (!isTrue(job, 'FailureTarget') && !isTrue(job, 'SuccessCriteriaMet')) {
      const leftMs = deadline > 0 ? Date.parse(startTime) + deadline * 1000 - now.getTime() : 1;
      const failure =
        failed > numberOr(spec.backoffLimit, 6)
          ? outcomes.backoff
          : leftMs <= 0
            ? outcomes.deadline
            : undefined;
      const success =
        completions === undefined
          ? succeeded > 0 && counts.active.length === 0
          : succeeded >= completions;
      if (failure !== undefined)
        conditions = setBuiltInCondition(
          conditions,
          { type: 'FailureTarget', status: 'True', ...failure },
          { now: at },
        );
      else if (success)
        conditions = setBuiltInCondition(
          conditions,
          { type: 'SuccessCriteriaMet', status: 'True', ...outcomes.completed },
          { now: at },
        );
      else {
        if (deadline > 0) recheck = leftMs + 5;
        const wanted =
          completions === undefined
            ? succeeded > 0
              ? counts.active.length
              : parallelism
            : Math.min(parallelism, completions - succeeded);
        if (await this.scale(job, counts.active, wanted)) counts = this.count(job);
      }
    }
    const finishing = isTrue({ status: { conditions } }, 'SuccessCriteriaMet')
      ? 'Complete'
      : isTrue({ status: { conditions } }, 'FailureTarget')
        ? 'Failed'
        : undefined;
    let completionTime: string | undefined;
    if (finishing !== undefined) {
      if (await this.scale(job, counts.active, 0)) counts = this.count(job);
      if (counts.active.length === 0 && counts.terminating === 0) {
        const cause = objectOr(
          conditions.find(
            (c) => c.type === (finishing === 'Complete' ? 'SuccessCriteriaMet' : 'FailureTarget'),
          ),
        );
        conditions = setBuiltInCondition(
          conditions,
          {
            type: finishing,
            status: 'True',
            reason: String(cause.reason ?? ''),
            message: String(cause.message ?? ''),
          },
          { now: at },
        );
        if (finishing === 'Complete') completionTime = at;
        recheck = undefined;
      }
    }

    const status: Json = {
      ...old,
      startTime,
      active: counts.active.length,
      ready: counts.active.filter(isPodReady).length,
      terminating: counts.terminating,
      // kube's controller records Pods here until their tracking finalizer is removed; none
      // are tracked with finalizers here, so it stays empty, as kube's once settled.
      uncountedTerminatedPods: {},
      succeeded,
      failed,
    };
    if (conditions.length > 0) status.conditions = conditions;
    if (completionTime !== undefined) status.completionTime = completionTime;
    for (const field of ['active', 'succeeded', 'failed'] as const)
      if (status[field] === 0) delete status[field];
    if (!jsonEqual(status, old)) {
      const current = this.client.get('batch', 'jobs', namespace, name) ?? job;
      await this.client.update('batch', 'jobs', { ...structuredClone(current), status }, 'status');
    }
    return recheck === undefined ? undefined : { requeueAfterMs: recheck };
  }

  /**
   * The Job's Pods now: active (not ended, not being deleted), terminating (being deleted,
   * not ended) and how many of the others ended Succeeded or Failed.
   */
  private count(job: KubernetesObject): {
    active: KubernetesObject[];
    terminating: number;
    succeeded: number;
    failed: number;
  } {
    const uid = job.metadata?.uid;
    const counts = { active: [] as KubernetesObject[], terminating: 0, succeeded: 0, failed: 0 };
    for (const pod of this.client.listControlledBy(
      '',
      'pods',
      job.metadata?.namespace ?? '',
      uid ?? '',
    )) {
      if (controllerUid(pod, 'Job') !== uid) continue;
      const deleting = pod.metadata?.deletionTimestamp !== undefined;
      if (!isPodTerminal(pod)) {
        if (deleting) counts.terminating++;
        else counts.active.push(pod);
      } else if (!deleting) {
        if (statusOf(pod).phase === 'Succeeded') counts.succeeded++;
        else counts.failed++;
      }
    }
    return counts;
  }

  /** Creates or deletes active Pods until there are `wanted`; whether it wrote any. */
  private async scale(
    job: KubernetesObject,
    active: readonly KubernetesObject[],
    wanted: number,
  ): Promise<boolean> {
    const namespace = job.metadata?.namespace ?? '';
    for (let i = active.length; i < wanted; i++)
      await this.client.create('', 'pods', namespace, podFromTemplate(job));
    const victims = [...active]
      .sort(comparePodsForDeletion)
      .slice(0, Math.max(0, active.length - wanted));
    for (const pod of victims) {
      await this.client.delete('', 'pods', namespace, pod.metadata?.name ?? '', {
        preconditions: { uid: pod.metadata?.uid ?? '' },
      });
    }
    return active.length !== wanted;
  }
}
