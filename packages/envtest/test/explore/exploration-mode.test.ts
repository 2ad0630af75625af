import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { exploreLong, summarize } from '../../src/explore/explorer.js';
import { explorationSchedule, scheduleId } from '../../src/explore/schedule.js';
import { duplicateChildCorrect } from './planted/duplicate-child.js';
import { errorHandledCorrect } from './planted/error-swallowed.js';

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
    /^scenario "error-handling \(correct\)": 2 schedule\(s\) this run, 5 in all, 0 failure\(s\) in all/,
  );
  await expect(
    exploreLong(duplicateChildCorrect, { schedules: 6, statePath, seed: 40 }),
  ).rejects.toThrow(
    `the exploration state file ${statePath} is of scenario "error-handling (correct)" with seed 40, not "duplicate-child (correct)" with seed 40`,
  );
});
