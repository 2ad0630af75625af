import { afterEach, describe, expect, it } from 'vitest';
import { stopServers, tinyContext } from '../harness/test-context.js';
import { restartPriorityBenchmark } from './restart-priority.js';

afterEach(stopServers);

interface Run {
  variant: 'priority' | 'fifo';
  firstReconcileMs: number[];
  backlogReconcilesBefore: number;
}

describe('restart-priority benchmark', () => {
  it('restarts with each queue, alternating, and times every new object to its first reconcile', async () => {
    const context = tinyContext({ restartObjects: 300 });
    const result = await restartPriorityBenchmark.run(context);
    const runs = (result.samples as { runs: Run[] }).runs;
    expect(runs.map((run) => run.variant)).toEqual(['priority', 'fifo', 'fifo', 'priority']);
    for (const run of runs) {
      expect(run.firstReconcileMs).toHaveLength(5);
      for (const ms of run.firstReconcileMs) expect(ms).toBeGreaterThan(0);
    }
    // FIFO reconciles the whole initial list before a new object. (How many listed objects
    // the priority queue reconciles first depends on how soon the create's event arrives, so
    // on load: only bounded here; the order itself is unit-tested in @ops/core.)
    for (const run of runs) {
      expect(run.backlogReconcilesBefore).toBeLessThanOrEqual(300);
      if (run.variant === 'fifo') expect(run.backlogReconcilesBefore).toBe(300);
    }
    expect(result.targets).toHaveLength(1);
    expect(result.targets[0]?.target).toMatch(/≤ 1 s/);
    expect(result.metrics.map((metric) => metric.name)).toContain('FIFO / priority, p99');
  }, 120_000);
});
