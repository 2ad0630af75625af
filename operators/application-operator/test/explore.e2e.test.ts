import { exploreQuick, summarize } from '@ops/envtest';
import { expect, it } from 'vitest';
import { scenario } from './explore.scenario.js';

// Fault exploration's quick mode (@ops/envtest, README "Fault exploration"): the undisturbed
// run of test/explore.scenario.ts, then a crash after every write it made and each other
// perturbation (stale caches, lost events, API errors, timeouts), every outcome compared with
// the undisturbed one. A failure prints the schedule and `OPS_EXPLORE_REPLAY='<id>' pnpm
// vitest run test/explore.e2e.test.ts` replays it; `pnpm explore application-operator` at the
// repository root runs exploration mode (1,000 schedules).
// On the real plane (`pnpm test:binaries`, run on two Kubernetes releases) a schedule costs
// about three times a local one (a namespace made and removed, kube-apiserver's slower
// writes): fewer schedules there, the first crash points and one of each other kind.
const limit = process.env.OPS_ENVTEST_CONTROL_PLANE === 'binaries' ? 8 : 24;

it('reaches the same outcome under crashes, stale reads, lost events and API errors', {
  timeout: 240_000,
}, async () => {
  const report = await exploreQuick(scenario, { limit });
  expect(
    report.failures.map((failure) => failure.message),
    summarize(report),
  ).toEqual([]);
  expect(report.schedules.length).toBeGreaterThan(0);
});
