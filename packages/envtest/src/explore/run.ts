import type { KubeConfig } from '@kubernetes/client-node';
import { Client, isNotFound, type KubernetesObject } from '@ops/core';
import { applyObjects } from '../apply-objects.js';
import { Environment, type EnvironmentOptions } from '../environment.js';
import {
  type OperatorManagerLike,
  type OperatorManagerSettings,
  type RunningOperatorManager,
  startOperatorManager,
} from '../operator-manager.js';
import {
  FaultProxy,
  type ProxiedRequest,
  type ProxyCounters,
  type ProxyDecision,
} from './fault-proxy.js';
import { inNamespace } from './in-namespace.js';
import {
  type NondeterministicField,
  type Outcome,
  type OutcomeKind,
  outcomeDifferences,
  readOutcome,
} from './outcome.js';
import type { Perturbation, Schedule } from './schedule.js';

/** The settings an explored operator's manager is made with. */
export interface ExplorerSettings extends OperatorManagerSettings {
  /**
   * Where the manager's logger writes, one JSON line per call: give it to pino
   * (`pino({ level: 'info' }, settings.logDestination)`). The explorer reads the reconciles'
   * lines (printed when a schedule fails) and the error lines (an error logged without a
   * retry fails the schedule) from it.
   */
  logDestination: { write(line: string): void };
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
  /** The namespace the steps' objects go in (created first; default `explore`). */
  namespace?: string;
  /** CRDs installed before the operator starts. */
  crds?: KubernetesObject[];
  /** Options of each run's control plane (`Environment.start`); its CRDs are added to {@link crds}. */
  environment?: EnvironmentOptions;
  /** Makes the operator's manager: `(settings) => new Manager({ ...settings, logger: pino({}, settings.logDestination) })`. */
  createManager(settings: ExplorerSettings): M;
  /** The operator's setup, as its entry point runs it. */
  setup(manager: M): void | Promise<void>;
  steps: ScenarioStep[];
  /** The kinds whose objects (in the namespace) are the outcome, and what may differ between runs. */
  outcome: { kinds: OutcomeKind[]; nondeterministic?: NondeterministicField[] };
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
   * events, so an operator that is only waiting to retry is not failed).
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
}

/** Starts the control plane of one run, with its namespace. */
async function startRunEnvironment<M extends OperatorManagerLike>(
  scenario: Scenario<M>,
): Promise<Environment> {
  const env = await Environment.start({
    ...scenario.environment,
    crds: [...(scenario.environment?.crds ?? []), ...(scenario.crds ?? [])],
  });
  try {
    await applyObjects(env.kubeConfig, [
      {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: scenario.namespace ?? 'explore' },
      },
    ]);
  } catch (error) {
    await env.stop();
    throw error;
  }
  return env;
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
      return request.writeNumber === perturbation.write
        ? {
            action: 'reject',
            code: perturbation.code,
            ...(perturbation.code === 429 ? { retryAfterSeconds: 1 } : {}),
          }
        : undefined;
    case 'timeout-after-apply':
      return request.writeNumber === perturbation.write
        ? { action: 'timeout-after-apply' }
        : undefined;
    default:
      return undefined;
  }
}

/**
 * One run of `scenario` on a new control plane, disturbed by `schedule` (undisturbed when
 * undefined), each step checked against `reference` (the reference run's outcomes; when
 * undefined, each step settles once the operator is quiet and the outcome stops changing).
 * Never throws for what the operator does: that is in {@link RunRecord.violations}.
 *
 * @throws {Error} when the control plane does not start or a step's objects are refused.
 */
export async function runScenario<M extends OperatorManagerLike>(
  scenario: Scenario<M>,
  schedule: Schedule | undefined,
  reference: RunRecord | undefined,
  limits: RunLimits = {},
): Promise<RunRecord> {
  const quietMs = limits.quietMs ?? 400;
  const settleTimeoutMs = limits.settleTimeoutMs ?? 20_000;
  const stuckMs = limits.stuckMs ?? 6_000;
  const namespace = scenario.namespace ?? 'explore';
  const env = await startRunEnvironment(scenario);
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
  let incarnation: Incarnation<M> | undefined;
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
    const proxy = incarnation?.proxy;
    for (const p of perturbations) {
      if (!('afterWrite' in p) || p.afterWrite !== request.writeNumber || proxy === undefined)
        continue;
      if (p.kind !== 'crash' && p.kind !== 'stale-restart') record.fired.push(p);
      if (p.kind === 'stale') proxy.holdWatchEvents(p.holdMs);
      else if (p.kind === 'lose-events') proxy.loseWatchEvents(p.count);
      else if (p.kind === 'drop-watches') proxy.dropWatches();
      else if (p.kind === 'gone') proxy.expireWatches();
      else if (p.kind === 'apiserver-restart')
        background.push(
          env.restartApiServer({ downtimeMs: 200 }).catch((error: unknown) => {
            violation(`the API server did not restart: ${String(error)}`);
          }),
        );
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
   * would exit and be restarted, so they are no violation; once it leads, they are.
   *
   * @throws the error of `startOperatorManager` when the manager does not lead.
   */
  const startOnce = async (stale: typeof staleNextStart): Promise<void> => {
    const number = record.restarts;
    const muted = { value: false };
    const led = { value: false };
    const startupErrors: string[] = [];
    let failedToStart = false;
    let started: (self: Incarnation<M>) => void = () => undefined;
    const self = new Promise<Incarnation<M>>((resolve) => {
      started = resolve;
    });
    const proxy = await FaultProxy.start(env.kubeConfig, counters, {
      decide,
      afterWrite,
      onSevered: () => {
        muted.value = true;
        if (finished || failedToStart) return;
        restarting = restarting.then(async () => {
          record.restarts++;
          await stopIncarnation(await self).catch(() => undefined);
          await start().catch((error: unknown) => {
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
        record.logs.push(`[operator #${number}] ${line.trimEnd()}`);
        if (record.logs.length > maxLogLines) record.logs.shift();
        let parsed: { level?: number; msg?: string } = {};
        try {
          parsed = JSON.parse(line) as typeof parsed;
        } catch {
          return;
        }
        if ((parsed.level ?? 0) < 50 || saysItRetries(parsed.msg ?? '')) return;
        const problem = `error logged without a retry: ${line.trim()}`;
        if (led.value) violation(problem);
        else startupErrors.push(problem);
      },
    };
    let running: RunningOperatorManager<M>;
    try {
      running = await startOperatorManager({
        identity: { kubeConfig: proxy.kubeConfig() },
        createManager: (settings) => scenario.createManager({ ...settings, logDestination }),
        setup: scenario.setup,
        timeoutMs: settleTimeoutMs,
      });
    } catch (error) {
      failedToStart = true;
      muted.value = true;
      await proxy.sever();
      throw error;
    }
    led.value = true;
    for (const problem of startupErrors) violation(problem);
    incarnation = { proxy, running, muted };
    started(incarnation);
    if (record.startupRequests === 0) record.startupRequests = counters.requests;
  };

  /**
   * Starts the operator, and starts it again while it fails to start (as the kubelet
   * restarts a container that exited), for up to `settleTimeoutMs`.
   *
   * @throws the last start's error once that time is up.
   */
  const start = async (): Promise<void> => {
    const stale = staleNextStart;
    staleNextStart = undefined;
    const deadline = Date.now() + settleTimeoutMs;
    for (let attempt = 1; ; attempt++) {
      try {
        await startOnce(stale);
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

  try {
    await start();
    for (const [index, step] of scenario.steps.entries()) {
      stepName = step.name;
      await applyStep(env.kubeConfig, namespace, step);
      lastWriteAt = Date.now();
      const outcome = await settle({
        read: () => readOutcome(env.kubeConfig, { namespace, ...scenario.outcome }),
        expected: reference?.outcomes[index],
        quiet: () => Date.now() - lastWriteAt >= quietMs,
        stuck: () => Date.now() - lastWriteAt >= stuckMs,
        pending: () => restarting,
        settleTimeoutMs,
        ...(step.settledWhen ? { settledWhen: step.settledWhen } : {}),
      });
      record.outcomes.push(outcome.outcome);
      if (outcome.problem) violation(outcome.problem);
      if (record.violations.length > 0) break;
    }
    await restarting;
    if (reference)
      for (const deletion of new Set(record.deletions))
        if (!reference.deletions.includes(deletion))
          violation(`deleted ${deletion}, which the reference run never deleted (a live child)`);
  } finally {
    await restarting.catch(() => undefined);
    finished = true;
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
    process.off('unhandledRejection', onRejection);
    record.requests = counters.requests;
    await env.stop();
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
      if (Date.now() > deadline) break;
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
    if (Date.now() > deadline) break;
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
