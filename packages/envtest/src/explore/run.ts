import type { KubeConfig } from '@kubernetes/client-node';
import { Client, isNotFound, type KubernetesObject } from '@ops/core';
import { applyObjects } from '../apply-objects.js';
import type { EnvironmentOptions } from '../environment.js';
import {
  type OperatorManagerLike,
  type OperatorManagerSettings,
  type RunningOperatorManager,
  startOperatorManager,
} from '../operator-manager.js';
import type { ServiceAccountIdentity } from '../service-account-identity.js';
import { errorFits } from './error-fits.js';
import {
  FaultProxy,
  type ProxiedRequest,
  type ProxyCounters,
  type ProxyDecision,
} from './fault-proxy.js';
import { inNamespace } from './in-namespace.js';
import {
  explorerLeaseName,
  explorerLeaseTiming,
  LeaderTakeover,
  type Replica,
} from './leader-takeover.js';
import {
  type NondeterministicField,
  type Outcome,
  type OutcomeKind,
  outcomeDifferences,
  readOutcome,
} from './outcome.js';
import { RunPlane, type RunSpace } from './run-plane.js';
import {
  isWebhookCallFailure,
  RunWebhooks,
  type ScenarioWebhooks,
  type ServedWebhooks,
} from './run-webhooks.js';
import { type Perturbation, type Schedule, webhookSlowWindowMs } from './schedule.js';

/** The settings an explored operator's manager is made with. */
export interface ExplorerSettings extends OperatorManagerSettings {
  /**
   * Where the manager's logger writes, one JSON line per call: give it to pino
   * (`pino({ level: 'info' }, settings.logDestination)`). The explorer reads the reconciles'
   * lines (printed when a schedule fails) and the error lines (an error logged without a
   * retry fails the schedule) from it.
   */
  logDestination: { write(line: string): void };
  /**
   * Set in runs of a schedule with `leader-loss` (which run two replicas): leader election on
   * a Lease in the scenario's namespace, this replica's identity, and short Lease timing
   * ({@link explorerLeaseTiming}). They are `ManagerOptions` fields: a `createManager` that
   * spreads the settings into `new Manager({ ...settings })` honours them, and must.
   */
  leaderElection?: boolean;
  leaderElectionId?: string;
  leaderElectionNamespace?: string;
  leaderElectionIdentity?: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
}

/** One step of a scenario: what the user applies, then deletes, before the operator settles. */
export interface ScenarioStep {
  name: string;
  /** Objects created, or replaced when they exist (as `kubectl apply` of the user's objects). */
  apply?: KubernetesObject[];
  /** Objects deleted (a missing one is no error). */
  delete?: Array<{ apiVersion: string; kind: string; name: string }>;
  /**
   * For a step whose world moves on without the operator (a Pod that runs to completion):
   * the reference run's step settles only once this holds of its outcome, as well as the
   * operator being quiet. Perturbed runs wait for the reference outcome anyway.
   */
  settledWhen?: (outcome: Outcome) => boolean;
}

/**
 * An operator's end-to-end scenario for fault exploration: the objects a user applies, in
 * steps, in one namespace, and the kinds whose objects are the outcome. Written once; the
 * explorer runs it undisturbed for the reference outcome, then under each schedule.
 */
export interface Scenario<M extends OperatorManagerLike> {
  /** Named in reports and state files. */
  name: string;
  /**
   * The namespace the steps' objects go in (created first; default `explore`). On the real
   * planes it is a base name: each run has a namespace of its own, `<namespace>-<run number>`,
   * and the outcome names it `<namespace>` (see {@link RunPlane}).
   */
  namespace?: string;
  /** CRDs installed before the operator starts. */
  crds?: KubernetesObject[];
  /**
   * Options of the control plane (`Environment.start`), which also choose the plane; its CRDs
   * are added to {@link crds}. Local: each run starts its own; real planes: one per
   * exploration (see {@link RunPlane}).
   */
  environment?: EnvironmentOptions;
  /** Makes the operator's manager: `(settings) => new Manager({ ...settings, logger: pino({}, settings.logDestination) })`. */
  createManager(settings: ExplorerSettings): M;
  /** The operator's setup, as its entry point runs it. */
  setup(manager: M): void | Promise<void>;
  steps: ScenarioStep[];
  /**
   * The operator's kustomize directory as it is deployed (`config/default`, an absolute path):
   * the operator then runs as the ServiceAccount that install's manager Deployment names,
   * under that install's RBAC ({@link RunPlane.operatorIdentity}), not as the control plane's
   * admin, so a path that needs a right the install does not grant fails as it would in a
   * cluster (a write refused 403, logged without a retry). With leader election, its Lease is
   * then in the account's namespace, where an install's leader-election Role grants Leases
   * (named after the run's namespace, one per run). The steps and the outcome stay the
   * admin's, as a user's are.
   */
  operatorConfig?: string;
  /** The kinds whose objects (in the namespace) are the outcome, and what may differ between runs. */
  outcome: { kinds: OutcomeKind[]; nondeterministic?: NondeterministicField[] };
  /**
   * The operator's admission webhooks, served by each incarnation through the run's webhook
   * proxy (which `webhook-down` and `webhook-slow` disturb). A step whose apply is refused
   * because the API server could not call a webhook (`failurePolicy: Fail`) is applied
   * again, as a user retries kubectl, until the step's deadline.
   */
  webhooks?: ScenarioWebhooks<M>;
}

/** Time limits of a run; the defaults suit the local plane. */
export interface RunLimits {
  /** How long the operator must send no write for a step to count as settled (default 400 ms). */
  quietMs?: number;
  /** How long a step may take to reach the reference outcome and go quiet (default 20 s). */
  settleTimeoutMs?: number;
  /**
   * How long the operator may stay quiet while the outcome differs from the reference
   * before the step fails without waiting out `settleTimeoutMs` (default 6 s: longer than
   * the backoff of a first failed request or watch, 429's Retry-After and the proxy's held
   * events, so an operator that is only waiting to retry is not failed). After an API server
   * restart this counts from twice the outage past its end, and `settleTimeoutMs` grows by
   * three times the outage: the retries' backoff doubled through it.
   */
  stuckMs?: number;
}

/** What one run did and saw. */
export interface RunRecord {
  /** The outcome after each step. */
  outcomes: Outcome[];
  /** The operator's writes, as `<verb> <resource>` (`create configmaps`). */
  writes: string[];
  /** The same, with namespace/name and the step they were sent in. */
  writeDetails: string[];
  /** Requests of any kind the operator sent. */
  requests: number;
  /** Requests the operator sent before it first led (no fault acts on them). */
  startupRequests: number;
  /** The resources the operator watched, in the order it first did. */
  watched: string[];
  /** What the operator deleted (`<resource> <name>`). */
  deletions: string[];
  /** What went wrong (empty for a good run); the step it went wrong in is named. */
  violations: string[];
  /** The last log lines of the operator's incarnations. */
  logs: string[];
  /** How many times the operator was crashed and restarted. */
  restarts: number;
  /** The perturbations of the schedule that acted (one whose write never came did not). */
  fired: Perturbation[];
}

/** Whether an error log line says the work is retried ("not retrying" does not). */
const saysItRetries = (message: string) =>
  !/not retry/i.test(message) && /retry|relist|resum|back(ing)? off/i.test(message);
const maxLogLines = 400;

interface Incarnation<M extends OperatorManagerLike> {
  proxy: FaultProxy;
  running: RunningOperatorManager<M>;
  muted: { value: boolean };
  /** This incarnation as a replica under leader election. */
  replica: Replica;
  /** Set once its Lease renewals were cut: its error lines about losing the Lease are expected. */
  leaseCut: { value: boolean };
  /** Its webhook server, when the scenario has webhooks. */
  webhooks: ServedWebhooks | undefined;
}

/** The decision a perturbation takes on a request, if it acts on it. */
function decisionOf(
  perturbation: Perturbation,
  request: ProxiedRequest,
): ProxyDecision | undefined {
  switch (perturbation.kind) {
    case 'crash':
    case 'stale-restart':
      return request.writeNumber === perturbation.afterWrite
        ? { action: 'sever-after' }
        : undefined;
    case 'crash-at-request':
      return request.requestNumber === perturbation.afterRequest
        ? { action: 'sever-after' }
        : undefined;
    case 'write-error':
      return request.writeNumber === perturbation.write && errorFits(perturbation, request)
        ? {
            action: 'reject',
            code: perturbation.code,
            ...(perturbation.code === 429 ? { retryAfterSeconds: 1 } : {}),
          }
        : undefined;
    case 'timeout-after-apply':
      return request.writeNumber === perturbation.write && errorFits(perturbation, request)
        ? { action: 'timeout-after-apply' }
        : undefined;
    default:
      return undefined;
  }
}

/**
 * One run of `scenario` on `plane` (a {@link RunPlane}: a control plane of its own on the
 * local plane, a namespace of its own on a real one; default: a plane started for this run
 * alone and stopped after it), disturbed by `schedule` (undisturbed when undefined), each
 * step checked against `reference` (the reference run's outcomes; when undefined, each step
 * settles once the operator is quiet and the outcome stops changing). Never throws for what
 * the operator does: that is in {@link RunRecord.violations}.
 *
 * @throws {Error} when the control plane does not start, a step's objects are refused, or
 *   the schedule holds a perturbation the plane cannot perform.
 */
export async function runScenario<M extends OperatorManagerLike>(
  scenario: Scenario<M>,
  schedule: Schedule | undefined,
  reference: RunRecord | undefined,
  limits: RunLimits = {},
  plane?: RunPlane,
): Promise<RunRecord> {
  const runPlane = plane ?? (await RunPlane.start(scenario));
  try {
    for (const perturbation of schedule?.perturbations ?? []) {
      const reason = runPlane.excludedKinds[perturbation.kind];
      if (reason !== undefined)
        throw new Error(
          `the ${runPlane.kind} plane cannot perform the perturbation ${perturbation.kind}: ${reason}; replay the schedule on another plane (OPS_ENVTEST_CONTROL_PLANE)`,
        );
    }
    return await runOnPlane(scenario, schedule, reference, limits, runPlane);
  } finally {
    if (plane === undefined) await runPlane.stop();
  }
}

async function runOnPlane<M extends OperatorManagerLike>(
  scenario: Scenario<M>,
  schedule: Schedule | undefined,
  reference: RunRecord | undefined,
  limits: RunLimits,
  plane: RunPlane,
): Promise<RunRecord> {
  const quietMs = limits.quietMs ?? 400;
  const settleTimeoutMs = limits.settleTimeoutMs ?? 20_000;
  const stuckMs = limits.stuckMs ?? 6_000;
  const space = await plane.openRun(scenario.namespace ?? 'explore');
  const { env, namespace } = space;
  const operator = await operatorIdentity(plane, space, scenario.operatorConfig);
  const lease =
    operator === undefined
      ? { namespace, name: explorerLeaseName }
      : { namespace: operator.namespace, name: `${explorerLeaseName}-${namespace}` };
  const runWebhooks = await startWebhooks(space, scenario.webhooks, {
    namespace,
    deadline: Date.now() + settleTimeoutMs,
  });
  const record: RunRecord = {
    outcomes: [],
    writes: [],
    writeDetails: [],
    requests: 0,
    startupRequests: 0,
    watched: [],
    deletions: [],
    violations: [],
    logs: [],
    restarts: 0,
    fired: [],
  };
  const counters: ProxyCounters = { requests: 0, writes: 0, firstSyncs: new Map() };
  /** Set by a stale restart: the next incarnation's syncs of a resource are stale, held this long. */
  let staleNextStart: { resource: string; holdMs: number } | undefined;
  const perturbations = schedule?.perturbations ?? [];
  let stepName = '';
  let lastWriteAt = Date.now();
  /**
   * The API server restarts of the run: how many are going on, when the last ended and how
   * long the longest lasted. An operator whose requests failed through an outage retries with
   * a backoff that doubled meanwhile, so its next try may come about as long after the outage
   * as the outage lasted (on kube-apiserver, whose restart takes seconds, its RBAC caches
   * answering 403 until they sync): a step is not judged stuck, nor timed out, for twice the
   * outage after it ended.
   */
  const outage = { ongoing: 0, endedAt: 0, ms: 0 };
  const outageGraceMs = () => (outage.ongoing > 0 ? Number.POSITIVE_INFINITY : 2 * outage.ms);
  let incarnation: Incarnation<M> | undefined;
  /** Every incarnation started in the run (with leader election, the standbys too). */
  const replicas: Incarnation<M>[] = [];
  const elected = perturbations.some((p) => p.kind === 'leader-loss');
  const takeover = elected ? new LeaderTakeover((text) => violation(text)) : undefined;
  /** Makes the replica that leads now the run's incarnation (faults act on it). */
  const promote = () => {
    const leader = takeover?.observe();
    const next = replicas.find((candidate) => candidate.replica === leader);
    if (next !== undefined) incarnation = next;
  };
  let restarting: Promise<void> = Promise.resolve();
  /** Set once the run is over: severing the proxy then is the operator's stop, not a crash. */
  let finished = false;
  const background: Promise<unknown>[] = [];
  const violation = (text: string) => record.violations.push(`step "${stepName}": ${text}`);
  const onRejection = (reason: unknown) =>
    violation(`unhandled rejection: ${reason instanceof Error ? reason.stack : String(reason)}`);
  process.on('unhandledRejection', onRejection);

  const afterWrite = (request: ProxiedRequest, status: number) => {
    lastWriteAt = Date.now();
    const target = `${request.namespace}/${request.name}`;
    record.writes.push(`${request.verb} ${request.resource}`);
    record.writeDetails.push(
      `#${request.writeNumber} ${request.verb} ${request.resource} ${target} -> ${status} (step "${stepName}")`,
    );
    if (request.verb === 'delete' && status < 300)
      record.deletions.push(`${request.resource} ${request.name}`);
    // Once the run is over, the writes of the operator's shutdown fire nothing: an API server
    // restart then would still be going on when the next run (on a real plane, the same
    // control plane) starts. Found on binaries: apiserver-restart@2 of a run whose 2nd write
    // came only as the operator stopped.
    const proxy = finished ? undefined : incarnation?.proxy;
    for (const p of perturbations) {
      if (!('afterWrite' in p) || p.afterWrite !== request.writeNumber || proxy === undefined)
        continue;
      if (p.kind !== 'crash' && p.kind !== 'stale-restart') record.fired.push(p);
      if (p.kind === 'stale') proxy.holdWatchEvents(p.holdMs);
      else if (p.kind === 'lose-events') proxy.loseWatchEvents(p.count);
      else if (p.kind === 'drop-watches') proxy.dropWatches();
      else if (p.kind === 'gone') proxy.expireWatches();
      else if (p.kind === 'leader-loss' && incarnation !== undefined) {
        incarnation.leaseCut.value = true;
        proxy.cutElectionLease();
        takeover?.cut(incarnation.replica);
      } else if (p.kind === 'apiserver-restart') {
        const startedAt = Date.now();
        outage.ongoing += 1;
        background.push(
          env
            .restartApiServer({ downtimeMs: 200 })
            .catch((error: unknown) => {
              violation(`the API server did not restart: ${String(error)}`);
            })
            .finally(() => {
              outage.ongoing -= 1;
              outage.endedAt = Date.now();
              outage.ms = Math.max(outage.ms, outage.endedAt - startedAt);
            }),
        );
      }
    }
  };
  const decide = (request: ProxiedRequest): ProxyDecision => {
    if (request.verb === 'watch' && !record.watched.includes(request.resource))
      record.watched.push(request.resource);
    if (request.writeNumber !== undefined) lastWriteAt = Date.now();
    // A crash while the operator starts would leave it never leading: faults act once it leads.
    if (incarnation === undefined || incarnation.proxy.isSevered) return { action: 'forward' };
    for (const p of perturbations) {
      const decision = decisionOf(p, request);
      if (decision) {
        record.fired.push(p);
        if (p.kind === 'stale-restart') staleNextStart = p;
        if (decision.action === 'reject') {
          // Refused here, never sent: recorded as the write the operator attempted.
          record.writes.push(`${request.verb} ${request.resource}`);
          record.writeDetails.push(
            `#${request.writeNumber} ${request.verb} ${request.resource} ${request.namespace}/${request.name} -> ${decision.code} (injected, not applied; step "${stepName}")`,
          );
        }
        return decision;
      }
    }
    return { action: 'forward' };
  };

  /**
   * Starts one incarnation of the operator behind a new proxy. Error lines it logs before it
   * leads are held back: if it fails to start (its API server unreachable, say), the process
   * would exit and be restarted, so they are no violation; once it leads, they are. With
   * its webhook server, when the scenario has webhooks. A `standby` (with leader election)
   * is not waited for to lead, and its error lines count at once; the run's incarnation
   * becomes whichever replica leads.
   *
   * @throws the error of `startOperatorManager` when the manager does not lead (or, as a
   *   standby, does not start).
   */
  const startOnce = async (
    stale: typeof staleNextStart,
    standby: boolean,
  ): Promise<Incarnation<M>> => {
    const number = record.restarts;
    const identity = `replica-${replicas.length + 1}`;
    const muted = { value: false };
    const led = { value: false };
    const leaseCut = { value: false };
    let manager: M | undefined;
    let proxy: FaultProxy | undefined;
    let served: ServedWebhooks | undefined;
    let exited: (exit: { error?: unknown }) => void = () => undefined;
    const replica: Replica = {
      identity,
      isLeader: () => manager?.isLeader() === true,
      exited: new Promise((resolve) => {
        exited = resolve;
      }),
      crashed: () => proxy?.isSevered === true,
    };
    const startupErrors: string[] = [];
    let failedToStart = false;
    let started: (self: Incarnation<M>) => void = () => undefined;
    const self = new Promise<Incarnation<M>>((resolve) => {
      started = resolve;
    });
    proxy = await FaultProxy.start(operator?.kubeConfig ?? env.kubeConfig, counters, {
      decide: (request) => {
        if (takeover !== undefined && request.writeNumber !== undefined) {
          takeover.onWrite(replica, request);
          promote();
        }
        return decide(request);
      },
      afterWrite,
      ...(elected ? { electionLease: `${lease.namespace}/${lease.name}` } : {}),
      onSevered: () => {
        muted.value = true;
        // The process died: its webhook server with it.
        void served?.stop();
        if (finished || failedToStart) return;
        restarting = restarting.then(async () => {
          record.restarts++;
          await stopIncarnation(await self).catch(() => undefined);
          await start(elected).catch((error: unknown) => {
            violation(
              `the operator did not start again after its crash: ${error instanceof Error ? error.message : String(error)}`,
            );
          });
        });
      },
    });
    if (stale !== undefined) proxy.serveStaleSyncs(stale.resource, stale.holdMs);
    const logDestination = {
      write(line: string) {
        if (muted.value) return;
        record.logs.push(`[operator #${number}${elected ? ` ${identity}` : ''}] ${line.trimEnd()}`);
        if (record.logs.length > maxLogLines) record.logs.shift();
        let parsed: { level?: number; msg?: string } = {};
        try {
          parsed = JSON.parse(line) as typeof parsed;
        } catch {
          return;
        }
        if ((parsed.level ?? 0) < 50 || saysItRetries(parsed.msg ?? '')) return;
        const problem = `error logged without a retry: ${line.trim()}`;
        if (leaseCut.value) return;
        if (led.value) violation(problem);
        else startupErrors.push(problem);
      },
    };
    const election = elected
      ? {
          leaderElection: true,
          leaderElectionId: lease.name,
          leaderElectionNamespace: lease.namespace,
          leaderElectionIdentity: identity,
          ...explorerLeaseTiming,
        }
      : {};
    let running: RunningOperatorManager<M>;
    try {
      running = await startOperatorManager({
        identity: { kubeConfig: proxy.kubeConfig() },
        createManager: (settings) => {
          manager = scenario.createManager({ ...settings, ...election, logDestination });
          return manager;
        },
        setup: async (made) => {
          await scenario.setup(made);
          served = await runWebhooks?.serve(made);
        },
        timeoutMs: settleTimeoutMs,
        waitForLeadership: !standby,
      });
    } catch (error) {
      failedToStart = true;
      muted.value = true;
      await proxy.sever();
      await served?.stop();
      throw error;
    }
    void running.exited.then(exited);
    led.value = true;
    for (const problem of startupErrors) violation(problem);
    const made: Incarnation<M> = { proxy, running, muted, replica, leaseCut, webhooks: served };
    replicas.push(made);
    takeover?.add(replica);
    if (!standby) incarnation = made;
    started(made);
    if (record.startupRequests === 0) record.startupRequests = counters.requests;
    return made;
  };

  /**
   * Starts the operator, and starts it again while it fails to start (as the kubelet
   * restarts a container that exited), for up to `settleTimeoutMs`.
   *
   * @throws the last start's error once that time is up.
   */
  const start = async (standby = false): Promise<void> => {
    const stale = staleNextStart;
    staleNextStart = undefined;
    const deadline = Date.now() + settleTimeoutMs;
    for (let attempt = 1; ; attempt++) {
      try {
        await startOnce(stale, standby);
        return;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        record.logs.push(
          `[explorer] the operator failed to start (${error instanceof Error ? error.message : String(error)}); starting it again, as the kubelet would`,
        );
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    }
  };

  // With leader election, which replica leads is watched (and faults follow the leader).
  const watchingLeader = elected ? setInterval(promote, 50) : undefined;
  try {
    await start();
    // The second replica, a standby from the start, behind its own proxy.
    if (elected) await start(true);
    for (const [index, step] of scenario.steps.entries()) {
      stepName = step.name;
      for (const p of perturbations) {
        if ((p.kind !== 'webhook-down' && p.kind !== 'webhook-slow') || p.step !== index + 1)
          continue;
        if (runWebhooks === undefined) continue;
        record.fired.push(p);
        if (p.kind === 'webhook-down') runWebhooks.proxy.down(p.ms);
        else runWebhooks.proxy.delay(p.ms, webhookSlowWindowMs);
      }
      const refused = await applyStepAdmitted(env.kubeConfig, namespace, step, {
        deadline: Date.now() + settleTimeoutMs,
        log: (line) => record.logs.push(line),
      });
      if (refused !== undefined) {
        violation(refused);
        break;
      }
      lastWriteAt = Date.now();
      const outcome = await settle({
        read: () =>
          readOutcome(env.kubeConfig, {
            namespace,
            reportedNamespace: space.reportedNamespace,
            ...scenario.outcome,
          }),
        expected: reference?.outcomes[index],
        quiet: () => Date.now() - lastWriteAt >= quietMs,
        stuck: () =>
          Date.now() - Math.max(lastWriteAt, outage.endedAt + outageGraceMs()) >= stuckMs,
        extraTimeMs: () => (outage.ongoing > 0 ? Number.POSITIVE_INFINITY : 3 * outage.ms),
        pending: async () => {
          await restarting;
          await takeover?.settled();
        },
        settleTimeoutMs,
        ...(step.settledWhen ? { settledWhen: step.settledWhen } : {}),
      });
      record.outcomes.push(outcome.outcome);
      if (outcome.problem) violation(outcome.problem);
      if (record.violations.length > 0) break;
    }
    await restarting;
    await takeover?.settled();
    if (reference)
      for (const deletion of new Set(record.deletions))
        if (!reference.deletions.includes(deletion))
          violation(`deleted ${deletion}, which the reference run never deleted (a live child)`);
  } finally {
    await restarting.catch(() => undefined);
    finished = true;
    clearInterval(watchingLeader);
    await Promise.all(background);
    if (incarnation) {
      incarnation.muted.value = true;
      await stopIncarnation(incarnation).catch((error: unknown) => {
        if (!incarnation?.proxy.isSevered)
          violation(
            `the operator's manager failed: ${error instanceof Error ? error.message : String(error)}`,
          );
      });
    }
    // The other replicas: a deposed one has exited already (its oracle checked), a standby stops.
    for (const other of replicas) {
      if (other === incarnation || other.proxy.isSevered) continue;
      other.muted.value = true;
      await stopIncarnation(other).catch(() => undefined);
    }
    process.off('unhandledRejection', onRejection);
    record.requests = counters.requests;
    await runWebhooks?.stop();
    await space.close();
  }
  return record;
}

async function stopIncarnation<M extends OperatorManagerLike>(
  incarnation: Incarnation<M>,
): Promise<void> {
  try {
    await incarnation.running.stop();
  } finally {
    await incarnation.proxy.sever();
    await incarnation.webhooks?.stop();
  }
}

/** The operator's identity when the scenario names its install; the run is closed when that fails. */
async function operatorIdentity(
  plane: RunPlane,
  space: RunSpace,
  operatorConfig: string | undefined,
): Promise<ServiceAccountIdentity | undefined> {
  if (operatorConfig === undefined) return undefined;
  try {
    return await plane.operatorIdentity(space, operatorConfig);
  } catch (error) {
    await space.close();
    throw error;
  }
}

/** The run's webhooks when the scenario has some; the control plane is stopped when they fail to start. */
async function startWebhooks<M>(
  space: RunSpace,
  webhooks: ScenarioWebhooks<M> | undefined,
  probe: { namespace: string; deadline: number },
): Promise<RunWebhooks<M> | undefined> {
  if (webhooks === undefined) return undefined;
  try {
    return await RunWebhooks.start(space.env, webhooks, probe);
  } catch (error) {
    await space.close();
    throw error;
  }
}

/**
 * Applies a step as a user would with kubectl: when the API server refuses it because it
 * could not call a webhook (unreachable, too slow, with `failurePolicy: Fail`), applies it
 * again every 200 ms until `deadline`. Resolves with what went wrong when it never got in.
 *
 * @throws what `applyStep` throws for any other refusal.
 */
async function applyStepAdmitted(
  kubeConfig: KubeConfig,
  namespace: string,
  step: ScenarioStep,
  options: { deadline: number; log: (line: string) => void },
): Promise<string | undefined> {
  for (let attempt = 1; ; attempt++) {
    try {
      await applyStep(kubeConfig, namespace, step);
      return undefined;
    } catch (error) {
      if (!isWebhookCallFailure(error)) throw error;
      const message = error instanceof Error ? error.message : String(error);
      if (Date.now() > options.deadline)
        return `the step's objects were never admitted: the API server could not call the webhook for ${attempt} attempts (${message})`;
      options.log(
        `[explorer] the step's apply was refused (${message}); applying it again, as a user would`,
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

async function applyStep(
  kubeConfig: KubeConfig,
  namespace: string,
  step: ScenarioStep,
): Promise<void> {
  const client = new Client({ kubeConfig });
  try {
    if (step.apply)
      await applyObjects(kubeConfig, await inNamespace(client, namespace, step.apply));
    if (step.delete) {
      for (const target of step.delete)
        await client.delete({ ...target, namespace }).catch((error: unknown) => {
          if (!isNotFound(error)) throw error;
        });
    }
  } finally {
    client.close();
  }
}

/**
 * Waits for a step to settle: the outcome equals `expected` (when given) and the operator is
 * quiet; without `expected`, it is quiet and two outcomes read a quiet period apart agree.
 * After `settleTimeoutMs`, says what was still wrong.
 */
async function settle(options: {
  read: () => Promise<Outcome>;
  expected: Outcome | undefined;
  quiet: () => boolean;
  stuck: () => boolean;
  /** Time added to `settleTimeoutMs` (an API server restart's outage and the backoff after it). */
  extraTimeMs: () => number;
  pending: () => Promise<void>;
  settleTimeoutMs: number;
  settledWhen?: (outcome: Outcome) => boolean;
}): Promise<{ outcome: Outcome; problem?: string }> {
  const deadline = Date.now() + options.settleTimeoutMs;
  let previous: string | undefined;
  let last: Outcome | undefined;
  let differences: string[] = [];
  let stuck = false;
  let readError: unknown;
  for (;;) {
    await options.pending();
    const quiet = options.quiet();
    try {
      last = await options.read();
    } catch (error) {
      // The API server may be restarting (a perturbation): read again.
      readError = error;
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (Date.now() > deadline + options.extraTimeMs()) break;
      continue;
    }
    if (options.expected) {
      differences = outcomeDifferences(options.expected, last);
      if (differences.length === 0 && quiet && options.quiet()) return { outcome: last };
      if (differences.length > 0 && options.stuck()) {
        stuck = true;
        break;
      }
    } else {
      const text = JSON.stringify(last);
      const done = options.settledWhen?.(last) ?? true;
      if (quiet && options.quiet() && text === previous && done) return { outcome: last };
      previous = quiet ? text : undefined;
    }
    if (Date.now() > deadline + options.extraTimeMs()) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (last === undefined)
    throw new Error(`could not read the outcome from the API server: ${String(readError)}`);
  if (differences.length > 0)
    return {
      outcome: last,
      problem: `the outcome did not reach the reference ${stuck ? 'and the operator stopped writing' : `within ${options.settleTimeoutMs} ms`}:\n${differences.map((d) => `      ${d}`).join('\n')}`,
    };
  if (options.settledWhen && !options.settledWhen(last))
    return {
      outcome: last,
      problem: `the step's settledWhen did not hold within ${options.settleTimeoutMs} ms; its outcome: ${JSON.stringify(last)}`,
    };
  return {
    outcome: last,
    problem: `the operator did not stop writing within ${options.settleTimeoutMs} ms (eventually stable reconciliation)`,
  };
}
