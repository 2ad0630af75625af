import { readFile, writeFile } from 'node:fs/promises';
import type { FidelityReport } from './report.js';

/**
 * The environment variable that makes the end-to-end fidelity test rewrite the ratchet file
 * from its run instead of checking against it: `OPS_FIDELITY_RATCHET=update`.
 */
export const ratchetUpdateVariable = 'OPS_FIDELITY_RATCHET';

/** The command that raises the ratchet, as the test's messages print it. */
export const ratchetUpdateCommand = `${ratchetUpdateVariable}=update OPS_CONTROL_PLANE_CACHE=<cache> pnpm --filter @ops/fidelity test:binaries`;

/**
 * The last recorded fidelity, committed in the repository (`tools/fidelity/ratchet.json`):
 * how many requests of the corpus matched kube-apiserver, and which. The end-to-end test
 * fails when fewer match or when one of these stops matching.
 */
export interface Ratchet {
  /** The kube-apiserver the count was recorded against (`v1.37.2`). */
  kubernetes: string;
  requests: number;
  matches: number;
  /** The ids (`scenario: label`) of the matching requests, sorted. */
  matching: string[];
}

/** How a run compares with the ratchet. */
export interface RatchetCheck {
  /** Ids the ratchet records as matching that do not match now (or are no longer sent). */
  regressed: string[];
  /** Ids matching now that the ratchet does not record. */
  improved: string[];
  /** Requests matching now. */
  matches: number;
  /** Whether the run holds the ratchet: nothing regressed and no fewer matches. */
  holds: boolean;
}

/** The ratchet a report records. */
export function ratchetOf(report: FidelityReport): Ratchet {
  return {
    kubernetes: report.servers.real,
    requests: report.requests,
    matches: report.matches,
    matching: report.exchanges
      .filter((exchange) => exchange.match)
      .map((exchange) => exchange.id)
      .sort(),
  };
}

/** Compares a report with the ratchet. */
export function checkRatchet(ratchet: Ratchet, report: FidelityReport): RatchetCheck {
  const now = ratchetOf(report);
  const matchingNow = new Set(now.matching);
  const recorded = new Set(ratchet.matching);
  const regressed = ratchet.matching.filter((id) => !matchingNow.has(id));
  const improved = now.matching.filter((id) => !recorded.has(id));
  return {
    regressed,
    improved,
    matches: now.matches,
    holds: regressed.length === 0 && now.matches >= ratchet.matches,
  };
}

/**
 * What a check means for the reader: which requests regressed (each by id, with whether it
 * is still sent), or that fidelity improved and how to raise the ratchet; empty when the run
 * matches the ratchet exactly.
 */
export function describeRatchetCheck(
  ratchet: Ratchet,
  check: RatchetCheck,
  report: FidelityReport,
): string {
  const sent = new Set(report.exchanges.map((exchange) => exchange.id));
  const lines: string[] = [];
  if (!check.holds) {
    lines.push(
      `fidelity fell below the ratchet: ${check.matches} of ${report.requests} requests match, the ratchet records ${ratchet.matches} of ${ratchet.requests} (tools/fidelity/ratchet.json).`,
    );
    if (check.regressed.length > 0) {
      lines.push(`These requests matched kube-apiserver ${ratchet.kubernetes} and no longer do:`);
      for (const id of check.regressed)
        lines.push(`  - ${id}${sent.has(id) ? '' : ' (no longer in the corpus)'}`);
    }
    lines.push(
      'Fix the regression; if a request was renamed or removed on purpose, rewrite the ratchet with:',
    );
  } else if (check.improved.length > 0 || check.matches > ratchet.matches) {
    lines.push(
      `fidelity improved: ${check.matches} of ${report.requests} requests match, the ratchet records ${ratchet.matches}. Newly matching:`,
    );
    for (const id of check.improved) lines.push(`  - ${id}`);
    lines.push('Raise the ratchet (and commit tools/fidelity/ratchet.json) with:');
  } else {
    return '';
  }
  lines.push(`  ${ratchetUpdateCommand}`);
  return lines.join('\n');
}

/**
 * Reads a ratchet file.
 *
 * @throws {Error} when the file is missing or not a ratchet, saying how to write one.
 */
export async function readRatchet(path: string): Promise<Ratchet> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new Error(
      `cannot read the fidelity ratchet ${path} (${(error as Error).message}); write it with: ${ratchetUpdateCommand}`,
    );
  }
  const value = JSON.parse(text) as Partial<Ratchet>;
  if (
    typeof value.kubernetes !== 'string' ||
    typeof value.requests !== 'number' ||
    typeof value.matches !== 'number' ||
    !Array.isArray(value.matching) ||
    !value.matching.every((id) => typeof id === 'string')
  ) {
    throw new Error(
      `${path} is not a fidelity ratchet (kubernetes, requests, matches, matching[]); rewrite it with: ${ratchetUpdateCommand}`,
    );
  }
  return value as Ratchet;
}

/** Writes a ratchet file: stable JSON, one matching id per line, so diffs show what changed. */
export async function writeRatchet(path: string, ratchet: Ratchet): Promise<void> {
  await writeFile(path, `${JSON.stringify(ratchet, null, 2)}\n`);
}
