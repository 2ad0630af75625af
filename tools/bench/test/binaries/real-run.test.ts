import { describe, expect, it } from 'vitest';
import { tinyBenchOptions } from '../../src/benchmark.js';
import { benchmarks } from '../../src/benchmarks/index.js';
import type { ShardRun } from '../../src/benchmarks/sharded-scale-out.js';
import { realServerSource } from '../../src/harness/server-source.js';
import { markdownTables } from '../../src/report/table.js';
import { runBenchmarks } from '../../src/runner.js';

/**
 * The tiny sizes with one repeat, one size of the cold-sync matrix and no objects in another
 * namespace: the walks through repeats, sizes and the other namespace are the same code on
 * either server (the local suite runs each benchmark with two repeats, sync-matrix.test.ts
 * walks two sizes with and without the other namespace), and each cell on kube-apiserver
 * costs a fresh control plane and its seeding. What this run proves is that every benchmark
 * and every library runs on kube-apiserver: each shape, each contender, each benchmark once.
 * The sharded controller runs by namespace only, the way only kube-apiserver has (its
 * server-side shard selectors); by name it shards by labels, as on the local server, whose
 * suite runs both.
 */
const options = {
  ...tinyBenchOptions,
  repeats: 1,
  shapeSizes: [tinyBenchOptions.shapeSizes[0] ?? 100],
  otherObjects: 0,
  shardBy: ['namespace' as const],
};

describe('pnpm bench --server real', () => {
  it('measures every library on kube-apiserver, names it and skips what needs the local server', async () => {
    const source = await realServerSource({ log: () => undefined });
    // Every benchmark but throughput, which talks to no server.
    const modules = benchmarks.filter((module) => module.id !== 'throughput');
    const messages: string[] = [];
    const report = await runBenchmarks(modules, options, (m) => messages.push(m), source);

    expect(report.server.kind).toBe('real');
    expect(report.server.name).toMatch(/^kube-apiserver v1\.\d+\.\d+\S* \(etcd \d+\.\d+\.\d+/);
    expect(markdownTables(report)).toContain(`Server: ${report.server.name}.`);

    // The simulated cluster is the local server's only: skipped, with the reason printed.
    expect(report.skipped.map((skipped) => skipped.id)).toEqual([
      'applications',
      'myjobs',
      'balancers',
    ]);
    for (const skipped of report.skipped) {
      expect(skipped.reason).toMatch(/kube-controller-manager/);
      expect(messages.some((m) => m.startsWith(`[${skipped.id}] skipped on kube-apiserver`))).toBe(
        true,
      );
    }
    expect(report.results.map((result) => result.id)).toEqual([
      'cold-sync',
      'heap',
      'metadata-heap',
      'shapes',
      'watch-list',
      'latency',
      'restart-priority',
      'failover-standby',
      'event-burst',
      'steady-writes',
      'apiserver',
      'sidecar-admission',
      'sharded-scale-out',
    ]);
    const result = (id: string) => report.results.find((entry) => entry.id === id);

    // Cold sync: every library (and both floors) measured once per repeat, none failed.
    const coldSync = result('cold-sync')?.samples as {
      ms: Record<string, number[]>;
      failed: object;
      listBytes: number;
    };
    expect(coldSync.failed).toEqual({});
    expect(Object.keys(coldSync.ms).sort()).toEqual(
      ['bare-http', 'client-node', 'floor', 'fluent', 'ops', `ops-page-${options.objects}`].sort(),
    );
    for (const values of Object.values(coldSync.ms)) expect(values).toHaveLength(options.repeats);
    for (const metric of result('cold-sync')?.metrics ?? [])
      expect(Number.isFinite(metric.value)).toBe(true);
    // Pods as kube-apiserver serves them, managedFields included: larger than the local ones.
    expect(coldSync.listBytes / options.objects).toBeGreaterThan(2_000);

    // Heap: ops, client-node and the floor, once per repeat.
    const heap = result('heap')?.samples as { bytesPerObject: Record<string, number[]> };
    expect(Object.keys(heap.bytesPerObject).sort()).toEqual(['client-node', 'ops', 'parsed']);
    for (const values of Object.values(heap.bytesPerObject))
      expect(values).toHaveLength(options.repeats);

    // Events: every write reconciled.
    const latency = result('latency')?.samples as { fromResponseMs: number[]; missed: number };
    expect(latency.missed).toBe(0);
    expect(latency.fromResponseMs).toHaveLength(
      (options.latencyRate * options.latencyDurationMs) / 1000,
    );

    // Zero writes at rest, counted by kube-apiserver too.
    const steady = result('steady-writes')?.samples as Record<string, number | boolean>;
    expect(steady.quietServerWrites).toBe(0);
    expect(steady.quietClientWrites).toBe(0);
    expect(steady.revisionMoved).toBe(false);
    expect(steady.failures).toBe(0);

    // The server's own LIST and fan-out were measured.
    const apiserver = result('apiserver')?.samples as { listMs: number[]; fanoutMs: number[] };
    expect(apiserver.listMs).toHaveLength(options.repeats);
    expect(apiserver.fanoutMs).toHaveLength(options.fanoutChanges);

    // Sharded by namespace: on 1.36+ each replica selected its hash ranges on the server.
    const sharded = result('sharded-scale-out')?.samples as { runs: ShardRun[] };
    const minor = Number(/v1\.(\d+)\./.exec(report.server.name)?.[1]);
    expect(sharded.runs.map((run) => [run.by, run.mechanism, run.replicas])).toEqual(
      options.shardReplicas.map((replicas) => [
        'namespace',
        minor >= 36 ? 'server-side' : 'labels',
        replicas,
      ]),
    );
    for (const run of sharded.runs) expect(run.shares.reduce((a, b) => a + b, 0)).toBe(run.objects);

    // Seeding was timed for every benchmark that seeded.
    expect(report.seedings).toContainEqual(
      expect.objectContaining({
        benchmark: 'cold-sync',
        kind: 'Pods',
        objects: options.objects,
      }),
    );
    for (const seeding of report.seedings) expect(seeding.ms).toBeGreaterThan(0);
  });
});
