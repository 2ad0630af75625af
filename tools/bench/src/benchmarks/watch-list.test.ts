import { afterEach, describe, expect, it } from 'vitest';
import { stopServers, tinyContext } from '../harness/test-context.js';
import { watchListBenchmark } from './watch-list.js';

afterEach(stopServers);

describe('watch-list benchmark', () => {
  it('syncs with every contender in fresh processes and reports each figure and goal', async () => {
    const result = await watchListBenchmark.run(tinyContext({ objects: 60, shapeRepeats: 1 }));
    expect(result.id).toBe('watch-list');
    const runs = (result.samples as { runs: Record<string, { ms: number[]; heap: number[] }> })
      .runs;
    expect(Object.keys(runs).sort()).toEqual(
      [
        'client-node',
        'fluent',
        'ops-list',
        'ops-list-gzip',
        'ops-watch-list',
        'ops-watch-list-gzip',
      ].sort(),
    );
    for (const run of Object.values(runs)) {
      expect(run.ms).toHaveLength(1);
      expect(run.ms[0]).toBeGreaterThan(0);
      expect(run.heap[0]).toBeGreaterThan(100);
    }
    for (const metric of result.metrics) expect(Number.isFinite(metric.value)).toBe(true);
    expect(result.metrics.map((m) => m.name)).toContain('@ops/core, WatchList: bytes read');
    expect(result.targets.map((t) => t.target)).toHaveLength(5);
    // The local server runs in the bench's child process: its memory is not measured apart.
    expect(result.targets[4]?.measured).toMatch(/not measured/);
  });
});
