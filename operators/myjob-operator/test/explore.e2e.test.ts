// Quick mode of fault exploration (@ops/envtest, README "Fault exploration") on the
// myjob-operator's scenario (test/explore.scenario.ts): the undisturbed reference run, then a
// crash after each of its writes and each other kind of perturbation, every outcome checked
// against the reference (the same MyJob status, one Pod and never a second, no error logged
// without a retry, the operator quiet at the end of each step). `pnpm explore myjob-operator`
// runs the long exploration.
import { exploreQuick, summarize } from '@ops/envtest';
import { expect, it } from 'vitest';
import { scenario } from './explore.scenario.js';

// On the real plane (`pnpm test:binaries`: kube-apiserver, kube-controller-manager,
// kube-scheduler and kwok nodes) a schedule costs about three times a local one: fewer there,
// the first crash points and one of each other kind.
const limit = process.env.OPS_ENVTEST_CONTROL_PLANE === 'binaries' ? 8 : 20;

it('passes quick-mode fault exploration', { timeout: 300_000 }, async () => {
  const report = await exploreQuick(scenario, {
    limit,
    replayCommand: (id) => `pnpm explore myjob-operator --replay '${id}'`,
  });
  expect(report.failures, summarize(report)).toEqual([]);
  expect(report.schedules.length).toBeGreaterThan(0);
  console.log(summarize(report));
});
