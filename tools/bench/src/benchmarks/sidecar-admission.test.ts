import { afterEach, describe, expect, it } from 'vitest';
import { stopServers, tinyContext } from '../harness/test-context.js';
import { sidecarAdmissionBenchmark } from './sidecar-admission.js';

afterEach(stopServers);

describe('sidecar-admission benchmark', () => {
  it('times Pod creation without the webhook, unmatched and injected, and the webhook’s rate', async () => {
    const result = await sidecarAdmissionBenchmark.run(tinyContext());
    const value = (name: string) => result.metrics.find((metric) => metric.name === name)?.value;
    expect(result.id).toBe('sidecar-admission');
    for (const name of [
      'Pod create without the webhook, p50',
      'Pod create through the webhook, not matched, p99',
      'Pod create injected, p50',
      'Pod create injected, p99',
      'webhook AdmissionReviews per second',
    ])
      expect(value(name)).toBeGreaterThan(0);
    expect(value('Pod create injected, p99')).toBeGreaterThanOrEqual(
      value('Pod create injected, p50') ?? Number.POSITIVE_INFINITY,
    );
    expect(value('injected / without the webhook, p50')).toBeCloseTo(
      (value('Pod create injected, p50') ?? 0) /
        (value('Pod create without the webhook, p50') ?? 1),
    );
    const samples = result.samples as { baseline: number[]; injected: number[]; reviews: number };
    expect(samples.baseline).toHaveLength(50);
    expect(samples.injected).toHaveLength(50);
    expect(samples.reviews).toBe(250);
  }, 60_000);
});
