import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type configMaps, events, type KubernetesObject, Manager, type services } from '@ops/core';
import { eventually, OperatorHarness, startOperatorEnvironment } from '@ops/envtest';
import pino from 'pino';
import YAML from 'yaml';
import { type Balancer, balancerResource } from '../src/api/v1alpha1/balancer.js';
import { addBalancerController } from '../src/operator.js';

/** The operator's logs: silent unless OPERATOR_LOG_LEVEL names a level. */
const logger = pino({ level: process.env.OPERATOR_LOG_LEVEL ?? 'silent' });
const operatorRoot = fileURLToPath(new URL('..', import.meta.url));
/** Every object of the suites lives here. */
export const namespace = 'default';

/** The `Ready` condition of a Balancer, if it has one. */
export const readyCondition = (balancer: Balancer) =>
  balancer.status?.conditions?.find((condition) => condition.type === 'Ready');

/** A file of config/samples, parsed (every document). */
export async function sampleDocuments(file: string): Promise<KubernetesObject[]> {
  const text = await readFile(join(operatorRoot, 'config', 'samples', file), 'utf8');
  return YAML.parseAllDocuments(text).map((document) => document.toJS() as KubernetesObject);
}

/**
 * The balancer-operator as it runs in a cluster, on the control plane `@ops/envtest` starts for
 * a suite that needs Pods (`requires: 'pods'`: the local API server's simulated cluster, or
 * with `OPS_ENVTEST_CONTROL_PLANE=binaries` the cluster plane of kwok nodes, where Deployments
 * get Pods and Services get Endpoints of their ready Pods): the manager runs as its
 * ServiceAccount under the RBAC `kubectl kustomize config/default` renders, so the API
 * server's authorizer checks the generated role.
 */
export class BalancerHarness extends OperatorHarness<Manager> {
  static async start(): Promise<BalancerHarness> {
    return new BalancerHarness(await startOperatorEnvironment(operatorRoot, { requires: 'pods' }), {
      createManager: (settings) => new Manager({ ...settings, logger }),
      // Name conflicts are looked at again every second, not every 30 s, to keep the suite short.
      setup: (manager) => addBalancerController(manager, { conflictRecheckMs: 1000 }),
    });
  }

  balancer(name: string): Promise<Balancer> {
    return this.admin.get(balancerResource, name, namespace);
  }

  /** Resolves with Balancer `name` once `check` holds for it (up to 60 s). */
  until(
    name: string,
    description: string,
    check: (balancer: Balancer) => boolean,
  ): Promise<Balancer> {
    return eventually(
      async () => {
        const balancer = await this.balancer(name);
        return check(balancer) && balancer;
      },
      { description: `Balancer ${name}: ${description}`, timeoutMs: 60_000 },
    );
  }

  /** Resolves with Balancer `name` once its status describes its spec and is Ready. */
  ready(name: string): Promise<Balancer> {
    return this.until(
      name,
      'Ready for its current generation',
      (balancer) =>
        balancer.status?.observedGeneration === balancer.metadata.generation &&
        readyCondition(balancer)?.status === 'True',
    );
  }

  /** Whether the object is gone (404). */
  async gone(kind: typeof services | typeof configMaps, name: string): Promise<boolean> {
    return this.admin.get(kind, name, namespace).then(
      () => false,
      (error: { code?: number }) => error.code === 404,
    );
  }

  /** The Events about the object `name`, as `reason: message`. */
  async events(name: string): Promise<string[]> {
    const list = await this.admin.list(events, {
      namespace,
      fieldSelector: `involvedObject.name=${name}`,
    });
    return list.items.map((event) => `${event.reason ?? ''}: ${event.message ?? ''}`);
  }

  /** Waits for the operator's queue to drain: its writes stop for 750 ms. */
  override settle(quietMs = 750): Promise<void> {
    return super.settle(quietMs);
  }
}
