import type { DifferenceKind } from './compare.js';
import { type NormalizationRule, normalizationRules } from './normalize.js';
import type { CorpusResult, ExchangeResult, ScenarioFailure } from './run-corpus.js';
import type { FidelityScenario } from './scenario.js';

/** Like differences of several requests: one field pattern, one kind. */
export interface DifferenceGroup {
  pattern: string;
  kind: DifferenceKind;
  /** How many requests differ this way. */
  requests: number;
  /** How many of them differ in no other way: the requests that would match without it. */
  alone: number;
  /** The ids of those requests. */
  exchanges: string[];
}

/** The fidelity report: what `pnpm fidelity` prints and writes with `--json`. */
export interface FidelityReport {
  /** The servers' `gitVersion`s. */
  servers: { local: string; real: string };
  requests: number;
  matches: number;
  scenarios: Array<{ name: string; description: string; requests: number; matches: number }>;
  failures: ScenarioFailure[];
  /** Largest group first. */
  groups: DifferenceGroup[];
  /** Every request, matching or not, in the order sent. */
  exchanges: ExchangeResult[];
  normalizations: readonly NormalizationRule[];
}

/** Builds the report of one run of `corpus`. */
export function buildReport(
  corpus: readonly FidelityScenario[],
  result: CorpusResult,
  servers: FidelityReport['servers'],
): FidelityReport {
  const groups = new Map<string, DifferenceGroup>();
  for (const exchange of result.exchanges) {
    for (const difference of exchange.differences) {
      const key = `${difference.pattern}\u0000${difference.kind}`;
      const group = groups.get(key) ?? {
        pattern: difference.pattern,
        kind: difference.kind,
        requests: 0,
        alone: 0,
        exchanges: [],
      };
      if (group.exchanges.at(-1) !== exchange.id) {
        group.exchanges.push(exchange.id);
        group.requests++;
      }
      groups.set(key, group);
    }
    const keys = new Set(exchange.differences.map((d) => `${d.pattern}\u0000${d.kind}`));
    const [only] = keys;
    if (keys.size === 1 && only !== undefined) {
      const group = groups.get(only);
      if (group) group.alone++;
    }
  }
  return {
    servers,
    requests: result.exchanges.length,
    matches: result.exchanges.filter((exchange) => exchange.match).length,
    scenarios: corpus.map((scenario) => {
      const own = result.exchanges.filter((exchange) => exchange.scenario === scenario.name);
      return {
        name: scenario.name,
        description: scenario.description,
        requests: own.length,
        matches: own.filter((exchange) => exchange.match).length,
      };
    }),
    failures: result.failures,
    groups: [...groups.values()].sort(
      (a, b) => b.requests - a.requests || (a.pattern < b.pattern ? -1 : 1),
    ),
    exchanges: result.exchanges,
    normalizations: normalizationRules,
  };
}

const absent = '(absent)';

/** A value on one line, cut to `width` characters. */
export function preview(value: unknown, width = 100): string {
  const text = value === undefined ? absent : JSON.stringify(value);
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '0%' : `${((100 * part) / whole).toFixed(1)}%`;
}

/**
 * The report as text: the totals, the scenarios, the differences grouped by field, then each
 * differing request with each differing field and both values (cut to one line each).
 */
export function formatReport(report: FidelityReport): string {
  const lines: string[] = [];
  lines.push(
    `Fidelity of the local API server (${report.servers.local}) against kube-apiserver ${report.servers.real}`,
    `${report.requests} requests, ${report.matches} match (${percent(report.matches, report.requests)}), ${report.requests - report.matches} differ`,
    '',
    'Scenarios (matching/requests):',
  );
  const nameWidth = Math.max(...report.scenarios.map((scenario) => scenario.name.length), 8);
  for (const scenario of report.scenarios) {
    lines.push(
      `  ${scenario.name.padEnd(nameWidth)}  ${`${scenario.matches}/${scenario.requests}`.padStart(7)}  ${scenario.description}`,
    );
  }
  if (report.failures.length > 0) {
    lines.push('', 'Scenarios that stopped early:');
    for (const failure of report.failures)
      lines.push(`  ${failure.scenario} on the ${failure.server} server: ${failure.message}`);
  }
  if (report.groups.length > 0) {
    lines.push(
      '',
      'Differences by field (requests that differ so; of them, requests that differ in nothing else):',
    );
    for (const group of report.groups) {
      lines.push(
        `  ${String(group.requests).padStart(4)} ${String(group.alone).padStart(4)}  ${group.pattern}  ${group.kind}`,
      );
    }
    lines.push('', 'Each difference (local vs real):');
    for (const exchange of report.exchanges) {
      if (exchange.match) continue;
      lines.push(`  ${exchange.id}  (${exchange.method} ${exchange.path})`);
      for (const difference of exchange.differences) {
        lines.push(
          `    ${difference.path}: ${preview(difference.local)}  vs  ${preview(difference.real)}`,
        );
      }
    }
  }
  lines.push(
    '',
    `Normalized before comparing: ${report.normalizations.map((rule) => rule.name).join(', ')} (see tools/fidelity/README.md).`,
  );
  return lines.join('\n');
}
