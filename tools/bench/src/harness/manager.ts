import { Manager, type ManagerOptions } from '@ops/core';
import { pino } from 'pino';
import type { BenchServer } from './bench-server.js';
import { waitUntil } from './wait.js';

/** A started manager and how to stop it. */
export interface RunningManager {
  manager: Manager;
  /** Aborts the manager and waits until it has stopped. */
  stop(): Promise<void>;
}

/**
 * A {@link Manager} for the bench server: silent logs, no metrics or health servers (no
 * ports to collide), restricted to `namespace` (all namespaces when undefined). `configure` adds the controllers; the
 * manager is started and this resolves once its caches synced and controllers run.
 *
 * @throws {Error} when the manager fails to start or is not running within 60 s.
 */
export async function startManager(
  server: BenchServer,
  namespace: string | undefined,
  configure: (manager: Manager) => void,
  options: Partial<ManagerOptions> = {},
): Promise<RunningManager> {
  const manager = new Manager({
    kubeConfig: server.kubeConfig(),
    logger: pino({ level: 'silent' }),
    metricsBindAddress: false,
    healthProbeBindAddress: false,
    ...(namespace === undefined ? {} : { namespace }),
    gracefulShutdownTimeoutMs: 5_000,
    ...options,
  });
  configure(manager);
  const abort = new AbortController();
  let failure: unknown;
  const running = manager.start(abort.signal).catch((error: unknown) => {
    failure = error;
  });
  await waitUntil(
    () => {
      if (failure !== undefined) throw failure;
      return manager.isLeader();
    },
    'the manager to start its controllers',
    60_000,
  );
  return {
    manager,
    stop: async () => {
      abort.abort();
      await running;
    },
  };
}
