// `pnpm run run`: runs the operator on this machine against the cluster of the current
// kubeconfig, webhook server included, as kubebuilder's `make run`. Arguments are passed to
// the operator (`pnpm run run -- --log-level debug`; see `node dist/main.js --help`).
//
// The webhook server needs a serving certificate: unless you pass --webhook-cert-dir or
// --disable-webhooks, a CA and a certificate for localhost, 127.0.0.1 and the webhook
// Service's DNS names are generated into .cache/k8s-webhook-server/serving-certs (once; they
// are renewed when they near expiry). To have the cluster call this process, see
// scripts/webhook-local.mjs.
import { spawn } from 'node:child_process';
import { ensureLocalCertificates, localCertDir } from './certificates.mjs';
import { operatorRoot, requireBundle, runIfMain, scriptArgs } from './common.mjs';

/**
 * Starts the operator (`node dist/main.js`) with `argv`, after preparing local webhook
 * certificates (see the file's comment). SIGINT and SIGTERM sent to this process are passed
 * on. Returns the child and a promise of its exit code.
 *
 * @param {{ argv?: string[], root?: string, bundle?: string, certDir?: string,
 *   stdio?: import('node:child_process').StdioOptions, env?: NodeJS.ProcessEnv,
 *   log?: (line: string) => void }} [options]
 */
export async function runLocally(options = {}) {
  const argv = options.argv ?? [];
  const bundle = options.bundle ?? requireBundle(options.root ?? operatorRoot);
  const log = options.log ?? ((line) => console.error(`run: ${line}`));
  const args = ['--enable-source-maps', bundle];
  const hasCertDir = argv.some(
    (arg) => arg === '--webhook-cert-dir' || arg.startsWith('--webhook-cert-dir='),
  );
  if (!argv.includes('--disable-webhooks') && !hasCertDir) {
    const certs = await ensureLocalCertificates({ dir: options.certDir ?? localCertDir });
    log(
      `${certs.created ? 'generated' : 'using'} webhook serving certificates in ${certs.dir} (CA: ca.crt)`,
    );
    log(
      'to have the cluster call these webhooks: node scripts/webhook-local.mjs --host-ip <ip of this machine>',
    );
    args.push('--webhook-cert-dir', certs.dir);
  }
  args.push(...argv);
  const child = spawn(process.execPath, args, {
    stdio: options.stdio ?? 'inherit',
    env: options.env ?? process.env,
  });
  /** @param {NodeJS.Signals} signal */
  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  /** @type {Promise<number>} */
  const exited = new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code ?? (signal ? 128 : 1));
    });
  });
  return { child, exited };
}

runIfMain(import.meta.url, async () => {
  const { exited } = await runLocally({ argv: scriptArgs() });
  return exited;
});
