/**
 * Test support (not a benchmark): a {@link BenchContext} with tiny options whose servers
 * are stopped by {@link stopServers}.
 */
import { type BenchContext, type BenchOptions, tinyBenchOptions } from '../benchmark.js';
import { BenchServer } from './bench-server.js';

const servers: BenchServer[] = [];

/** A context with {@link tinyBenchOptions} (overridable) that records its servers. */
export function tinyContext(overrides: Partial<BenchOptions> = {}): BenchContext {
  return {
    options: { ...tinyBenchOptions, ...overrides },
    log: () => undefined,
    startServer: async (serverOptions?: { cluster?: boolean }) => {
      const server = await BenchServer.start(serverOptions);
      servers.push(server);
      return server;
    },
  };
}

/** Stops every server a {@link tinyContext} started (for `afterEach`). */
export async function stopServers(): Promise<void> {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
}
