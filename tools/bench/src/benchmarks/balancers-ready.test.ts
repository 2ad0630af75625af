import { afterEach, describe, expect, it } from 'vitest';
import { tinyBenchOptions } from '../benchmark.js';
import { expectBeforeAndAfter } from '../harness/expect-before-after.js';
import { stopServers, tinyContext } from '../harness/test-context.js';
import { balancersReadyBenchmark } from './balancers-ready.js';

afterEach(stopServers);

describe('balancers benchmark', () => {
  it('brings every Balancer to ready under both runtimes, then writes nothing at rest', async () => {
    const result = await balancersReadyBenchmark.run(tinyContext());
    expect(result.id).toBe('balancers');
    // At least its six children (3 backend Services, ConfigMap, Deployment, front Service) and
    // one status patch per Balancer.
    expectBeforeAndAfter(
      result,
      { singular: 'Balancer', state: 'ready' },
      tinyBenchOptions.steadyObjects,
      7,
    );
  }, 120_000);
});
