import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { exploreLong, exploreQuick, referenceRun, summarize } from '../../src/explore/explorer.js';
import { runScenario } from '../../src/explore/run.js';
import { explorationSchedule, parseScheduleId, scheduleId } from '../../src/explore/schedule.js';
import { duplicateChildBuggy, duplicateChildCorrect } from './planted/duplicate-child.js';
import { errorHandledCorrect } from './planted/error-swallowed.js';
import { staleDeletionCorrect } from './planted/stale-deletion.js';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'explore-state-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

it('exploration mode is resumable from its state file and summarizes what it covered', {
  timeout: 300_000,
}, async () => {
  const statePath = join(directory, 'state.json');
  const first = await exploreLong(errorHandledCorrect, { schedules: 3, statePath, seed: 40 });
  expect(first.schedules).toHaveLength(3);
  expect(JSON.parse(await readFile(statePath, 'utf8'))).toMatchObject({
    scenario: 'error-handling (correct)',
    seed: 40,
    done: 3,
    failures: [],
  });
  const second = await exploreLong(errorHandledCorrect, { schedules: 5, statePath, seed: 40 });
  // It went on where the first stopped: schedules 3 and 4 of seed 40, not 0 to 4 again.
  const shape = second.reference;
  expect(second.schedules).toEqual(
    [3, 4].map((index) => scheduleId(explorationSchedule(shape, 40, index))),
  );
  expect(JSON.parse(await readFile(statePath, 'utf8'))).toMatchObject({ done: 5 });
  const fired = Object.values(second.coverage).reduce((sum, count) => sum + (count ?? 0), 0);
  expect(fired).toBeGreaterThanOrEqual(1);
  expect(summarize(second)).toMatch(
    /^scenario "error-handling \(correct\)" on the local plane: 2 schedule\(s\) this run, 5 in all, 0 failure\(s\) in all/,
  );
  await expect(
    exploreLong(duplicateChildCorrect, { schedules: 6, statePath, seed: 40 }),
  ).rejects.toThrow(
    `the exploration state file ${statePath} is of scenario "error-handling (correct)" with seed 40, not "duplicate-child (correct)" with seed 40`,
  );
});

it('starts a crashed operator again while its API server is restarting, as the kubelet would, and the run passes', {
  timeout: 120_000,
}, async () => {
  // Found by exploration mode: restarted while the API server was down, the manager failed
  // to start (discovery answered 502), which the harness first took for a failure.
  const reference = await referenceRun(staleDeletionCorrect);
  const record = await runScenario(
    staleDeletionCorrect,
    parseScheduleId('79:apiserver-restart@2,stale-restart@2+700~configmaps'),
    reference.record,
  );
  expect(record.violations).toEqual([]);
  expect(record.restarts).toBe(1);
  expect(record.fired.map((p) => p.kind).sort()).toEqual(['apiserver-restart', 'stale-restart']);
});

it('runs schedules several at once on the local plane, reporting them as one at a time would', {
  timeout: 300_000,
}, async () => {
  const statePath = join(directory, 'concurrent.json');
  const long = await exploreLong(errorHandledCorrect, {
    schedules: 5,
    statePath,
    seed: 7,
    concurrency: 3,
  });
  // In index order, every one reported once, and the state file counts them all.
  expect(long.schedules).toEqual(
    [0, 1, 2, 3, 4].map((index) => scheduleId(explorationSchedule(long.reference, 7, index))),
  );
  expect(long.failures).toEqual([]);
  expect(JSON.parse(await readFile(statePath, 'utf8'))).toMatchObject({ done: 5 });
  // Quick mode stops at the first failing schedule, the first of the list here (a crash
  // after the first write): what ran beside it is not reported.
  const quick = await exploreQuick(duplicateChildBuggy, { limit: 4, concurrency: 3 });
  expect(quick.schedules).toEqual(['1:crash@1']);
  expect(quick.failures.map((failure) => failure.id)).toEqual(['1:crash@1']);
});
