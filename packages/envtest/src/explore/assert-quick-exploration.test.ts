import type { Manager } from '@ops/core';
import { describe, expect, it } from 'vitest';
import {
  duplicateChildBuggy,
  duplicateChildCorrect,
} from '../../test/explore/planted/duplicate-child.js';
import { assertQuickExploration } from './assert-quick-exploration.js';
import type { Scenario } from './run.js';

describe('assertQuickExploration', { timeout: 120_000 }, () => {
  it('resolves with the report when every schedule passed, taking the limit of its plane', async () => {
    const report = await assertQuickExploration(duplicateChildCorrect as Scenario<Manager>, {
      limit: { local: 2, real: 1 },
    });
    expect(report.plane).toBe('local');
    expect(report.schedules).toHaveLength(2);
    expect(report.failures).toEqual([]);
  });

  it('rejects with the summary and each failure, its replay command included', async () => {
    const rejected = assertQuickExploration(duplicateChildBuggy as Scenario<Manager>, {
      limit: { local: 1, real: 1 },
      replayCommand: (id) => `replay ${id}`,
    });
    await expect(rejected).rejects.toThrow(
      /^quick exploration failed 1 of 1 schedule\(s\)\n\nscenario "[^"]+" on the local plane: 1 schedule\(s\)/,
    );
    await expect(rejected).rejects.toThrow(/fault exploration of scenario "[^"]+" found a bug/);
    await expect(rejected).rejects.toThrow('replay: replay 1:crash@1');
  });

  it('rejects when no schedule ran, saying that nothing was tested', async () => {
    await expect(
      assertQuickExploration(duplicateChildCorrect as Scenario<Manager>, { limit: 0 }),
    ).rejects.toThrow(/ran no schedule .*nothing was tested/);
  });
});
