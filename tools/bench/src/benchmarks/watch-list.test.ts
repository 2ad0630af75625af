import { afterEach, describe, expect, it } from 'vitest';
import { stopServers, tinyContext } from '../harness/test-context.js';
import { watchListBenchmark } from './watch-list.js';

afterEach(stopServers);

interface CellSamples {
  runs: Record<string, { ms: number[]; heap: number[] }>;
  failed: Record<string, string>;
}

describe('watch-list benchmark', () => {
  it('syncs Pods and Helm ConfigMaps with every contender and judges each cell', async () => {
    // managed-fields is not one of this benchmark's shapes.
    const result = await watchListBenchmark.run(tinyContext({ shapeSizes: [40], shapeRepeats: 1 }));
    expect(result.id).toBe('watch-list');
    const cells = result.samples as Record<string, CellSamples>;
    expect(Object.keys(cells)).toEqual(['Pods, 40', 'Helm ConfigMaps, 40']);
    for (const cell of Object.values(cells)) {
      expect(cell.failed).toEqual({});
      expect(Object.keys(cell.runs).sort()).toEqual(
        [
          'bare-http',
          'bare-watch-list',
          'client-node',
          'fluent',
          'ops-list',
          'ops-list-gzip',
          'ops-watch-list',
          'ops-watch-list-gzip',
        ].sort(),
      );
      for (const run of Object.values(cell.runs)) {
        expect(run.ms).toHaveLength(1);
        expect(run.ms[0]).toBeGreaterThan(0);
        expect(run.heap[0]).toBeGreaterThan(100);
      }
    }
    for (const metric of result.metrics) expect(Number.isFinite(metric.value)).toBe(true);
    const names = result.metrics.map((m) => m.name);
    expect(names).toContain(
      'Helm ConfigMaps, 40: @ops/core, WatchList (its defaults on loopback): bytes read',
    );
    expect(names).toContain('Pods, 40: floor: bare WatchList / bare GET (time)');
    expect(result.targets).toHaveLength(2 * 5);
    expect(result.charts).toHaveLength(2);
    // The local server runs in the bench's child process: its memory is not measured apart.
    const memoryGoal = result.targets.find((t) => t.target.startsWith('Pods, 40: API server'));
    expect(memoryGoal?.measured).toMatch(/not measured/);
  });
});
