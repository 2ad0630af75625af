import { afterEach, describe, expect, it } from 'vitest';
import { stopServers, tinyContext } from '../harness/test-context.js';
import { apiServerBenchmark } from './apiserver.js';

afterEach(stopServers);

describe('apiserver benchmark', () => {
  it('times every LIST and every fanned-out change', async () => {
    const context = tinyContext();
    const result = await apiServerBenchmark.run(context);
    const samples = result.samples as {
      bytes: number;
      listMs: number[];
      parseMs: number[];
      fanoutMs: number[];
    };
    expect(samples.listMs).toHaveLength(context.options.repeats);
    expect(samples.parseMs).toHaveLength(context.options.repeats);
    expect(samples.fanoutMs).toHaveLength(context.options.fanoutChanges);
    expect(samples.bytes).toBeGreaterThan(2_000 * context.options.objects);
    for (const metric of result.metrics) {
      expect(Number.isFinite(metric.value)).toBe(true);
      expect(metric.value).toBeGreaterThan(0);
    }
  });
});
