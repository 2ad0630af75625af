import type { KubeConfig } from '@kubernetes/client-node';
import type { Manager, ManagerOptions } from '@ops/core';

/** What {@link startOperatorManager} needs of a manager: `@ops/core`'s `Manager` has it. */
export type OperatorManagerLike = Pick<Manager, 'start' | 'isLeader'>;

/** The manager options {@link startOperatorManager} sets; the factory adds its own. */
export interface OperatorManagerSettings {
  /** The operator's identity: its ServiceAccount's kubeconfig. */
  kubeConfig: KubeConfig;
  /** `false`: no fixed ports in tests (parallel files would collide on :8080). */
  metricsBindAddress: false;
  /** `false`: no fixed ports in tests (parallel files would collide on :8081). */
  healthProbeBindAddress: false;
  /** Records the manager's writes in {@link RunningOperatorManager.writes}. */
  onRequest: NonNullable<ManagerOptions['onRequest']>;
}

/** Options of {@link startOperatorManager}. */
export interface OperatorManagerOptions<M extends OperatorManagerLike> {
  /**
   * Who the operator runs as: the identity `env.operatorServiceAccount(configDir)` (or
   * `env.serviceAccount(...)`) returns.
   */
  identity: { kubeConfig: KubeConfig };
  /**
   * Makes the manager from the settings, adding what the test chooses (a logger, a webhook
   * server): `(settings) => new Manager({ ...settings, logger })`. Passed in so that this
   * package does not carry a second copy of `@ops/core`.
   */
  createManager: (settings: OperatorManagerSettings) => M;
  /** The operator's own setup, as its entry point runs it: controllers, webhooks, runnables. */
  setup: (manager: M) => void | Promise<void>;
  /**
   * Where the writes are recorded (default: a new array); pass the same array to every
   * start of one suite to keep one record across operator restarts.
   */
  writes?: string[];
  /** How long the manager may take to lead (caches synced, controllers started). Default 10 s. */
  timeoutMs?: number;
  /**
   * Whether to resolve only once the manager leads (default true). False starts a standby
   * replica (a manager with leader election whose Lease another holds): it resolves once
   * `start` was called, and the caller watches `manager.isLeader()`.
   */
  waitForLeadership?: boolean;
}

/** An operator's manager started by {@link startOperatorManager}. */
export interface RunningOperatorManager<M extends OperatorManagerLike> {
  readonly manager: M;
  /**
   * Every write the manager's client has sent (any verb but get and list: create, update,
   * patch, delete, deletecollection), as `<verb> <resource>` (`create deployments`), in order.
   */
  readonly writes: string[];
  /**
   * Stops the manager as SIGTERM would (aborts its signal) and resolves once it has stopped.
   * Safe to call twice.
   *
   * @throws the manager's own error when it failed while running.
   */
  stop(): Promise<void>;
  /**
   * Settles once the manager's `start` has: with the error it rejected with (a manager that
   * lost leadership rejects, as `@ops/core` documents), or none when it stopped. Never rejects.
   */
  readonly exited: Promise<{ error?: unknown }>;
}

const readVerbs: ReadonlySet<string> = new Set(['get', 'list']);

/**
 * Runs an operator's manager in the test process as it runs in a cluster: as the operator's
 * ServiceAccount (`identity`, under its rendered RBAC), with the operator's own `setup`, no
 * metrics or probe ports, and every write it sends counted. Resolves once the manager leads
 * (its caches synced and its controllers started), so the test's first write is seen.
 *
 * @throws {Error} `the operator's manager failed to start: ...` (the manager's error as its
 *   `cause`) when `start` rejects before it leads; `the operator's manager did not lead
 *   within <n> ms ...` after `timeoutMs` (the manager is stopped first); whatever `setup`
 *   throws, before anything started.
 */
export async function startOperatorManager<M extends OperatorManagerLike>(
  options: OperatorManagerOptions<M>,
): Promise<RunningOperatorManager<M>> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new Error(
      `startOperatorManager: timeoutMs must be a positive number of milliseconds, got ${timeoutMs}`,
    );
  }
  const writes = options.writes ?? [];
  const manager = options.createManager({
    kubeConfig: options.identity.kubeConfig,
    metricsBindAddress: false,
    healthProbeBindAddress: false,
    onRequest: (verb, resource) => {
      if (!readVerbs.has(verb)) writes.push(`${verb} ${resource}`);
    },
  });
  await options.setup(manager);
  const stopping = new AbortController();
  const running = manager.start(stopping.signal);
  let outcome: { error: unknown } | 'stopped' | undefined;
  running.then(
    () => {
      outcome ??= 'stopped';
    },
    (error: unknown) => {
      outcome ??= { error };
    },
  );
  const stop = async () => {
    stopping.abort();
    await running;
  };
  const exited = running.then(
    () => ({}),
    (error: unknown) => ({ error }),
  );
  if (options.waitForLeadership === false) return { manager, writes, stop, exited };
  const deadline = Date.now() + timeoutMs;
  while (!manager.isLeader()) {
    if (outcome !== undefined) {
      if (outcome === 'stopped') throw new Error("the operator's manager stopped before it led");
      const { error } = outcome;
      const message = error instanceof Error ? error.message : String(error);
      throw new Error(`the operator's manager failed to start: ${message}`, { cause: error });
    }
    if (Date.now() > deadline) {
      await stop().catch(() => undefined);
      throw new Error(
        `the operator's manager did not lead within ${timeoutMs} ms: its caches did not sync or its controllers did not start (raise timeoutMs on a slow control plane)`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { manager, writes, stop, exited };
}
