import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import type { ControlPlaneKind } from '../environment.js';
import type { OperatorManagerLike } from '../operator-manager.js';
import { type RunLimits, type RunRecord, runScenario, type Scenario } from './run.js';
import { RunPlane } from './run-plane.js';
import {
  explorationSchedule,
  type PerturbationKind,
  parseScheduleId,
  quickSchedules,
  type ReferenceShape,
  type Schedule,
  scheduleId,
} from './schedule.js';

/** The environment variable that makes {@link exploreQuick} replay one schedule by its id. */
export const replayVariable = 'OPS_EXPLORE_REPLAY';

/** A schedule that broke an oracle. */
export interface ExplorationFailure {
  id: string;
  /** The report {@link describeFailure} prints: seed, perturbation, step, what went wrong, logs, replay command. */
  message: string;
}

/** What an exploration ran and found. */
export interface ExplorationReport {
  scenario: string;
  /** The control plane the runs happened on. */
  plane: ControlPlaneKind;
  /** What the reference run did. */
  reference: ReferenceShape & { durationMs: number };
  /** The ids of the schedules run by this call, in order. */
  schedules: string[];
  /** Schedules run in all: with a resumed exploration, those of the earlier runs too. */
  done: number;
  failures: ExplorationFailure[];
  /** How many times each kind of perturbation acted (a perturbation whose write never came does not count). */
  coverage: Partial<Record<PerturbationKind, number>>;
  /** How many schedules crashed the operator after its N-th write, per N. */
  crashPoints: Record<number, number>;
  durationMs: number;
}

/** Options of the explorers. */
export interface ExploreOptions extends RunLimits {
  /**
   * The control plane, overriding the scenario's `environment.controlPlane` (default: the
   * scenario's, resolved as `Environment.start` does; `auto` follows
   * `OPS_ENVTEST_CONTROL_PLANE`). On the real planes one control plane serves the whole call,
   * each run in a namespace of its own (see {@link RunPlane}).
   */
  controlPlane?: ControlPlaneKind | 'auto';
  /**
   * The plane to run on, started by the caller ({@link RunPlane.start}) and stopped by it,
   * instead of one started and stopped by this call: several explorations of scenarios with
   * the same CRDs then share one real control plane (a test file's, say). `controlPlane` is
   * then ignored.
   */
  plane?: RunPlane;
  /** Base seed of the drawn schedules (default 1). */
  seed?: number;
  /** Stop at the first failing schedule (default true). */
  stopAtFirstFailure?: boolean;
  /**
   * How many schedules run at once on the local plane (default 1), each with an API server
   * and an operator of its own in this process: the runs mostly wait (for a step to go
   * quiet), so a few at once take little more time than one. The report is the same as one
   * at a time: schedules in order, nothing past the first failure when stopping there. Ignored
   * on the real planes, where runs share a control plane the operator watches whole. An
   * unhandled rejection is then a violation of every run that was going on.
   */
  concurrency?: number;
  /**
   * The command that replays a schedule, given its id, printed with a failure (default:
   * `OPS_EXPLORE_REPLAY='<id>' pnpm vitest run`).
   */
  replayCommand?: (id: string) => string;
  /** Told of each schedule once run (for progress lines). */
  onSchedule?: (id: string, failed: boolean, done: number) => void;
}

const defaultReplay = (id: string) => `${replayVariable}='${id}' pnpm vitest run`;

function describePerturbations(schedule: Schedule, record: RunRecord): string {
  return schedule.perturbations
    .map((p) => {
      const at = 'afterWrite' in p ? p.afterWrite : 'write' in p ? p.write : undefined;
      const write = at === undefined ? '' : record.writeDetails[at - 1];
      return `${JSON.stringify(p)}${write ? ` at write ${write}` : ''}`;
    })
    .join('; ');
}

/** The failure report of a schedule: everything needed to understand and replay it. */
export function describeFailure(
  scenario: string,
  schedule: Schedule,
  record: RunRecord,
  replayCommand: (id: string) => string = defaultReplay,
): string {
  const id = scheduleId(schedule);
  const reconcileLines = record.logs
    .filter((line) => /reconcil|"controller"/.test(line))
    .slice(-20);
  return [
    `fault exploration of scenario "${scenario}" found a bug`,
    `  schedule: ${id}`,
    `  seed: ${schedule.seed}`,
    `  perturbation: ${describePerturbations(schedule, record)}`,
    `  operator restarts: ${record.restarts}`,
    '  what went wrong:',
    ...record.violations.map((violation) => `    - ${violation}`),
    "  the operator's writes:",
    ...record.writeDetails.slice(-15).map((write) => `    ${write}`),
    "  the last reconciles' log lines:",
    ...(reconcileLines.length > 0 ? reconcileLines : record.logs.slice(-20)).map(
      (line) => `    ${line}`,
    ),
    `  replay: ${replayCommand(id)}`,
  ].join('\n');
}

/**
 * Runs the scenario undisturbed on `plane` (default: a plane of its own, stopped after);
 * throws when even that run breaks an oracle. The shape's `excludedKinds` are the kinds the
 * plane cannot perform.
 */
export async function referenceRun<M extends OperatorManagerLike>(
  scenario: Scenario<M>,
  limits: RunLimits = {},
  plane?: RunPlane,
): Promise<{ record: RunRecord; shape: ReferenceShape & { durationMs: number } }> {
  const runPlane = plane ?? (await RunPlane.start(scenario));
  try {
    return await referenceOnPlane(scenario, limits, runPlane);
  } finally {
    if (plane === undefined) await runPlane.stop();
  }
}

async function referenceOnPlane<M extends OperatorManagerLike>(
  scenario: Scenario<M>,
  limits: RunLimits,
  plane: RunPlane,
): Promise<{ record: RunRecord; shape: ReferenceShape & { durationMs: number } }> {
  const started = Date.now();
  const record = await runScenario(
    scenario,
    undefined,
    undefined,
    { ...limits, quietMs: Math.max(1_000, limits.quietMs ?? 0) },
    plane,
  );
  if (record.violations.length > 0)
    throw new Error(
      `the reference (undisturbed) run of scenario "${scenario.name}" already fails, so nothing can be explored:\n${record.violations.join('\n')}\n${record.logs.slice(-20).join('\n')}`,
    );
  return {
    record,
    shape: {
      writes: record.writes,
      requests: record.requests,
      startupRequests: record.startupRequests,
      watched: [...record.watched].sort(),
      steps: scenario.steps.length,
      webhooks: scenario.webhooks !== undefined,
      excludedKinds: Object.keys(plane.excludedKinds) as PerturbationKind[],
      durationMs: Date.now() - started,
    },
  };
}

/**
 * Runs the schedules `next` gives (by index, until it gives none) on `plane`, adding each to
 * `report` in index order whatever order they finish in. On the local plane, where each run
 * has an API server of its own, up to `options.concurrency` run at once; on the real planes,
 * one at a time (a run's operator watches the whole cluster, and an API server restart would
 * reach every run). With `stopAtFirstFailure`, nothing past the first failing index is
 * reported, so the report is the one a run one at a time gives.
 */
async function runSchedules<M extends OperatorManagerLike>(
  scenario: Scenario<M>,
  reference: { record: RunRecord; shape: ReferenceShape & { durationMs: number } },
  next: (index: number) => Schedule | undefined,
  options: ExploreOptions,
  report: ExplorationReport,
  plane: RunPlane,
): Promise<void> {
  const concurrency =
    plane.kind === 'local' ? Math.max(1, Math.floor(options.concurrency ?? 1)) : 1;
  const finished = new Map<number, { schedule: Schedule; record: RunRecord }>();
  let dispatched = 0;
  let reported = 0;
  let stopped = false;
  const reportFinished = () => {
    for (
      let done = finished.get(reported);
      done !== undefined && !stopped;
      done = finished.get(reported)
    ) {
      finished.delete(reported);
      reported += 1;
      const { schedule, record } = done;
      const id = scheduleId(schedule);
      report.schedules.push(id);
      for (const p of record.fired) {
        report.coverage[p.kind] = (report.coverage[p.kind] ?? 0) + 1;
        if (p.kind === 'crash')
          report.crashPoints[p.afterWrite] = (report.crashPoints[p.afterWrite] ?? 0) + 1;
      }
      const failed = record.violations.length > 0;
      if (failed)
        report.failures.push({
          id,
          message: describeFailure(scenario.name, schedule, record, options.replayCommand),
        });
      options.onSchedule?.(id, failed, report.schedules.length);
      if (failed && options.stopAtFirstFailure !== false) stopped = true;
    }
  };
  const worker = async () => {
    while (!stopped) {
      const index = dispatched;
      const schedule = next(index);
      if (schedule === undefined) return;
      dispatched += 1;
      const record = await runScenario(scenario, schedule, reference.record, options, plane);
      finished.set(index, { schedule, record });
      reportFinished();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

function newReport(
  scenario: string,
  plane: ControlPlaneKind,
  shape: ExplorationReport['reference'],
): ExplorationReport {
  return {
    scenario,
    plane,
    reference: shape,
    schedules: [],
    done: 0,
    failures: [],
    coverage: {},
    crashPoints: {},
    durationMs: 0,
  };
}

/**
 * How many schedules quick mode runs on each kind of plane: a schedule on the real planes
 * costs about three times a local one (a namespace made and removed, kube-apiserver's slower
 * writes), so a suite that runs on both usually asks fewer of them there.
 */
export interface PlaneLimits {
  /** On the local plane. */
  local: number;
  /** On the `binaries` and `cluster` planes. */
  real: number;
}

/** Options of quick mode: which schedules, at most how many (per plane, or on any). */
export interface QuickExploreOptions extends ExploreOptions {
  /** At most this many schedules (default 30), or per plane. */
  limit?: number | PlaneLimits;
  /** Only the quick schedules of these perturbation kinds, in the same order. */
  kinds?: readonly PerturbationKind[];
}

/**
 * Quick mode: the reference run, then at most `limit` (default 30; per plane with
 * {@link PlaneLimits}) schedules of
 * {@link quickSchedules} (a crash after every write of the reference run, then each other
 * perturbation; only those of `kinds` when given), or only the schedule named by
 * `OPS_EXPLORE_REPLAY` when that is set. Meant
 * for an operator's ordinary test suite: assert `report.failures` is empty.
 *
 * @throws {Error} when the reference run fails, or the replayed id is not a schedule id.
 */
export async function exploreQuick<M extends OperatorManagerLike>(
  scenario: Scenario<M>,
  options: QuickExploreOptions = {},
): Promise<ExplorationReport> {
  const started = Date.now();
  const plane = await startPlane(scenario, options);
  try {
    const reference = await referenceRun(scenario, options, plane);
    const replay = process.env[replayVariable];
    const excluded = reference.shape.excludedKinds ?? [];
    const schedules =
      replay !== undefined && replay !== ''
        ? [parseScheduleId(replay)]
        : quickSchedules(reference.shape, {
            seed: options.seed ?? 1,
            limit:
              typeof options.limit === 'object'
                ? options.limit[plane.kind === 'local' ? 'local' : 'real']
                : (options.limit ?? 30),
            ...(options.kinds === undefined ? {} : { kinds: options.kinds }),
          }).filter((schedule) => schedule.perturbations.every((p) => !excluded.includes(p.kind)));
    const report = newReport(scenario.name, plane.kind, reference.shape);
    await runSchedules(scenario, reference, (done) => schedules[done], options, report, plane);
    return finishQuick(report, started, replay);
  } finally {
    if (plane !== options.plane) await plane.stop();
  }
}

function startPlane<M extends OperatorManagerLike>(
  scenario: Scenario<M>,
  options: ExploreOptions,
): Promise<RunPlane> {
  if (options.plane) return Promise.resolve(options.plane);
  return RunPlane.start(
    scenario,
    options.controlPlane === undefined ? {} : { controlPlane: options.controlPlane },
  );
}

function finishQuick(
  report: ExplorationReport,
  started: number,
  replay: string | undefined,
): ExplorationReport {
  report.done = report.schedules.length;
  report.durationMs = Date.now() - started;
  // A replay is run to be read: its failure goes to stderr whatever the test asserts.
  if (replay) for (const failure of report.failures) process.stderr.write(`${failure.message}\n`);
  return report;
}

/** What exploration mode keeps between runs (see {@link exploreLong}). */
interface ExplorationState {
  scenario: string;
  seed: number;
  /** The plane the schedules ran on (absent in files written before planes were recorded). */
  plane?: ControlPlaneKind;
  /** Schedules done so far. */
  done: number;
  failures: ExplorationFailure[];
  coverage: Partial<Record<PerturbationKind, number>>;
  crashPoints: Record<number, number>;
  durationMs: number;
}

/**
 * Exploration mode: the reference run, then `schedules` schedules of
 * {@link explorationSchedule} (one or two random perturbations each), every failure kept
 * (it does not stop at the first). With `statePath`, resumable: the state file (JSON) is
 * written after every schedule, and a later call with the same file goes on where it
 * stopped, up to `schedules` in all; the report covers every run so far.
 *
 * @throws {Error} when the reference run fails, or the state file belongs to another
 *   scenario or seed.
 */
export async function exploreLong<M extends OperatorManagerLike>(
  scenario: Scenario<M>,
  options: ExploreOptions & { schedules: number; statePath?: string },
): Promise<ExplorationReport> {
  const seed = options.seed ?? 1;
  const state: ExplorationState =
    options.statePath && existsSync(options.statePath)
      ? (JSON.parse(await readFile(options.statePath, 'utf8')) as ExplorationState)
      : {
          scenario: scenario.name,
          seed,
          done: 0,
          failures: [],
          coverage: {},
          crashPoints: {},
          durationMs: 0,
        };
  if (state.scenario !== scenario.name || state.seed !== seed)
    throw new Error(
      `the exploration state file ${options.statePath} is of scenario "${state.scenario}" with seed ${state.seed}, not "${scenario.name}" with seed ${seed}: pass another --state file, or remove it to start over`,
    );
  const plane = await startPlane(scenario, options);
  try {
    if (state.plane !== undefined && state.plane !== plane.kind)
      throw new Error(
        `the exploration state file ${options.statePath} is of a run on the ${state.plane} plane, not ${plane.kind}: pass another --state file per plane (their rates and draws differ), or --plane ${state.plane}`,
      );
    state.plane = plane.kind;
    return await exploreOnPlane(scenario, options, state, plane);
  } finally {
    if (plane !== options.plane) await plane.stop();
  }
}

async function exploreOnPlane<M extends OperatorManagerLike>(
  scenario: Scenario<M>,
  options: ExploreOptions & { schedules: number; statePath?: string },
  state: ExplorationState,
  plane: RunPlane,
): Promise<ExplorationReport> {
  const seed = state.seed;
  const started = Date.now();
  const reference = await referenceRun(scenario, options, plane);
  const report = newReport(scenario.name, plane.kind, reference.shape);
  report.failures = state.failures;
  report.coverage = state.coverage;
  report.crashPoints = state.crashPoints;
  const save = async () => {
    if (!options.statePath) return;
    const next: ExplorationState = {
      ...state,
      done: state.done + report.schedules.length,
      failures: report.failures,
      coverage: report.coverage,
      crashPoints: report.crashPoints,
      durationMs: state.durationMs + (Date.now() - started),
    };
    await writeFile(`${options.statePath}.tmp`, `${JSON.stringify(next, null, 2)}\n`);
    await rename(`${options.statePath}.tmp`, options.statePath);
  };
  let saving = Promise.resolve();
  await runSchedules(
    scenario,
    reference,
    (done) =>
      state.done + done < options.schedules
        ? explorationSchedule(reference.shape, seed, state.done + done)
        : undefined,
    {
      ...options,
      stopAtFirstFailure: false,
      onSchedule: (id, failed, done) => {
        options.onSchedule?.(id, failed, state.done + done);
        saving = saving.then(save);
      },
    },
    report,
    plane,
  );
  await saving;
  await save();
  report.done = state.done + report.schedules.length;
  report.durationMs = state.durationMs + (Date.now() - started);
  return report;
}

/** A summary of a report: schedules, failures, coverage per perturbation kind, crash points, rate. */
export function summarize(report: ExplorationReport): string {
  const minutes = report.durationMs / 60_000;
  const rate = minutes > 0 ? (report.done / minutes).toFixed(1) : 'n/a';
  return [
    `scenario "${report.scenario}" on the ${report.plane} plane: ${report.schedules.length} schedule(s) this run, ${report.done} in all, ${report.failures.length} failure(s) in all, ${(report.durationMs / 1000).toFixed(1)} s in all (${rate} schedules/min)`,
    `  reference run: ${report.reference.writes.length} write(s), ${report.reference.requests} request(s), ${report.reference.durationMs} ms`,
    `  covered: ${Object.entries(report.coverage)
      .map(([kind, count]) => `${kind} ${count}`)
      .join(', ')}`,
    `  crashes after write N: ${Object.entries(report.crashPoints)
      .map(([n, count]) => `${n}×${count}`)
      .join(' ')}`,
    ...report.failures.map((failure) => `  FAILED ${failure.id}`),
  ].join('\n');
}
