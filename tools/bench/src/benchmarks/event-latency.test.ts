import { afterEach, describe, expect, it } from 'vitest';
import { stopServers, tinyContext } from '../harness/test-context.js';
import { eventLatencyBenchmark } from './event-latency.js';

afterEach(stopServers);

describe('latency benchmark', () => {
  it('reconciles every write and reports ordered, finite percentiles', async () => {
    const context = tinyContext();
    const result = await eventLatencyBenchmark.run(context);
    const writes = (context.options.latencyRate * context.options.latencyDurationMs) / 1000;
    const samples = result.samples as {
      fromResponseMs: number[];
      fromRequestMs: number[];
      missed: number;
    };
    // Counts equal: every write was seen by a reconcile.
    expect(samples.missed).toBe(0);
    expect(samples.fromResponseMs).toHaveLength(writes);
    expect(samples.fromRequestMs).toHaveLength(writes);
    for (const ms of samples.fromResponseMs) expect(ms).toBeGreaterThanOrEqual(0);
    const value = (name: string) => result.metrics.find((metric) => metric.name === name)?.value;
    const p50 = value('p50 from write response') ?? Number.NaN;
    const p99 = value('p99 from write response') ?? Number.NaN;
    expect(Number.isFinite(p50)).toBe(true);
    expect(p99).toBeGreaterThanOrEqual(p50);
    expect(value('writes never reconciled')).toBe(0);
  });
});
