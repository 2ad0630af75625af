import { afterEach, describe, expect, it } from 'vitest';
import { stopServers, tinyContext } from '../harness/test-context.js';
import { eventBurstBenchmark } from './event-burst.js';

afterEach(stopServers);

interface Sample {
  cpuMs: number;
  lastDelayMs: number;
  missed: number;
  repeated: number;
  writesPerSecond: number;
}

describe('event-burst benchmark', () => {
  it('counts every patch as an update in each library’s own process and measures its CPU', async () => {
    const context = tinyContext();
    const result = await eventBurstBenchmark.run(context);
    expect(result.id).toBe('event-burst');
    const samples = result.samples as { runs: Record<string, Sample[]>; failed: object };
    expect(samples.failed).toEqual({});
    expect(Object.keys(samples.runs).sort()).toEqual(['bare', 'client-node', 'fluent', 'ops']);
    for (const runs of Object.values(samples.runs)) {
      expect(runs).toHaveLength(context.options.repeats);
      for (const run of runs) {
        // Every patch reached every library, each exactly once.
        expect(run.missed).toBe(0);
        expect(run.repeated).toBe(0);
        expect(run.cpuMs).toBeGreaterThan(0);
        expect(run.writesPerSecond).toBeGreaterThan(0);
        // The last update came after the burst began and within the grace period of its end.
        expect(Number.isFinite(run.lastDelayMs)).toBe(true);
        expect(run.lastDelayMs).toBeLessThan(5_000);
      }
    }
    for (const metric of result.metrics) expect(Number.isFinite(metric.value)).toBe(true);
    expect(result.targets.map((target) => target.target)).toEqual([
      'ops sees every update of every burst',
      'ops sees the last update within 100 ms of the last write (median)',
      'ops CPU for the burst ≤ 0.8× client-node',
    ]);
    expect(result.targets[0]?.met).toBe(true);
    expect(result.charts[0]?.bars.map((bar) => bar.label)).toEqual([
      'floor: bare watch + JSON.parse into a Map',
      '@ops/core Informer',
      'client-node informer',
      'fluent Watch',
    ]);
    // Four fresh processes per repeat and a writer process: seconds alone, minutes when CI
    // runs every package's tests at once on 2 cores.
  }, 180_000);

  it('refuses fewer patches than objects, naming both flags', async () => {
    await expect(
      eventBurstBenchmark.run(tinyContext({ burstObjects: 100, burstPatches: 10 })),
    ).rejects.toThrow(/--burst-patches \(10\) must be at least --burst-objects \(100\)/);
  });
});
