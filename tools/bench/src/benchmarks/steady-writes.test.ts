import { afterEach, describe, expect, it } from 'vitest';
import { stopServers, tinyContext } from '../harness/test-context.js';
import { steadyWritesBenchmark } from './steady-writes.js';

afterEach(stopServers);

describe('steady-writes benchmark', () => {
  it('keeps reconciling while nothing changes and writes nothing', async () => {
    const context = tinyContext();
    const result = await steadyWritesBenchmark.run(context);
    const samples = result.samples as Record<string, number>;
    // Settling created one copy per source.
    expect(samples.settleWrites).toBeGreaterThanOrEqual(context.options.steadyObjects);
    expect(samples.quietReconciles).toBeGreaterThanOrEqual(context.options.steadyObjects);
    expect(samples.quietClientWrites).toBe(0);
    expect(samples.quietServerWrites).toBe(0);
    expect(samples.revisionMoved).toBe(false);
    expect(samples.failures).toBe(0);
    expect(result.targets[0]?.met).toBe(true);
  });
});
