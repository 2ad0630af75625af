import { describe, expect, it } from 'vitest';
import { benchmarks, selectBenchmarks } from './index.js';

describe('benchmark registry', () => {
  it('lists every benchmark once, with kebab-case ids', () => {
    const ids = benchmarks.map((module) => module.id);
    expect(ids).toEqual([
      'cold-sync',
      'heap',
      'metadata-heap',
      'shapes',
      'watch-list',
      'latency',
      'restart-priority',
      'failover-standby',
      'event-burst',
      'throughput',
      'steady-writes',
      'apiserver',
      'applications',
      'myjobs',
      'sidecar-admission',
      'balancers',
      'sharded-scale-out',
    ]);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-z0-9-]*$/);
    for (const module of benchmarks) expect(module.description.length).toBeGreaterThan(10);
  });

  it('selects by id in registry order, all when none are named', () => {
    expect(selectBenchmarks([]).map((module) => module.id)).toEqual(benchmarks.map((m) => m.id));
    expect(selectBenchmarks(['apiserver', 'heap']).map((module) => module.id)).toEqual([
      'heap',
      'apiserver',
    ]);
  });

  it('refuses unknown ids and names the known ones', () => {
    expect(() => selectBenchmarks(['nope'])).toThrow(/unknown benchmark nope; known: cold-sync/);
  });
});
