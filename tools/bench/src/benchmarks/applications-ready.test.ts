import { afterEach, describe, expect, it } from 'vitest';
import { tinyBenchOptions } from '../benchmark.js';
import { expectBeforeAndAfter } from '../harness/expect-before-after.js';
import { stopServers, tinyContext } from '../harness/test-context.js';
import { applicationsReadyBenchmark } from './applications-ready.js';

afterEach(stopServers);

describe('applications benchmark', () => {
  it('gets every Application ready under both runtimes, then writes nothing at rest', async () => {
    const result = await applicationsReadyBenchmark.run(tinyContext());
    expect(result.id).toBe('applications');
    // At least the Deployment per Application (and the finalizer and status patches).
    expectBeforeAndAfter(
      result,
      { singular: 'Application', state: 'ready' },
      tinyBenchOptions.steadyObjects,
      1,
    );
  }, 120_000);
});
