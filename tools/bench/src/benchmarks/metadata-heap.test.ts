import { afterEach, describe, expect, it } from 'vitest';
import { stopServers, tinyContext } from '../harness/test-context.js';
import { metadataHeapBenchmark } from './metadata-heap.js';

afterEach(stopServers);

describe('metadata-heap benchmark', () => {
  it('measures the whole and the metadata-only informer once per repeat, with one goal line', async () => {
    const context = tinyContext({ objects: 300 });
    const result = await metadataHeapBenchmark.run(context);
    const samples = result.samples as { bytesPerObject: Record<string, number[]> };
    expect(samples.bytesPerObject.ops).toHaveLength(context.options.repeats);
    expect(samples.bytesPerObject['ops-metadata']).toHaveLength(context.options.repeats);
    expect(result.metrics.map((metric) => metric.unit)).toEqual(['B/object', 'B/object', '×']);
    for (const metric of result.metrics) expect(Number.isFinite(metric.value)).toBe(true);
    expect(result.targets).toHaveLength(1);
    expect(typeof result.targets[0]?.met).toBe('boolean');
  });
});
