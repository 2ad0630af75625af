import { describe, expect, it } from 'vitest';
import { type BenchmarkModule, tinyBenchOptions } from './benchmark.js';
import type { BenchServer } from './harness/bench-server.js';
import { runBenchmarks } from './runner.js';

describe('runBenchmarks', () => {
  it('runs a registered module with a context and stops the servers it left running', async () => {
    let started: BenchServer | undefined;
    const module: BenchmarkModule = {
      id: 'extension',
      title: 'Extension',
      description: 'a module as the next issue will add one',
      async run(context) {
        started = await context.startServer();
        await started.seedConfigMaps('extension', 'cm', 3);
        context.log('seeded');
        return {
          id: 'extension',
          title: 'Extension',
          metrics: [{ name: 'objects', value: 3, unit: 'objects' }],
          targets: [],
          charts: [],
          notes: [],
          samples: { revision: await started.revision() },
        };
      },
    };
    const messages: string[] = [];
    const report = await runBenchmarks([module], tinyBenchOptions, (m) => messages.push(m));
    expect(report.results.map((result) => result.id)).toEqual(['extension']);
    expect(report.options).toEqual(tinyBenchOptions);
    expect(report.environment.cpus).toBeGreaterThan(0);
    expect(Object.keys(report.environment.libraries)).toContain('kubernetes-fluent-client');
    expect(messages).toContain('[extension] seeded');
    // Left running by the module, stopped by the runner.
    await expect(started?.revision()).rejects.toThrow(/exited/);
  });

  it('names the failing module and still stops its servers', async () => {
    let started: BenchServer | undefined;
    const failing: BenchmarkModule = {
      id: 'failing',
      title: 'Failing',
      description: 'throws after starting a server',
      async run(context) {
        started = await context.startServer();
        throw new Error('boom');
      },
    };
    await expect(runBenchmarks([failing], tinyBenchOptions)).rejects.toThrow(
      'benchmark failing failed: boom',
    );
    await expect(started?.revision()).rejects.toThrow(/exited/);
  });
});
