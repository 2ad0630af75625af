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
          samples: { revision: await started.revision('extension', 'configmaps') },
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
    expect(
      messages.some((m) => /^\[extension\] seeded 3 ConfigMaps \(3 requests\) in /.test(m)),
    ).toBe(true);
    expect(report.server).toEqual({
      kind: 'local',
      name: expect.stringMatching(/^local API server/),
    });
    expect(report.seedings).toEqual([
      expect.objectContaining({ benchmark: 'extension', kind: 'ConfigMaps', objects: 3 }),
    ]);
    // Left running by the module, stopped by the runner.
    await expect(started?.revision('extension', 'configmaps')).rejects.toThrow(/exited/);
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
    await expect(started?.revision('failing', 'configmaps')).rejects.toThrow(/exited/);
  });

  it('skips a module that cannot run on the server kind, says why and runs the rest', async () => {
    let ran = false;
    const unsupported: BenchmarkModule = {
      id: 'cluster-only',
      title: 'Cluster only',
      description: 'needs what the local server lacks',
      unsupportedOn: { local: 'needs nodes' },
      async run() {
        ran = true;
        throw new Error('must not run');
      },
    };
    const messages: string[] = [];
    const report = await runBenchmarks([unsupported], tinyBenchOptions, (m) => messages.push(m));
    expect(ran).toBe(false);
    expect(report.results).toEqual([]);
    expect(report.skipped).toEqual([
      { id: 'cluster-only', title: 'Cluster only', reason: 'needs nodes' },
    ]);
    expect(messages.some((m) => m.startsWith('[cluster-only] skipped on local API server'))).toBe(
      true,
    );
  });
});
