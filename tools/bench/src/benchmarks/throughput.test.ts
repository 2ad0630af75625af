import { describe, expect, it } from 'vitest';
import { tinyContext } from '../harness/test-context.js';
import { throughputBenchmark } from './throughput.js';

describe('throughput benchmark', () => {
  it('reports a positive rate for every worker count and finite ratios between them', async () => {
    const context = tinyContext();
    const result = await throughputBenchmark.run(context);
    const samples = result.samples as Record<string, number[]>;
    expect(Object.keys(samples).sort()).toEqual(
      ['io-1', 'io-16', 'io-4', 'noop-1', 'noop-16', 'noop-4', 'queue'].sort(),
    );
    for (const values of Object.values(samples))
      expect(values).toHaveLength(context.options.repeats);
    expect(result.metrics).toHaveLength(1 + 2 * (3 + 2));
    for (const metric of result.metrics) {
      expect(Number.isFinite(metric.value)).toBe(true);
      expect(metric.value).toBeGreaterThan(0);
    }
    expect(result.metrics.filter((metric) => metric.unit === '×')).toHaveLength(4);
  });
});
