import { afterEach, describe, expect, it } from 'vitest';
import { tinyBenchOptions } from '../benchmark.js';
import { expectBeforeAndAfter } from '../harness/expect-before-after.js';
import { stopServers, tinyContext } from '../harness/test-context.js';
import { myJobsCompletedBenchmark } from './myjobs-completed.js';

afterEach(stopServers);

describe('myjobs benchmark', () => {
  it('completes every MyJob under both runtimes, then writes nothing at rest', async () => {
    const result = await myJobsCompletedBenchmark.run(tinyContext());
    expect(result.id).toBe('myjobs');
    // At least a Pod create and the status patch to completed per MyJob.
    expectBeforeAndAfter(
      result,
      { singular: 'MyJob', state: 'completed' },
      tinyBenchOptions.steadyObjects,
      2,
    );
  }, 120_000);
});
