import { afterEach, describe, expect, it } from 'vitest';
import { stopServers, tinyContext } from '../harness/test-context.js';
import { coldSyncBenchmark } from './cold-sync.js';

afterEach(stopServers);

describe('cold-sync benchmark', () => {
  it('syncs every Pod with each library and reports finite medians and ratios', async () => {
    const context = tinyContext();
    const result = await coldSyncBenchmark.run(context);
    expect(result.id).toBe('cold-sync');
    const samples = result.samples as {
      ms: Record<string, number[]>;
      failed: object;
      listBytes: number;
    };
    // Every contender ran (a failure would be listed) and ran once per repeat.
    expect(samples.failed).toEqual({});
    expect(Object.keys(samples.ms).sort()).toEqual(
      ['bare-http', 'client-node', 'floor', 'fluent', 'ops', 'ops-page-200'].sort(),
    );
    for (const values of Object.values(samples.ms)) {
      expect(values).toHaveLength(context.options.repeats);
      for (const ms of values) expect(ms).toBeGreaterThan(0);
    }
    // Realistic Pods: 2-3.5 KB each.
    const perPod = samples.listBytes / context.options.objects;
    expect(perPod).toBeGreaterThan(2_000);
    // About 3 KB of Pod and, since the local server keeps them, its managedFields.
    expect(perPod).toBeLessThan(8_000);
    for (const metric of result.metrics) expect(Number.isFinite(metric.value)).toBe(true);
    const names = result.metrics.map((metric) => metric.name);
    expect(names).toContain('@ops/core Informer / floor');
    expect(names).toContain('@kubernetes/client-node informer / ops');
    expect(names).toContain('kubernetes-fluent-client Watch / ops');
    expect(names).toContain('@ops/core Informer / bare HTTP GET + JSON.parse');
    expect(result.targets.map((target) => target.target)).toEqual([
      'ops faster than every peer',
      'ops within 1.5× of the floor',
    ]);
    expect(result.charts[0]?.bars).toHaveLength(6);
  });
});
