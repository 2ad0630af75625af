/**
 * Test support (not a benchmark): a {@link BenchContext} with tiny options whose servers
 * are stopped by {@link stopServers}.
 */
import { type BenchContext, type BenchOptions, tinyBenchOptions } from '../benchmark.js';
import type { BenchServer, ServerStartOptions } from './bench-server.js';
import { localServerSource, type ServerSource } from './server-source.js';

const servers: BenchServer[] = [];

/**
 * A context with {@link tinyBenchOptions} (overridable) whose servers come from `source`
 * (default: the local API server) and are recorded for {@link stopServers}.
 */
export function tinyContext(
  overrides: Partial<BenchOptions> = {},
  source: ServerSource = localServerSource(),
): BenchContext {
  return {
    options: { ...tinyBenchOptions, ...overrides },
    serverKind: source.kind,
    serverName: source.name,
    log: () => undefined,
    startServer: async (serverOptions?: ServerStartOptions) => {
      const server = await source.start(serverOptions);
      servers.push(server);
      return server;
    },
  };
}

/** Stops every server a {@link tinyContext} started (for `afterEach`). */
export async function stopServers(): Promise<void> {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
}
