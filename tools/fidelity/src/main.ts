import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ControlPlaneAssetsError } from '@ops/envtest';
import type { Logger } from 'pino';
import { buildReport, type FidelityReport, formatReport } from './report.js';
import { runCorpus } from './run-corpus.js';
import type { FidelityScenario } from './scenario.js';
import type { Servers } from './start-servers.js';
import type { Target } from './target.js';

/** What {@link main} needs from outside: passed in, so tests can replace any of it. */
export interface FidelityDependencies {
  corpus: readonly FidelityScenario[];
  startServers(log: Logger): Promise<Servers>;
  log: Logger;
  /** Writes the report (text) to standard output. */
  out(text: string): void;
  /** Writes usage errors and messages for the user to standard error. */
  err(text: string): void;
}

export const usage = `usage: ops-fidelity [--json FILE] [--only NAMES] [--list]

Starts the local API server and the real kube-apiserver (etcd + kube-apiserver from
KUBEBUILDER_ASSETS or the project's cache, built with Go when absent), sends both the same
corpus of requests, compares the answers after normalizing what legitimately differs, and
prints the number of requests, how many match, and each difference.

options:
  --json FILE    also write the whole report as JSON to FILE
  --only NAMES   run only these scenarios (comma-separated names or areas: crud,watch/replay)
  --list         list the scenarios and exit
  -h, --help     show this help

Exits 0 when the report was made, whatever it found; 1 when the servers cannot be started
(the message says why); 2 on a usage error.`;

/**
 * Runs the CLI with `args` (without node and the script). Resolves with the exit status:
 * 0 when the report was made (differences are its content, not a failure), 1 when it cannot
 * run (the real control plane is missing and cannot be built, a server does not start),
 * 2 on a usage error.
 */
export async function main(args: readonly string[], deps: FidelityDependencies): Promise<number> {
  let values: { json?: string; only?: string; list?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        json: { type: 'string' },
        only: { type: 'string' },
        list: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    deps.err(`ops-fidelity: ${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  if (values.help) {
    deps.out(usage);
    return 0;
  }
  if (values.list) {
    const width = Math.max(...deps.corpus.map((scenario) => scenario.name.length));
    deps.out(
      deps.corpus
        .map((scenario) => `${scenario.name.padEnd(width)}  ${scenario.description}`)
        .join('\n'),
    );
    return 0;
  }
  let corpus = deps.corpus;
  if (values.only !== undefined) {
    const wanted = values.only
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
    const unknown = wanted.filter(
      (name) => !deps.corpus.some((scenario) => selects(name, scenario.name)),
    );
    if (wanted.length === 0 || unknown.length > 0) {
      deps.err(
        `ops-fidelity: --only names no scenario: ${unknown.join(', ') || '(empty)'}; --list shows the scenarios`,
      );
      return 2;
    }
    corpus = deps.corpus.filter((scenario) => wanted.some((name) => selects(name, scenario.name)));
  }
  let servers: Servers;
  try {
    servers = await deps.startServers(deps.log);
  } catch (error) {
    const message = ControlPlaneAssetsError.isInstance(error)
      ? error.message
      : `the servers did not start: ${error instanceof Error ? error.message : String(error)}`;
    deps.err(`ops-fidelity: ${message}`);
    return 1;
  }
  let report: FidelityReport;
  try {
    const versions = {
      local: await gitVersion(servers.local),
      real: await gitVersion(servers.real),
    };
    deps.log.info({ servers: versions, scenarios: corpus.length }, 'sending the corpus');
    const result = await runCorpus(corpus, servers.local, servers.real, (scenario, exchanges) =>
      deps.log.info(
        {
          scenario: scenario.name,
          requests: exchanges.length,
          matches: exchanges.filter((exchange) => exchange.match).length,
        },
        'scenario compared',
      ),
    );
    report = buildReport(corpus, result, versions);
  } finally {
    await servers.stop();
  }
  deps.out(formatReport(report));
  if (values.json !== undefined) {
    const file = resolve(values.json);
    await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
    deps.log.info({ file }, 'report written');
  }
  return 0;
}

/** A scenario is selected by its whole name or by its area (the part before `/`). */
function selects(name: string, scenario: string): boolean {
  return scenario === name || scenario.startsWith(`${name}/`);
}

async function gitVersion(target: Target): Promise<string> {
  const answer = await target.send({ method: 'GET', path: '/version' });
  const version = (answer.body as { gitVersion?: unknown } | null)?.gitVersion;
  if (answer.status !== 200 || typeof version !== 'string')
    throw new Error(
      `the ${target.name} server answered /version with ${answer.status}: ${JSON.stringify(answer.body)}`,
    );
  return version;
}
