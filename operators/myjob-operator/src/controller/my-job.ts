import {
  type EventRecorder,
  ignoreNotFound,
  isAlreadyExists,
  isControlledBy,
  type PolicyRule,
  pods,
  type Reader,
  type ReconcileContext,
  type Request,
  type Result,
  type StatusWriter,
  setCondition,
  type Writer,
} from '@ops/core';
import { type MyJob, myJobResource } from '../api/v1/my-job.js';
import { type MyJobDecision, nextMyJobStatus } from './next-my-job-status.js';
import { podForMyJob } from './pod-for-my-job.js';

/**
 * The permissions this controller uses, declared next to it (what kubebuilder's rbac markers
 * do). `pnpm run manifests` turns them into config/rbac/role.yaml; the end-to-end test runs
 * the controller under exactly that role, so a missing rule fails it with the real 403.
 * Reads come from the informer cache (list + watch); `get` on Pods is the live read that tells
 * a deleted Pod from one the cache has not seen yet. Pods are never deleted or updated.
 */
export const myJobRbac: PolicyRule[] = [
  { apiGroups: ['myjob.github.com'], resources: ['myjobs'], verbs: ['list', 'watch'] },
  { apiGroups: ['myjob.github.com'], resources: ['myjobs/status'], verbs: ['patch'] },
  { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch', 'create'] },
  { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
];

/** The reconciler's collaborators, passed in so tests can give their own. */
export interface MyJobReconcilerDeps {
  /** Reads from the informer cache, writes to the API server. */
  client: Reader & Writer & StatusWriter;
  /** Reads from the API server itself (controller-runtime's APIReader). */
  apiReader: Reader;
  recorder: EventRecorder;
  now?: () => Date;
}

/** The Event of a phase change: reason and message. */
function transitionEvent(decision: MyJobDecision, name: string): [string, string] {
  if (decision.phase === 'pending') return ['Pending', `MyJob ${name} is pending`];
  if (decision.phase === 'running') return ['Running', `Pod ${name} is running`];
  return ['Completed', decision.condition.message];
}

/**
 * Reconciles one MyJob, level-based, with the decisions of {@link nextMyJobStatus}: creates
 * its Pod once, follows it to `running` and `completed`, and records how it ended. Never
 * adopts, updates or deletes a Pod; never creates a second one (a MyJob whose Pod was
 * created, `status.podUID`, and is gone is completed, after a live read confirms the Pod is
 * really gone). Emits an Event for each phase change and for a Pod name conflict. No write is
 * made when nothing needs changing.
 */
export function myJobReconciler(deps: MyJobReconcilerDeps) {
  const { client, apiReader, recorder } = deps;
  const now = deps.now ?? (() => new Date());
  return async (
    request: Request,
    { log, signal }: ReconcileContext,
  ): Promise<Result | undefined> => {
    const myJob = await ignoreNotFound(client.get(myJobResource, request.name, request.namespace));
    if (myJob === undefined || myJob.metadata.deletionTimestamp) return undefined;
    let pod =
      myJob.status?.phase === 'completed'
        ? undefined
        : await ignoreNotFound(client.get(pods, request.name, request.namespace));
    // A Pod this MyJob made that the cache does not hold: deleted, or not seen yet?
    if (!pod && myJob.status?.podUID && myJob.status.phase !== 'completed') {
      pod = await ignoreNotFound(apiReader.get(pods, request.name, request.namespace, { signal }));
    }
    const owned = pod !== undefined && isControlledBy(pod, myJob);
    let decision = nextMyJobStatus({ myJob, pod, owned, now: now() });
    if (decision.createPod) {
      try {
        const created = await client.create(podForMyJob(myJob), { signal });
        log.info({ pod: request.name }, 'created the Pod');
        recorder.event(myJob, 'Normal', 'CreatedPod', `Created Pod ${request.name}`);
        decision = nextMyJobStatus({ myJob, pod: created, owned: true, now: now() });
      } catch (error) {
        // Created a moment ago, or by someone else: the Pod's watch event brings it.
        if (!isAlreadyExists(error)) throw error;
        log.info({ pod: request.name }, 'the Pod exists already; waiting for it in the cache');
        return { requeueAfterMs: 1000 };
      }
    }
    if (await writeStatus(client, myJob, decision, now)) {
      const previous = myJob.status?.phase;
      if (decision.condition.reason === 'PodConflict') {
        recorder.event(myJob, 'Warning', 'PodConflict', decision.condition.message);
        log.warn({ pod: request.name }, 'a Pod of that name is not ours; leaving it alone');
      } else if (previous !== decision.phase) {
        const [reason, message] = transitionEvent(decision, request.name);
        recorder.event(myJob, 'Normal', reason, message);
      }
      log.info({ from: previous, phase: decision.phase }, 'updated the status');
    }
    return undefined;
  };
}

/** Patches the status to the decision's when anything differs; true when it wrote. */
async function writeStatus(
  client: StatusWriter,
  myJob: MyJob,
  decision: MyJobDecision,
  now: () => Date,
): Promise<boolean> {
  const next = structuredClone(myJob);
  const completedChanged = setCondition(
    next,
    { type: 'Completed', ...decision.condition },
    { now },
  );
  const readyChanged = setCondition(next, { type: 'Ready', ...decision.ready }, { now });
  const conditionChanged = completedChanged || readyChanged;
  const status = myJob.status ?? {};
  const generation = myJob.metadata.generation;
  const desired = { phase: decision.phase, observedGeneration: generation, ...decision.pod };
  const same = Object.entries(desired).every(
    ([key, value]) =>
      JSON.stringify(value) === JSON.stringify((status as Record<string, unknown>)[key]),
  );
  if (same && !conditionChanged) return false;
  await client.patchStatus(
    myJob,
    { status: { ...desired, conditions: next.status?.conditions } },
    'merge',
  );
  return true;
}
