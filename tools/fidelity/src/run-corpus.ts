import { compareAnswers, type Difference } from './compare.js';
import { normalizeAnswer } from './normalize.js';
import type {
  Answer,
  CompareOptions,
  FidelityRequest,
  FidelityScenario,
  Session,
} from './scenario.js';
import type { Target } from './target.js';

/** One request of the corpus, as both servers answered it. */
export interface ExchangeResult {
  /** `<scenario>: <label>`, unique in a run. */
  id: string;
  scenario: string;
  label: string;
  method: FidelityRequest['method'];
  /** The path as sent to kube-apiserver (the local server's differs only in derived tokens). */
  path: string;
  /** Whether the normalized answers are equal. */
  match: boolean;
  differences: Difference[];
  /** The answers' statuses, for the report. */
  status: { local?: number; real?: number };
}

/** A scenario that stopped on one server before sending all its requests. */
export interface ScenarioFailure {
  scenario: string;
  server: Target['name'];
  message: string;
}

/** What {@link runCorpus} measured. */
export interface CorpusResult {
  exchanges: ExchangeResult[];
  failures: ScenarioFailure[];
}

interface Recorded {
  request: FidelityRequest;
  compare: CompareOptions;
  answer: Answer;
}

function recordingSession(target: Target, scenario: string) {
  const records = new Map<string, Recorded>();
  const session: Session = {
    async send(label, request, compare = {}) {
      if (records.has(label))
        throw new Error(
          `scenario ${scenario} sends two requests labelled "${label}"; labels must be unique within a scenario`,
        );
      const answer = await target.send(request);
      records.set(label, { request, compare, answer });
      return answer;
    },
    probe: (request) => target.send(request),
  };
  return { session, records };
}

/**
 * Runs each scenario of `corpus`, in order, on both servers at once, and compares every
 * answer of the local server with kube-apiserver's after normalizing both. A request that only
 * one server was sent (its scenario stopped early on the other) is a difference at
 * `(request)`. A scenario that throws is reported in `failures`; the run goes on.
 *
 * @param onScenario called after each scenario, for progress.
 */
export async function runCorpus(
  corpus: readonly FidelityScenario[],
  local: Target,
  real: Target,
  onScenario: (scenario: FidelityScenario, exchanges: readonly ExchangeResult[]) => void = () =>
    undefined,
): Promise<CorpusResult> {
  const exchanges: ExchangeResult[] = [];
  const failures: ScenarioFailure[] = [];
  for (const scenario of corpus) {
    const sides = [
      recordingSession(local, scenario.name),
      recordingSession(real, scenario.name),
    ] as const;
    const outcomes = await Promise.allSettled(sides.map((side) => scenario.run(side.session)));
    outcomes.forEach((outcome, index) => {
      if (outcome.status === 'rejected') {
        failures.push({
          scenario: scenario.name,
          server: index === 0 ? 'local' : 'real',
          message:
            outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason),
        });
      }
    });
    const [localRecords, realRecords] = [sides[0].records, sides[1].records];
    const labels = [...new Set([...realRecords.keys(), ...localRecords.keys()])];
    const results = labels.map((label) =>
      compareExchange(scenario.name, label, localRecords.get(label), realRecords.get(label)),
    );
    exchanges.push(...results);
    onScenario(scenario, results);
  }
  return { exchanges, failures };
}

function compareExchange(
  scenario: string,
  label: string,
  local: Recorded | undefined,
  real: Recorded | undefined,
): ExchangeResult {
  const sent = (real ?? local) as Recorded;
  const base = {
    id: `${scenario}: ${label}`,
    scenario,
    label,
    method: sent.request.method,
    path: sent.request.path,
  };
  if (local === undefined || real === undefined) {
    const difference: Difference =
      local === undefined
        ? { path: '(request)', pattern: '(request)', kind: 'missing locally', real: 'sent' }
        : { path: '(request)', pattern: '(request)', kind: 'only locally', local: 'sent' };
    return {
      ...base,
      match: false,
      differences: [difference],
      status: {
        ...(local ? { local: local.answer.status } : {}),
        ...(real ? { real: real.answer.status } : {}),
      },
    };
  }
  const differences = compareAnswers(
    normalizeAnswer(local.answer, real.compare),
    normalizeAnswer(real.answer, real.compare),
  );
  return {
    ...base,
    match: differences.length === 0,
    differences,
    status: { local: local.answer.status, real: real.answer.status },
  };
}
