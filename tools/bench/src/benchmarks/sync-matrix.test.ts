import { afterEach, describe, expect, it } from 'vitest';
import { stopServers, tinyContext } from '../harness/test-context.js';
import { syncMatrixBenchmark } from './sync-matrix.js';

afterEach(stopServers);

describe('shapes benchmark (cold-sync matrix)', () => {
  it('syncs Helm ConfigMaps with every contender in fresh processes, reports each goal, and measures objects with managedFields, which the local server now keeps', async () => {
    const context = tinyContext({
      shapes: ['configmaps', 'managed-fields'],
      shapeSizes: [40, 80],
      otherObjects: 0,
      shapeRepeats: 1,
    });
    const result = await syncMatrixBenchmark.run(context);
    expect(result.id).toBe('shapes');
    const samples = result.samples as Record<
      string,
      Record<string, { ms: number[]; heap: number[]; cpuMs: number[] }>
    >;
    expect(Object.keys(samples)).toEqual([
      'Helm ConfigMaps, 40',
      'Helm ConfigMaps, 80',
      'ConfigMaps with managedFields, 40',
      'ConfigMaps with managedFields, 80',
    ]);
    for (const cell of Object.values(samples)) {
      expect(Object.keys(cell).sort()).toEqual(
        ['bare-http', 'client-node', 'floor', 'fluent', 'ops', 'ops-one-page'].sort(),
      );
      for (const run of Object.values(cell)) {
        expect(run.ms).toHaveLength(1);
        expect(run.ms[0]).toBeGreaterThan(0);
        // Every library keeps something per object once synced.
        expect(run.heap[0]).toBeGreaterThan(100);
      }
    }
    for (const metric of result.metrics) expect(Number.isFinite(metric.value)).toBe(true);
    const names = result.metrics.map((metric) => metric.name);
    expect(names).toContain('Helm ConfigMaps, 80: CPU ops / bare GET + JSON.parse');
    expect(names).toContain('Helm ConfigMaps, 80: CPU, @ops/core Informer');
    // Every library's CPU is reported, not only some.
    expect(names).toContain('Helm ConfigMaps, 80: CPU, fluent Watch');
    expect(names).toContain('Helm ConfigMaps, 80: CPU, @ops/core, one page');
    const goals = result.targets.map((target) => target.target);
    expect(goals).toContain('Helm ConfigMaps, 40: cold sync ops ≤ 1.15× bare GET + JSON.parse');
    expect(goals).toContain('Helm ConfigMaps, 80: client-node ≥ 1.3× ops');
    expect(goals).toContain('Helm ConfigMaps, 80: fluent ≥ 1.1× ops');
    expect(goals).toContain('Helm ConfigMaps, 80: default paging ≤ 1.02× one page');
    expect(goals).toContain('Helm ConfigMaps, 80: heap per object ops ≤ JSON.parse floor');
    expect(goals).toContain('Helm ConfigMaps: ops time per object at 80 / 40 ≤ 1.2×');
    expect(goals).toContain('Helm ConfigMaps: ops heap per object at 80 / 40 ≤ 1.2×');
    // The local server keeps managedFields (server-side apply), so that shape is measured.
    expect(goals.some((goal) => goal.startsWith('ConfigMaps with managedFields, 80: '))).toBe(true);
    expect(result.notes.some((note) => note.includes('dropped the managedFields'))).toBe(false);
    expect(result.charts.length).toBeGreaterThanOrEqual(2);
    // Twelve fresh processes on a loaded 2-core machine.
  }, 300_000);

  it('measures each size again with objects of the same resource in another namespace, on a server of its own', async () => {
    const context = tinyContext({
      shapes: ['pods'],
      shapeSizes: [30],
      otherObjects: 20,
      shapeRepeats: 1,
    });
    const result = await syncMatrixBenchmark.run(context);
    const samples = result.samples as Record<string, Record<string, { ms: number[] }>>;
    expect(Object.keys(samples)).toEqual(['Pods, 30', 'Pods, 30, 20 elsewhere']);
    // Every contender synced the measured namespace's 30 Pods, the others beside them or not.
    for (const cell of Object.values(samples))
      for (const run of Object.values(cell)) expect(run.ms).toEqual([expect.any(Number)]);
    expect(result.targets.map((target) => target.target)).toContain(
      'Pods, 30, 20 elsewhere: client-node ≥ 1.3× ops',
    );
    expect(result.notes.some((note) => note.includes('"elsewhere"'))).toBe(true);
  }, 300_000);
});
