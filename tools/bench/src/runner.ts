import { cpus, platform, release } from 'node:os';
import type { BenchmarkModule, BenchmarkResult, BenchOptions } from './benchmark.js';
import { BenchServer } from './harness/bench-server.js';
import { libraryVersions } from './harness/library-versions.js';

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
  options: BenchOptions;
  results: BenchmarkResult[];
}

/**
 * Runs `modules` one after the other with `options`. Each module gets a context whose
 * `startServer` starts a fresh local API server; servers a module leaves running are
 * stopped after it, even when it throws.
 *
 * @throws the first module error (after stopping its servers), prefixed with the module id.
 */
export async function runBenchmarks(
  modules: readonly BenchmarkModule[],
  options: BenchOptions,
  log: (message: string) => void = () => undefined,
): Promise<BenchReport> {
  const startedAt = new Date();
  const begin = performance.now();
  const results: BenchmarkResult[] = [];
  for (const module of modules) {
    const servers: BenchServer[] = [];
    const moduleLog = (message: string) => log(`[${module.id}] ${message}`);
    moduleLog('starting');
    const moduleStart = performance.now();
    try {
      results.push(
        await module.run({
          options,
          log: moduleLog,
          startServer: async (serverOptions?: { cluster?: boolean }) => {
            const server = await BenchServer.start(serverOptions);
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
    options,
    results,
  };
}
