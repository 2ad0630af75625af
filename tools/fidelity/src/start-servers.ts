import { Environment } from '@ops/envtest';
import type { Logger } from 'pino';
import { httpTarget, type Target } from './target.js';

/** The two servers of a run, and how to stop them. */
export interface Servers {
  local: Target;
  real: Target;
  /** Stops both; safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Starts kube-apiserver (with etcd) through @ops/envtest's `binaries` plane — from
 * `KUBEBUILDER_ASSETS`, else the project's cache, built there with Go when absent, as
 * `pnpm control-plane build` does — and the local API server in-process, without its
 * simulated cluster: the real plane runs no kube-controller-manager either, so neither
 * server has controllers writing behind the corpus's back.
 *
 * @throws {ControlPlaneAssetsError} (from @ops/envtest) when the binaries are missing and
 *   cannot be built; its message says what to install.
 * @throws {Error} when a server does not start.
 */
export async function startServers(log: Logger): Promise<Servers> {
  const real = await Environment.start({
    controlPlane: 'binaries',
    log: (line) => log.info({ plane: 'real' }, line),
  });
  let local: Environment;
  try {
    // The real server is fresh, its etcd never compacted, so a watch from resourceVersion 1
    // still replays: keep the local server's history from its start to match.
    local = await Environment.start({
      controlPlane: 'local',
      apiServer: { cluster: false, historyFromStart: true },
    });
  } catch (error) {
    await real.stop();
    throw error;
  }
  return {
    local: httpTarget('local', local.kubeConfig),
    real: httpTarget('real', real.kubeConfig),
    async stop() {
      await Promise.all([local.stop(), real.stop()]);
    },
  };
}
