import { afterEach, describe, expect, it } from 'vitest';
import { stopServers, tinyContext } from '../harness/test-context.js';
import { myJobsCompletedBenchmark } from './myjobs-completed.js';

afterEach(stopServers);

describe('myjobs benchmark', () => {
  it('completes every MyJob, then writes nothing at rest', async () => {
    const result = await myJobsCompletedBenchmark.run(tinyContext());
    const value = (name: string) =>
      result.metrics.find((metric) => metric.name.startsWith(name))?.value;
    expect(result.id).toBe('myjobs');
    expect(value('time until')).toBeGreaterThan(0);
    // At least a Pod create and the status patch to completed per MyJob.
    expect(value('operator writes until all completed, per MyJob')).toBeGreaterThanOrEqual(2);
    expect(value('operator writes at rest')).toBe(0);
    expect(result.targets.every((target) => target.met)).toBe(true);
  }, 60_000);
});
