/**
 * The `ops-operator` command, as a function: global options, the verb, its help, and
 * errors printed as `ops-operator <verb>: <message>`.
 */
import { resolve } from 'node:path';
import { OperatorCliError } from './errors/operator-cli-error.js';
import { loadOperatorProject, type OperatorProject } from './operator-project.js';
import type { Verb, VerbContext } from './verb.js';
import { buildInstallerVerb } from './verbs/build-installer.js';
import { installCrdsVerb, uninstallCrdsVerb } from './verbs/crds.js';
import { createVerb } from './verbs/create.js';
import { deployVerb, undeployVerb } from './verbs/deploy.js';
import { dockerBuildVerb, dockerBuildxVerb, dockerPushVerb } from './verbs/docker.js';
import { helmVerb } from './verbs/helm.js';
import { initVerb } from './verbs/init.js';
import { manifestsVerb } from './verbs/manifests.js';
import { newVerb } from './verbs/new.js';
import { runVerb } from './verbs/run.js';
import { webhookCertsVerb } from './verbs/webhook-certs.js';
import { webhookLocalVerb } from './verbs/webhook-local.js';

/**
 * Every verb, in the order `--help` lists them: `init`, `create` and `new` (kubebuilder's
 * init, create api / create webhook, and init + create api inside this repository), then
 * kubebuilder's Makefile order.
 */
export const verbs: readonly Verb[] = [
  initVerb,
  createVerb,
  newVerb,
  manifestsVerb,
  installCrdsVerb,
  uninstallCrdsVerb,
  runVerb,
  webhookLocalVerb,
  webhookCertsVerb,
  deployVerb,
  undeployVerb,
  buildInstallerVerb,
  helmVerb,
  dockerBuildVerb,
  dockerPushVerb,
  dockerBuildxVerb,
];

/** The verbs an operator's package.json scripts call: all but the scaffolding ones. */
export const operatorVerbs: readonly Verb[] = verbs.filter((verb) => !verb.workspace);

/** Where {@link main} starts and writes. */
export interface MainIo {
  /** Default `process.cwd()`. */
  cwd?: string;
  /** Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Default: `process.stdout`. */
  stdout?: (text: string) => void;
  /** Default: `process.stderr`. */
  stderr?: (text: string) => void;
}

export const usage = `Usage: ops-operator [--dir <operator directory>] <verb> [options]

kubebuilder's Makefile verbs for a TypeScript operator. Run from the operator's directory
(or below it), usually through its package.json scripts (pnpm run deploy ...). Everything
that differs between operators is read from the operator itself: the image name from
package.json, the namespace and name prefix from config/default/kustomization.yaml, the
webhooks from config/webhook/manifests.yaml, the CRDs and RBAC from dist/manifests.js.

Verbs:
${verbs.map((verb) => `  ${verb.name.padEnd(16)} ${verb.summary}`).join('\n')}

Options:
  --dir <path>   the operator's directory (default: found from the current directory up)
  -h, --help     this help; ops-operator <verb> --help for a verb's

Cluster verbs use kubectl ($KUBECTL or kubectl on PATH) and the current kubeconfig
(KUBECONFIG or ~/.kube/config). Exit status: 0 done, 1 failed (the message says what to do);
manifests --check: 1 when out of date.`;

/** Whether `argv` asks for help before any `--` (after which arguments belong to the operator). */
function helpRequested(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

/**
 * Runs `ops-operator` with `argv` (the arguments after the command name) and resolves with
 * its exit status; the verb's own status when it has one (`run`: the operator's;
 * `manifests --check`: 1 when out of date). An {@link OperatorCliError} is printed as
 * `ops-operator <verb>: <message>` and gives 1. Never calls `process.exit`; other errors
 * (bugs) are thrown.
 */
export async function main(argv: readonly string[], io: MainIo = {}): Promise<number> {
  const cwd = io.cwd ?? process.cwd();
  const stdout = io.stdout ?? ((text: string) => process.stdout.write(text));
  const stderr = io.stderr ?? ((text: string) => process.stderr.write(text));
  // The one global option, --dir, comes before the verb.
  let args = [...argv];
  let dir: string | undefined;
  if (args[0] === '--dir' || args[0]?.startsWith('--dir=')) {
    const first = args[0];
    dir = first === '--dir' ? args[1] : first.slice('--dir='.length);
    args = args.slice(first === '--dir' ? 2 : 1);
    if (dir === undefined || dir === '') {
      stderr(`ops-operator: --dir needs a directory\n\n${usage}\n`);
      return 1;
    }
  }
  const [name, ...rest] = args;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? stderr : stdout)(`${usage}\n`);
    return name === undefined ? 1 : 0;
  }
  const verb = verbs.find((candidate) => candidate.name === name);
  if (verb === undefined) {
    stderr(`ops-operator: unknown verb "${name}"\n\n${usage}\n`);
    return 1;
  }
  if (helpRequested(rest)) {
    stdout(`${verb.help}\n`);
    return 0;
  }
  let project: OperatorProject | undefined;
  const context: VerbContext = {
    project: () => {
      project ??= loadOperatorProject(resolve(cwd, dir ?? '.'));
      return project;
    },
    cwd,
    env: io.env ?? process.env,
    stdout,
    stderr,
  };
  try {
    return await verb.run(rest, context);
  } catch (error) {
    if (!OperatorCliError.isInstance(error)) throw error;
    stderr(`ops-operator ${verb.name}: ${error.message}\n`);
    return 1;
  }
}
