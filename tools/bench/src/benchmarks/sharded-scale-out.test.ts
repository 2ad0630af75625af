import { afterEach, describe, expect, it } from 'vitest';
import { stopServers, tinyContext } from '../harness/test-context.js';
import {
  type ShardRun,
  shardedScaleOutBenchmark,
  shardingGates,
  shardNamespaces,
  shardReconcileMs,
} from './sharded-scale-out.js';

afterEach(stopServers);

describe('sharded-scale-out benchmark', () => {
  it('runs the sharded controller by name and by namespace over 1 and 2 replica processes (the tiny counts), each object reconciled by exactly one', async () => {
    const result = await shardedScaleOutBenchmark.run(tinyContext({ latencyDurationMs: 500 }));
    const runs = (result.samples as { runs: ShardRun[] }).runs;
    // The local server has no server-side sharding: by namespace, labels keyed by namespace.
    expect(runs.map((run) => [run.objects, run.by, run.mechanism, run.replicas])).toEqual([
      [40, 'name', 'labels', 1],
      [40, 'name', 'labels', 2],
      [40, 'namespace', 'labels', 1],
      [40, 'namespace', 'labels', 2],
    ]);
    for (const run of runs) {
      expect(run.namespaces).toBe(4);
      // The backlog: every object reconciled once, by one replica (the shares add up).
      expect(run.shares).toHaveLength(run.replicas);
      expect(run.shares.reduce((a, b) => a + b, 0)).toBe(40);
      expect(run.throughput).toBeGreaterThan(0);
      // The backlog's writes were timed, and the machine's CPU read around each phase.
      expect(run.backlogWriteMs).toBeGreaterThan(0);
      // The queued backlog drained: every object once, after the release, at a finite rate.
      expect(run.drainThroughput).toBeGreaterThan(0);
      expect(Number.isFinite(run.drainThroughput)).toBe(true);
      // A share of the machine, or NaN for a phase shorter than /proc/stat's 10 ms tick.
      for (const busy of [run.backlogCpuBusy, run.drainCpuBusy, run.loadCpuBusy])
        expect(Number.isNaN(busy) || (busy >= 0 && busy <= 1)).toBe(true);
      expect(run.heapUsed).toHaveLength(run.replicas);
      for (const heap of run.heapUsed) expect(heap).toBeGreaterThan(0);
      // Every reconcile waits the fixed time; the queue wait is a real, finite figure.
      expect(run.reconcileP99Ms).toBeGreaterThanOrEqual(shardReconcileMs);
      expect(Number.isFinite(run.queueWaitP99Ms)).toBe(true);
      expect(run.loadWrites).toBeGreaterThan(0);
    }
    // With 2 replicas, both owned objects; by namespace, whole
    // namespaces (10 objects each).
    for (const run of runs.filter((entry) => entry.replicas > 1))
      expect(run.shares.filter((share) => share > 0).length).toBeGreaterThan(1);
    for (const run of runs.filter((entry) => entry.by === 'namespace'))
      for (const share of run.shares) expect(share % 10).toBe(0);
    const goalsOf = (way: string) => [
      `${way}: scaling efficiency from 1 to 2 replicas ≥ 0.8, draining a queued backlog (40 objects)`,
      `${way}: p99 queue wait ≤ 1 s at 40 objects (every replica count)`,
      `${way}: p99 reconcile ≤ 5 s at 40 objects (every replica count)`,
      `${way}: heap per replica with 3 replicas ≤ 0.4× the single replica's (40 objects)`,
    ];
    expect(result.targets.map((target) => target.target)).toEqual([
      ...goalsOf('by name (shard labels)'),
      ...goalsOf('by namespace (shard labels)'),
    ]);
    const ratios = result.metrics.filter((metric) => metric.name.includes(' / '));
    expect(ratios.map((metric) => metric.name)).toEqual(
      [1, 2].map(
        (replicas) =>
          `by namespace (shard labels) / by name (shard labels), ${replicas} replica(s): drain throughput`,
      ),
    );
    for (const metric of ratios) expect(Number.isFinite(metric.value)).toBe(true);
  }, 300_000);

  it('spreads objects over namespaces that differ in their first characters, ten objects each at least', () => {
    expect(shardNamespaces(40)).toEqual(['0-tenant', '1-tenant', '2-tenant', '3-tenant']);
    expect(shardNamespaces(5)).toEqual(['0-tenant']);
    expect(shardNamespaces(10_000)).toHaveLength(100);
    expect(shardNamespaces(50_000)).toHaveLength(100);
  });

  it('turns on server-side sharding for runs by namespace on kube-apiserver 1.36 and later only', () => {
    const name = (version: string) => `kube-apiserver v${version} (etcd 3.6.5)`;
    expect(shardingGates('namespace', 'real', name('1.37.2'))).toEqual({
      ShardedListAndWatch: true,
    });
    expect(shardingGates('namespace', 'real', name('1.36.0'))).toEqual({
      ShardedListAndWatch: true,
    });
    expect(shardingGates('namespace', 'real', name('1.35.4'))).toBeUndefined();
    expect(shardingGates('name', 'real', name('1.37.2'))).toBeUndefined();
    expect(
      shardingGates('namespace', 'local', 'local API server (@ops/apiserver 0.1.0)'),
    ).toBeUndefined();
  });
});
