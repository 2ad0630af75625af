/**
 * A scenario's `operatorConfig`: the operator runs as the ServiceAccount of its install,
 * under that install's RBAC, leader election included (test/explore/install/).
 */
import { fileURLToPath } from 'node:url';
import type { Manager } from '@ops/core';
import { describe, expect, it } from 'vitest';
import { exploreQuick, referenceRun } from '../../src/explore/explorer.js';
import type { Scenario } from '../../src/explore/run.js';
import { duplicateChildCorrect } from './planted/duplicate-child.js';

const install = (overlay: string) =>
  fileURLToPath(new URL(`./install/${overlay}`, import.meta.url));

describe("the operator as its install's ServiceAccount", { timeout: 120_000 }, () => {
  it('passes where the install grants what it does, a leader-loss run included', async () => {
    const scenario: Scenario<Manager> = {
      ...duplicateChildCorrect,
      operatorConfig: install('base'),
    };
    const crashes = await exploreQuick(scenario, { limit: 2 });
    expect(crashes.failures.map((failure) => failure.message)).toEqual([]);
    expect(crashes.schedules).toHaveLength(2);
    const leaderLoss = await exploreQuick(scenario, { limit: 1, kinds: ['leader-loss'] });
    expect(leaderLoss.failures.map((failure) => failure.message)).toEqual([]);
    expect(leaderLoss.coverage['leader-loss']).toBe(1);
  });

  it('is refused a write the install does not grant, as in a cluster', async () => {
    const scenario: Scenario<Manager> = {
      ...duplicateChildCorrect,
      operatorConfig: install('without-configmaps'),
    };
    const { record } = await referenceRun(scenario);
    expect(record.logs.join('\n')).toContain(
      'configmaps is forbidden: User \\"system:serviceaccount:widget-system:widget-operator\\" cannot create resource \\"configmaps\\"',
    );
    expect(record.outcomes[0]?.objects['v1/ConfigMap']).toEqual([]);
  });
});
