// A leader-election candidate in a process of its own, for leader-election.test.ts: a Manager
// of the built @ops/core (dist/index.js), so the test can SIGKILL it, a crash that never
// releases the Lease. Its controller reconciles one ConfigMap over and over while leading.
//
// Input: KUBECONFIG (the cluster) and CANDIDATE, JSON: { identity, leaseName, namespace,
// leaseDurationMs, renewDeadlineMs, retryPeriodMs, reconcileMs }.
// Output: one JSON line on stdout per event, { event, at } with `at` from Date.now():
// `reconcile-start` and `reconcile-end` around every reconcile; `stopped` on a clean stop,
// `failed` (with `message`) when the manager fails. Logs go to stderr. Stops on SIGTERM.
import pino from 'pino';
import { Manager } from '../../dist/index.js';
import { setupSignalHandler } from '../../dist/manager/index.js';

const options = JSON.parse(process.env.CANDIDATE ?? '{}');
const report = (event, extra = {}) =>
  process.stdout.write(`${JSON.stringify({ event, at: Date.now(), ...extra })}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const manager = new Manager({
  logger: pino({ level: 'warn' }, pino.destination(2)),
  metricsBindAddress: false,
  healthProbeBindAddress: false,
  namespace: options.namespace,
  leaderElection: true,
  leaderElectionId: options.leaseName,
  leaderElectionNamespace: options.namespace,
  leaderElectionIdentity: options.identity,
  leaseDurationMs: options.leaseDurationMs,
  renewDeadlineMs: options.renewDeadlineMs,
  retryPeriodMs: options.retryPeriodMs,
});
manager
  .controller('ticker')
  .for({ apiVersion: 'v1', kind: 'ConfigMap' })
  .complete(async () => {
    report('reconcile-start');
    await sleep(options.reconcileMs);
    report('reconcile-end');
    return { requeueAfterMs: 1 };
  });

try {
  await manager.start(setupSignalHandler());
  report('stopped');
} catch (error) {
  report('failed', { message: String(error) });
  process.exitCode = 1;
}
