import { KubeConfig } from '@kubernetes/client-node';
import pino from 'pino';
import type { ControllerKinds } from '../crd/owner-reference-permissions.js';
import { Manager } from '../manager/manager.js';
import type { OperatorDefinition } from './operator-definition.js';
import { parseOperatorFlags } from './operator-flags.js';

/**
 * What the operator's controllers reconcile and own, read from the operator itself: runs
 * `definition.setup` on a manager that is never started and returns its
 * `controllerKinds()`. The manifests generator derives the owner-reference RBAC from it
 * (`ownerReferencePermissions` in `@ops/core/crd`), so the rules follow the `for()` and
 * `owns()` calls with nothing written by hand.
 *
 * The manager talks to no cluster: its kubeconfig points at an address nothing listens on
 * (`https://127.0.0.1:1`), it serves neither metrics nor health, it logs nothing, and every
 * informer `setup` may have started is stopped before this resolves. `setup` gets the flags
 * of a run with `--sharding` and no other argument or environment
 * (`parseOperatorFlags(['--sharding'], {})`) and a silent logger: a controller that shards
 * when the flag is on reports its ring (`sharding`), so the generated RBAC covers the
 * operator both with and without `--sharding` (one role serves every overlay). A definition
 * without `setup` has no controllers (`[]`).
 *
 * @throws {Error} `setup`'s own error, with the operator named and the original as `cause`:
 * a setup that needs the cluster while it registers its controllers (awaiting a read, a
 * REST mapping) cannot be read this way.
 */
export async function controllerKindsOf(
  definition: Pick<OperatorDefinition, 'name' | 'setup'>,
): Promise<ControllerKinds[]> {
  if (definition.setup === undefined) return [];
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'offline', server: 'https://127.0.0.1:1', skipTLSVerify: true }],
    users: [{ name: 'offline' }],
    contexts: [{ name: 'offline', cluster: 'offline', user: 'offline' }],
    currentContext: 'offline',
  });
  const logger = pino({ level: 'silent' });
  const manager = new Manager({
    kubeConfig,
    logger,
    metricsBindAddress: false,
    healthProbeBindAddress: false,
  });
  try {
    await definition.setup(manager, { logger, flags: parseOperatorFlags(['--sharding'], {}) });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(
      `reading the controllers of ${definition.name}: its setup failed without a cluster (${message}); setup must only register controllers (for/owns/watches) and leave reads to the reconcilers`,
      { cause: error },
    );
  } finally {
    await manager.cache.stop();
  }
  return manager.controllerKinds();
}
