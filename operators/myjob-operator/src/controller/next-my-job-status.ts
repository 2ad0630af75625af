import type { Pod } from '@ops/core';
import type { MyJob, MyJobPhase } from '../api/v1/my-job.js';

/** The status, reason and message of one of a MyJob's conditions. */
export interface MyJobCondition {
  status: 'True' | 'False';
  reason: string;
  message: string;
}

/** What a MyJob's status should say, and what to do to get there. */
export interface MyJobDecision {
  /** Create the MyJob's Pod (it has none and never had one). */
  createPod: boolean;
  /** The phase after this step. */
  phase: MyJobPhase;
  /** The `Completed` condition: status, reason and message. */
  condition: MyJobCondition;
  /** The `Ready` condition (see {@link readyOf}): status, reason and message. */
  ready: MyJobCondition;
  /** Fields of `status` that describe the Pod (set only when known). */
  pod: {
    podPhase?: string;
    podUID?: string;
    startTime?: string;
    completionTime?: string;
    containers?: ContainerExit[];
  };
}

/** What the MyJob's status and Pod look like, as the reconciler read them. */
export interface MyJobObservation {
  myJob: MyJob;
  /** The Pod of the MyJob's name, whoever owns it; undefined when there is none. */
  pod: Pod | undefined;
  /** Whether `pod` is controlled by `myJob`. */
  owned: boolean;
  /** The current time, for a completion the Pod does not date. */
  now: Date;
}

const finishedPhases = new Set(['Succeeded', 'Failed']);

/** A container of the Pod that ended, as `status.containers` (v1) lists it. */
export interface ContainerExit {
  name: string;
  exitCode: number;
}

/** Exit codes of the Pod's terminated containers, in the Pod's order; undefined when none ended. */
function exitCodesOf(pod: Pod): ContainerExit[] | undefined {
  const codes: ContainerExit[] = [];
  for (const container of pod.status?.containerStatuses ?? []) {
    const terminated = container.state?.terminated;
    if (terminated) codes.push({ name: container.name, exitCode: terminated.exitCode });
  }
  return codes.length > 0 ? codes : undefined;
}

/** The latest `finishedAt` of the Pod's containers, if any ended. */
function finishedAtOf(pod: Pod): string | undefined {
  const times = (pod.status?.containerStatuses ?? [])
    .map((container) => container.state?.terminated?.finishedAt)
    .filter((time): time is string => time !== undefined);
  return times.sort().at(-1);
}

/**
 * The next step of a MyJob, decided from its status and its Pod alone (no I/O):
 *
 * - completed stays completed, whatever the Pod does: nothing is created again;
 * - a Pod of its name that it does not control: it stays `pending`, condition reason
 *   `PodConflict`, and nothing is created or deleted;
 * - no Pod: when the MyJob never had one (`status.podUID` unset and never `running`), create
 *   it and stay `pending`; when it had one, the Pod was deleted before it finished:
 *   `completed` with pod phase `Deleted`;
 * - its Pod Succeeded or Failed, or being deleted: `completed` (from `pending` too), with
 *   the Pod's final phase, exit codes, start time and completion time (the last container's
 *   `finishedAt`, else `now`);
 * - its Pod Running: `running`; otherwise `pending`.
 *
 * With the `Ready` condition of {@link readyOf} next to `Completed`.
 */
export function nextMyJobStatus(observation: MyJobObservation): MyJobDecision {
  const decision = nextStep(observation);
  return { ...decision, ready: readyOf(decision) };
}

/**
 * The `Ready` condition of a MyJob, for a run-to-completion resource: ready means it ran
 * to success. While it has not finished it is False, reason `Pending` (its Pod is made or not
 * running yet) or `Running`; `PodConflict` while a Pod of its name is not its own. Once
 * completed it is True, reason `Succeeded`, when its Pod Succeeded, and False, reason
 * `Failed`, when its Pod Failed or was deleted before it finished (the message says which,
 * with the exit codes). The messages are the `Completed` condition's.
 */
export function readyOf(decision: Omit<MyJobDecision, 'ready'>): MyJobCondition {
  const { phase, condition } = decision;
  const message = condition.message;
  if (condition.reason === 'PodConflict')
    return { status: 'False', reason: 'PodConflict', message };
  if (phase === 'pending') return { status: 'False', reason: 'Pending', message };
  if (phase === 'running') return { status: 'False', reason: 'Running', message };
  const succeeded =
    decision.pod.podPhase === 'Succeeded' ||
    (decision.pod.podPhase === undefined && condition.reason === 'PodSucceeded');
  return succeeded
    ? { status: 'True', reason: 'Succeeded', message }
    : { status: 'False', reason: 'Failed', message };
}

function nextStep({ myJob, pod, owned, now }: MyJobObservation): Omit<MyJobDecision, 'ready'> {
  const status = myJob.status ?? {};
  const name = myJob.metadata.name ?? '';
  const recorded = {
    ...(status.podPhase ? { podPhase: status.podPhase } : {}),
    ...(status.podUID ? { podUID: status.podUID } : {}),
    ...(status.startTime ? { startTime: status.startTime } : {}),
    ...(status.completionTime ? { completionTime: status.completionTime } : {}),
    ...(status.containers ? { containers: status.containers } : {}),
  };
  const completedCondition = status.conditions?.find((c) => c.type === 'Completed');
  if (status.phase === 'completed') {
    return {
      createPod: false,
      phase: 'completed',
      condition: {
        status: 'True',
        reason: completedCondition?.reason ?? 'PodFinished',
        message: completedCondition?.message ?? `Pod ${name} finished`,
      },
      pod: recorded,
    };
  }
  if (pod && !owned) {
    return {
      createPod: false,
      phase: status.phase ?? 'pending',
      condition: {
        status: 'False',
        reason: 'PodConflict',
        message: `Pod ${name} exists and is not controlled by MyJob ${name}; delete or rename that Pod, and the MyJob will create its own`,
      },
      pod: recorded,
    };
  }
  if (!pod) {
    if (status.podUID || status.phase === 'running') {
      return {
        createPod: false,
        phase: 'completed',
        condition: {
          status: 'True',
          reason: 'PodDeleted',
          message: `Pod ${name} was deleted before it finished; it is not started again`,
        },
        pod: { ...recorded, podPhase: 'Deleted', completionTime: now.toISOString() },
      };
    }
    return {
      createPod: true,
      phase: 'pending',
      condition: { status: 'False', reason: 'PodCreated', message: `created Pod ${name}` },
      pod: recorded,
    };
  }
  const podPhase = pod.status?.phase ?? 'Pending';
  const seen = {
    ...recorded,
    podPhase,
    ...(pod.metadata?.uid ? { podUID: pod.metadata.uid } : {}),
    ...(pod.status?.startTime ? { startTime: pod.status.startTime } : {}),
  };
  const deleting = pod.metadata?.deletionTimestamp !== undefined;
  if (finishedPhases.has(podPhase) || deleting) {
    const finished = finishedPhases.has(podPhase);
    const containers = exitCodesOf(pod);
    const exitCodes =
      containers && Object.fromEntries(containers.map(({ name, exitCode }) => [name, exitCode]));
    const reason = finished ? `Pod${podPhase}` : 'PodDeleted';
    return {
      createPod: false,
      phase: 'completed',
      condition: {
        status: 'True',
        reason,
        message: finished
          ? `Pod ${name} ${podPhase}${exitCodes ? ` (exit codes ${JSON.stringify(exitCodes)})` : ''}`
          : `Pod ${name} was deleted before it finished; it is not started again`,
      },
      pod: {
        ...seen,
        podPhase: finished ? podPhase : 'Deleted',
        completionTime: (finished && finishedAtOf(pod)) || now.toISOString(),
        ...(containers ? { containers } : {}),
      },
    };
  }
  if (podPhase === 'Running') {
    return {
      createPod: false,
      phase: 'running',
      condition: { status: 'False', reason: 'PodRunning', message: `Pod ${name} is running` },
      pod: seen,
    };
  }
  return {
    createPod: false,
    phase: 'pending',
    condition: {
      status: 'False',
      reason: 'PodPending',
      message: `waiting for Pod ${name} to run (phase ${podPhase})`,
    },
    pod: seen,
  };
}
