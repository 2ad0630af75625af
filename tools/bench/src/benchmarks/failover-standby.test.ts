import { afterEach, describe, expect, it } from 'vitest';
import { stopServers, tinyContext } from '../harness/test-context.js';
import { failoverStandbyBenchmark } from './failover-standby.js';

afterEach(stopServers);

interface Run {
  variant: 'warm' | 'cold';
  afterExpiryMs: number[];
  ledAfterExpiryMs: number;
}

describe('failover-standby benchmark', () => {
  it('fails over to a warm and a cold standby, alternating, timing each changed object from the Lease expiry', async () => {
    const result = await failoverStandbyBenchmark.run(tinyContext());
    const runs = (result.samples as { runs: Run[] }).runs;
    expect(runs.map((run) => run.variant)).toEqual(['warm', 'cold', 'cold', 'warm']);
    for (const run of runs) {
      expect(run.afterExpiryMs).toHaveLength(5);
      // The standby never leads before the dead leader's Lease expired (the Lease's own
      // bound), and reconciles only once it leads (both instants taken, not polled, on one
      // clock: whatever the machine's load).
      expect(run.ledAfterExpiryMs).toBeGreaterThanOrEqual(0);
      for (const ms of run.afterExpiryMs) expect(ms).toBeGreaterThanOrEqual(run.ledAfterExpiryMs);
    }
    expect(result.targets).toHaveLength(1);
    expect(result.targets[0]?.target).toMatch(/≤ 2 s/);
  }, 180_000);
});
