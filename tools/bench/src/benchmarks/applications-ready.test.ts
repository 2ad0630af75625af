import { afterEach, describe, expect, it } from 'vitest';
import { stopServers, tinyContext } from '../harness/test-context.js';
import { applicationsReadyBenchmark } from './applications-ready.js';

afterEach(stopServers);

describe('applications benchmark', () => {
  it('gets every Application ready, then writes nothing at rest', async () => {
    const result = await applicationsReadyBenchmark.run(tinyContext());
    const value = (name: string) =>
      result.metrics.find((metric) => metric.name.startsWith(name))?.value;
    expect(result.id).toBe('applications');
    expect(Number.isFinite(value('time until'))).toBe(true);
    expect(value('operator writes until all ready, per Application')).toBeGreaterThan(0);
    expect(value('operator writes at rest')).toBe(0);
    expect(result.targets.every((target) => target.met)).toBe(true);
  });
});
