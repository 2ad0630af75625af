import { afterEach, describe, expect, it } from 'vitest';
import { stopServers, tinyContext } from '../harness/test-context.js';
import { heapPerObjectBenchmark } from './heap-per-object.js';

afterEach(stopServers);

describe('heap benchmark', () => {
  it('measures both caches once per repeat and reports a finite ratio', async () => {
    const context = tinyContext({ objects: 300 });
    const result = await heapPerObjectBenchmark.run(context);
    const samples = result.samples as { bytesPerObject: Record<string, number[]> };
    expect(samples.bytesPerObject.ops).toHaveLength(context.options.repeats);
    expect(samples.bytesPerObject['client-node']).toHaveLength(context.options.repeats);
    expect(result.metrics.map((metric) => metric.unit)).toEqual([
      'B/object',
      'B/object',
      'B/object',
      '×',
      '×',
    ]);
    expect(samples.bytesPerObject.parsed).toHaveLength(context.options.repeats);
    for (const metric of result.metrics) expect(Number.isFinite(metric.value)).toBe(true);
    expect(result.targets).toHaveLength(1);
    expect(typeof result.targets[0]?.met).toBe('boolean');
  });
});
