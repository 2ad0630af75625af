/**
 * Exploration mode, run by `pnpm explore <scenario>` (scripts/explore.mjs at the repository
 * root) through vitest.explore.config.ts: the scenario exported as OPS_EXPLORE_EXPORT from
 * the module OPS_EXPLORE_SCENARIO, OPS_EXPLORE_SCHEDULES schedules (default 1000), resumable
 * from the state file OPS_EXPLORE_STATE, from the seed OPS_EXPLORE_SEED (default 1); with
 * OPS_EXPLORE_REPLAY, only that schedule. With OPS_EXPLORE_PLANE (`--plane`), on the plane
 * OPS_ENVTEST_CONTROL_PLANE names, whatever the scenario's own choice; OPS_EXPLORE_CONCURRENCY
 * schedules at once on the local plane (default 1). Prints progress and a coverage summary; fails when
 * a schedule failed, with each failure's report.
 */
import type { Manager } from '@ops/core';
import { expect, it } from 'vitest';
import {
  exploreLong,
  exploreQuick,
  replayVariable,
  summarize,
} from '../../src/explore/explorer.js';
import type { Scenario } from '../../src/explore/run.js';

const modulePath = process.env.OPS_EXPLORE_SCENARIO ?? '';
const exportName = process.env.OPS_EXPLORE_EXPORT ?? 'scenario';

it(`explores ${modulePath}#${exportName}`, async () => {
  const loaded = (await import(modulePath)) as Record<string, Scenario<Manager> | undefined>;
  const scenario = loaded[exportName];
  if (!scenario)
    throw new Error(
      `${modulePath} exports no scenario named ${exportName} (it exports ${Object.keys(loaded).join(', ') || 'nothing'}): pass <module>#<export>`,
    );
  const replayCommand = (id: string) =>
    `pnpm explore ${process.env.OPS_EXPLORE_TARGET ?? modulePath}#${exportName} --replay '${id}'${process.env.OPS_EXPLORE_PLANE ? ` --plane ${process.env.OPS_EXPLORE_PLANE}` : ''}`;
  const plane = process.env.OPS_EXPLORE_PLANE ? { controlPlane: 'auto' as const } : {};
  const report = process.env[replayVariable]
    ? await exploreQuick(scenario, { replayCommand, ...plane })
    : await exploreLong(scenario, {
        ...plane,
        schedules: Number(process.env.OPS_EXPLORE_SCHEDULES ?? 1000),
        seed: Number(process.env.OPS_EXPLORE_SEED ?? 1),
        concurrency: Number(process.env.OPS_EXPLORE_CONCURRENCY ?? 1),
        replayCommand,
        ...(process.env.OPS_EXPLORE_STATE ? { statePath: process.env.OPS_EXPLORE_STATE } : {}),
        onSchedule: (id, failed, done) => {
          if (failed || done % 25 === 0)
            process.stdout.write(`${done} ${failed ? 'FAILED' : 'ok'} ${id}\n`);
        },
      });
  process.stdout.write(`${summarize(report)}\n`);
  expect(report.failures.map((failure) => failure.message)).toEqual([]);
});
