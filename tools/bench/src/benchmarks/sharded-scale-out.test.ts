import { afterEach, describe, expect, it } from 'vitest';
import { stopServers, tinyContext } from '../harness/test-context.js';
import { type ShardRun, shardedScaleOutBenchmark, shardReconcileMs } from './sharded-scale-out.js';

afterEach(stopServers);

describe('sharded-scale-out benchmark', () => {
  it('runs the sharded controller over 1, 3 and 5 replica processes, each object reconciled by exactly one', async () => {
    const result = await shardedScaleOutBenchmark.run(tinyContext({ latencyDurationMs: 500 }));
    const runs = (result.samples as { runs: ShardRun[] }).runs;
    expect(runs.map((run) => [run.objects, run.replicas])).toEqual([
      [40, 1],
      [40, 3],
      [40, 5],
    ]);
    for (const run of runs) {
      // The backlog: every object reconciled once, by one replica (the shares add up).
      expect(run.shares).toHaveLength(run.replicas);
      expect(run.shares.reduce((a, b) => a + b, 0)).toBe(40);
      expect(run.throughput).toBeGreaterThan(0);
      expect(run.heapUsed).toHaveLength(run.replicas);
      for (const heap of run.heapUsed) expect(heap).toBeGreaterThan(0);
      // Every reconcile waits the fixed time; the queue wait is a real, finite figure.
      expect(run.reconcileP99Ms).toBeGreaterThanOrEqual(shardReconcileMs);
      expect(Number.isFinite(run.queueWaitP99Ms)).toBe(true);
      expect(run.loadWrites).toBeGreaterThan(0);
    }
    // With 3 and 5 replicas, more than one replica owned objects.
    expect(runs[1]?.shares.filter((share) => share > 0).length).toBeGreaterThan(1);
    expect(runs[2]?.shares.filter((share) => share > 0).length).toBeGreaterThan(1);
    expect(result.targets.map((target) => target.target)).toEqual([
      'scaling efficiency from 1 to 5 replicas ≥ 0.8 (40 objects)',
      'p99 queue wait ≤ 1 s at 40 objects (every replica count)',
      'p99 reconcile ≤ 5 s at 40 objects (every replica count)',
      "heap per replica with 3 replicas ≤ 0.4× the single replica's (40 objects)",
    ]);
  }, 300_000);
});
