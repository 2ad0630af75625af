import { type ChildProcess, type StdioOptions, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { OperatorCliError } from '../errors/operator-cli-error.js';
import { ensureLocalCertificates } from '../local-certificates.js';
import type { OperatorProject } from '../operator-project.js';
import type { Verb } from '../verb.js';

/** How {@link runLocally} starts the operator. */
export interface RunLocallyOptions {
  /** Arguments for the operator (see `node dist/main.js --help`). */
  argv?: readonly string[];
  /** The bundle to run. Default: `<root>/dist/main.js` (which must exist). */
  bundle?: string;
  /** Where the local serving certificates are kept. Default: the project's `localCertDir`. */
  certDir?: string;
  stdio?: StdioOptions;
  env?: NodeJS.ProcessEnv;
  /** Receives progress lines. Default: stderr, prefixed `run: `. */
  log?: (line: string) => void;
}

/** `<root>/dist/main.js`, or fails saying how to build it. */
export function requireBundle(project: OperatorProject): string {
  const bundle = join(project.root, 'dist', 'main.js');
  if (!existsSync(bundle)) {
    throw new OperatorCliError(
      `${bundle} does not exist: build the operator first (ops-operator manifests, or its build script).`,
    );
  }
  return bundle;
}

/**
 * Starts the operator on this machine (`node --enable-source-maps dist/main.js ...argv`),
 * against the cluster of the current kubeconfig, as kubebuilder's make run. Unless `argv`
 * has `--webhook-cert-dir` or `--disable-webhooks` (or the operator has no webhooks), a CA
 * and a serving certificate for localhost, 127.0.0.1, ::1 and the webhook Service's DNS
 * names are made sure of in `certDir` (generated once, renewed near expiry) and passed as
 * `--webhook-cert-dir`. An operator without webhooks (no configuration in config/webhook/manifests.yaml, no CRD conversion webhook) gets
 * `--disable-webhooks`. SIGINT and SIGTERM sent to this process are passed on.
 *
 * @returns the child and a promise of its exit status (128 when killed by a signal).
 * @throws {OperatorCliError} when the bundle is missing.
 */
export async function runLocally(
  project: OperatorProject,
  options: RunLocallyOptions = {},
): Promise<{ child: ChildProcess; exited: Promise<number> }> {
  const argv = options.argv ?? [];
  const bundle = options.bundle ?? requireBundle(project);
  const log = options.log ?? ((line: string) => process.stderr.write(`run: ${line}\n`));
  const args = ['--enable-source-maps', bundle];
  const hasCertDir = argv.some(
    (arg) => arg === '--webhook-cert-dir' || arg.startsWith('--webhook-cert-dir='),
  );
  if (project.webhooks && !argv.includes('--disable-webhooks') && !hasCertDir) {
    const certs = await ensureLocalCertificates(
      project,
      options.certDir === undefined ? {} : { dir: options.certDir },
    );
    log(
      `${certs.created ? 'generated' : 'using'} webhook serving certificates in ${certs.dir} (CA: ca.crt)`,
    );
    log(
      'to have the cluster call these webhooks: ops-operator webhook-local --host-ip <ip of this machine>',
    );
    args.push('--webhook-cert-dir', certs.dir);
  } else if (project.webhooks === undefined && !argv.includes('--disable-webhooks')) {
    // No webhook server to serve: without the flag it would wait for a certificate.
    args.push('--disable-webhooks');
  }
  args.push(...argv);
  const child = spawn(process.execPath, args, {
    stdio: options.stdio ?? 'inherit',
    env: options.env ?? process.env,
  });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  const exited = new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code ?? (signal ? 128 : 1));
    });
  });
  return { child, exited };
}

export const runVerb: Verb = {
  name: 'run',
  summary: 'run the operator here against the current cluster, webhooks included (make run)',
  help: `Usage: ops-operator run [--] [operator flags...]

Runs dist/main.js on this machine against the cluster of the current kubeconfig, as
kubebuilder's make run; Ctrl-C stops it cleanly. Every argument goes to the operator
(e.g. ops-operator run -- --log-level debug; the operator's flags: node dist/main.js --help).

Its webhook server needs a serving certificate: unless you pass --webhook-cert-dir or
--disable-webhooks, a CA and a certificate for localhost, 127.0.0.1, ::1 and the webhook
Service's DNS names are generated into .cache/k8s-webhook-server/serving-certs (once;
renewed near expiry). To have the cluster call this process: ops-operator webhook-local.
An operator without webhooks (no configuration in config/webhook/manifests.yaml, no CRD conversion webhook)
runs with --disable-webhooks.`,
  async run(argv, context) {
    const operatorArgs = argv[0] === '--' ? argv.slice(1) : argv;
    const { exited } = await runLocally(context.project(), {
      argv: operatorArgs,
      env: context.env,
      log: (line) => context.stderr(`run: ${line}\n`),
    });
    return exited;
  },
};
