import { afterEach, describe, expect, it } from 'vitest';
import { stopServers, tinyContext } from '../harness/test-context.js';
import { balancersReadyBenchmark } from './balancers-ready.js';

afterEach(stopServers);

describe('balancers benchmark', () => {
  it('brings every Balancer to ready, then writes nothing at rest', async () => {
    const result = await balancersReadyBenchmark.run(tinyContext());
    const value = (name: string) =>
      result.metrics.find((metric) => metric.name.startsWith(name))?.value;
    expect(result.id).toBe('balancers');
    expect(value('time until')).toBeGreaterThan(0);
    // At least its six children (3 backend Services, ConfigMap, Deployment, front Service) and
    // one status patch per Balancer.
    expect(value('operator writes until all ready, per Balancer')).toBeGreaterThanOrEqual(7);
    expect(value('operator writes at rest')).toBe(0);
    expect(result.targets.every((target) => target.met)).toBe(true);
  }, 60_000);
});
