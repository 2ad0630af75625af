import { cpus, platform, release } from 'node:os';
import type { BenchmarkModule, BenchmarkResult, BenchOptions } from './benchmark.js';
import {
  type BenchServer,
  mergeSeedings,
  type Seeding,
  type ServerKind,
  type ServerStartOptions,
} from './harness/bench-server.js';
import { libraryVersions } from './harness/library-versions.js';
import { localServerSource, type ServerSource } from './harness/server-source.js';

/** A benchmark the run did not execute on its server, and why. */
export interface SkippedBenchmark {
  id: string;
  title: string;
  reason: string;
}

/** Everything one run produced: what the JSON results file holds. */
export interface BenchReport {
  startedAt: string;
  durationMs: number;
  environment: {
    node: string;
    platform: string;
    cpus: number;
    cpuModel: string;
    /** The installed version of each library compared, by package name. */
    libraries: Record<string, string>;
  };
  /** The API server every benchmark and library of the run talked to. */
  server: { kind: ServerKind; name: string };
  options: BenchOptions;
  results: BenchmarkResult[];
  /** Benchmarks not run on this kind of server, with the reason. */
  skipped: SkippedBenchmark[];
  /** Every seeding of objects before the timed runs, by benchmark, with its duration. */
  seedings: Array<Seeding & { benchmark: string }>;
}

/**
 * Runs `modules` one after the other with `options`, against servers from `source` (default:
 * the local API server). Each module gets a context whose `startServer` starts a fresh
 * server; servers a module leaves running are stopped after it, even when it throws. A module
 * that declares it cannot run on the source's kind of server is skipped, with its reason
 * logged and listed in the report.
 *
 * @throws the first module error (after stopping its servers), prefixed with the module id.
 */
export async function runBenchmarks(
  modules: readonly BenchmarkModule[],
  options: BenchOptions,
  log: (message: string) => void = () => undefined,
  source: ServerSource = localServerSource(),
): Promise<BenchReport> {
  const startedAt = new Date();
  const begin = performance.now();
  const results: BenchmarkResult[] = [];
  const skipped: SkippedBenchmark[] = [];
  const seedings: BenchReport['seedings'] = [];
  for (const module of modules) {
    const moduleLog = (message: string) => log(`[${module.id}] ${message}`);
    const unsupported = module.unsupportedOn?.[source.kind];
    if (unsupported !== undefined) {
      moduleLog(`skipped on ${source.name}: ${unsupported}`);
      skipped.push({ id: module.id, title: module.title, reason: unsupported });
      continue;
    }
    const servers: BenchServer[] = [];
    moduleLog('starting');
    const moduleStart = performance.now();
    try {
      results.push(
        await module.run({
          options,
          serverKind: source.kind,
          serverName: source.name,
          log: moduleLog,
          startServer: async (serverOptions?: ServerStartOptions) => {
            const server = await source.start(serverOptions);
            servers.push(server);
            return server;
          },
        }),
      );
    } catch (error) {
      throw new Error(`benchmark ${module.id} failed: ${(error as Error).message}`, {
        cause: error,
      });
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
      for (const server of servers) {
        for (const seeding of server.seedings) seedings.push({ benchmark: module.id, ...seeding });
        for (const seeding of mergeSeedings(server.seedings))
          moduleLog(
            `seeded ${seeding.objects} ${seeding.kind}${seeding.namespaces > 1 ? ` over ${seeding.namespaces} namespaces` : ''} (${seeding.requests} requests) in ${(seeding.ms / 1000).toFixed(1)} s`,
          );
      }
    }
    moduleLog(`done in ${((performance.now() - moduleStart) / 1000).toFixed(1)} s`);
  }
  const cpuList = cpus();
  return {
    startedAt: startedAt.toISOString(),
    durationMs: performance.now() - begin,
    environment: {
      node: process.version,
      platform: `${platform()} ${release()}`,
      cpus: cpuList.length,
      cpuModel: cpuList[0]?.model ?? 'unknown',
      libraries: libraryVersions(),
    },
    server: { kind: source.kind, name: source.name },
    options,
    results,
    skipped,
    seedings,
  };
}
