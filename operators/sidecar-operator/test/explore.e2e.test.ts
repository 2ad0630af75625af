// Fault exploration's quick mode (@ops/envtest, README "Fault exploration") on the scenario of
// test/explore.scenario.ts: its undisturbed reference run, then a crash after every write it
// made and each other kind of perturbation (stale caches, lost events, API errors, timeouts,
// leader loss, ...), every outcome checked against the reference. A failure prints the
// schedule and the command that replays it; `pnpm explore sidecar-operator` at the repository root
// runs exploration mode (1,000 schedules). On the real plane (`pnpm test:binaries`) a schedule
// costs about three times a local one: fewer there, the first crash points and one of each
// other kind. Two schedules run at once on the local plane (one at a time on the real one).
import { assertQuickExploration, summarize } from '@ops/envtest';
import { expect, it } from 'vitest';
import { scenario } from './explore.scenario.js';

it('reaches the same outcome under crashes, stale reads, lost events and API errors', {
  timeout: 300_000,
}, async () => {
  const report = await assertQuickExploration(scenario, {
    concurrency: 2,
    limit: { local: 20, real: 8 },
    replayCommand: (id) => `pnpm explore sidecar-operator --replay '${id}'`,
  });
  console.log(summarize(report));
});

// Its webhooks' own faults come last in quick mode's order, past the limit above: their
// schedules alone, two of each kind (one of each on the real plane).
it('admits every Pod with its sidecars while its webhooks are down or slow', {
  timeout: 300_000,
}, async () => {
  const report = await assertQuickExploration(scenario, {
    concurrency: 2,
    kinds: ['webhook-down', 'webhook-slow'],
    limit: { local: 4, real: 2 },
    replayCommand: (id) => `pnpm explore sidecar-operator --replay '${id}'`,
  });
  expect(report.coverage['webhook-down']).toBeGreaterThan(0);
  expect(report.coverage['webhook-slow']).toBeGreaterThan(0);
  console.log(summarize(report));
});
