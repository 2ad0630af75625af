import type { KubeConfig } from '@kubernetes/client-node';
import type { KubernetesObject } from '@ops/core';
import { applyObjects } from '../apply-objects.js';
import {
  type ControlPlaneKind,
  chooseControlPlane,
  Environment,
  type EnvironmentOptions,
} from '../environment.js';
import { eventually } from '../eventually.js';
import { kubeRequest } from '../kube-request.js';
import { type RenderedOperator, renderOperator } from '../rendered-operator.js';
import type { ServiceAccountIdentity } from '../service-account-identity.js';
import {
  type NamespacedResource,
  namespacedResources,
  removeNamespace,
} from './namespace-cleanup.js';
import type { PerturbationKind } from './schedule.js';

/** What a {@link RunPlane} needs of a scenario: its namespace, CRDs and control plane options. */
export interface PlaneScenario {
  namespace?: string;
  crds?: KubernetesObject[];
  environment?: EnvironmentOptions;
  /** The operator's install ({@link RunPlane.operatorIdentity}): a local plane then authorizes with RBAC. */
  operatorConfig?: string;
}

/** Where one run happens: its control plane and its namespace. */
export interface RunSpace {
  /**
   * The run's control plane: its admin kubeconfig, (local, binaries) its API server restart,
   * and the webhook configurations of a scenario that serves webhooks.
   */
  readonly env: Pick<
    Environment,
    'kind' | 'kubeConfig' | 'restartApiServer' | 'installWebhooks' | 'serviceAccount'
  >;
  /** The namespace the run's objects go in (created, empty, when the run starts). */
  readonly namespace: string;
  /** The name the outcome gives {@link namespace}: the scenario's, the same for every run. */
  readonly reportedNamespace: string;
  /**
   * Ends the run: stops its control plane (local), or removes its namespace and everything in
   * it and waits until that is gone (real planes), so the next run's operator sees nothing of
   * it. Call it once the operator is stopped.
   */
  close(): Promise<void>;
}

/** Options of {@link RunPlane.start}. */
export interface RunPlaneOptions {
  /**
   * The plane, overriding the scenario's `environment.controlPlane` (default: the scenario's,
   * resolved as {@link Environment.start} resolves it: `OPS_ENVTEST_CONTROL_PLANE`, else
   * `KUBEBUILDER_ASSETS`, else local). `binaries` for a scenario that requires Pods gives
   * `cluster`.
   */
  controlPlane?: ControlPlaneKind | 'auto';
}

const namespacePattern = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * The control plane the runs of one exploration happen on, chosen as {@link Environment.start}
 * chooses it. Each run gets a control plane of its own where that is cheap, and a namespace of
 * its own where it is not:
 *
 * - `local`: every run starts its own in-process API server (milliseconds), with the CRDs and
 *   the scenario's namespace;
 * - `binaries` (etcd + kube-apiserver) and `cluster` (with kube-controller-manager,
 *   kube-scheduler and kwok nodes): one control plane for the whole exploration, started by
 *   {@link start} with the CRDs installed once; each run gets a fresh namespace named after
 *   the scenario's (`explore-1`, `explore-2`, ...; the outcome names each by the scenario's,
 *   so runs compare), removed with all it holds when the run closes, before the next starts:
 *   the operator under test watches cluster-wide, and a leftover of one run would be
 *   reconciled (and its writes counted) in the next.
 *
 * Guarantees: a run's namespace exists and is empty when {@link openRun} resolves (on
 * `cluster`, with its `default` ServiceAccount and `kube-root-ca.crt` ConfigMap, which the
 * cluster's controllers add to every namespace, already there, so each run's outcome has them).
 *
 * Caveats: objects a scenario's operator makes outside its namespace (cluster-scoped ones, or
 * in another namespace) are not removed between runs on the real planes.
 */
export class RunPlane {
  private runs = 0;
  /** Per kustomize directory: its rendering (every plane) and its identity (real planes). */
  private readonly rendered = new Map<string, Promise<RenderedOperator>>();
  private readonly identities = new Map<string, Promise<ServiceAccountIdentity>>();

  private constructor(
    private readonly scenario: PlaneScenario,
    /** The plane the runs happen on. */
    readonly kind: ControlPlaneKind,
    private readonly shared: { env: Environment; resources: NamespacedResource[] } | undefined,
  ) {}

  /**
   * Starts the plane of `scenario`: nothing yet on `local`; on the real planes, the control
   * plane, with the scenario's CRDs installed.
   *
   * @throws {Error} when the scenario's namespace is not a namespace name, or as
   *   {@link Environment.start}.
   */
  static async start(scenario: PlaneScenario, options: RunPlaneOptions = {}): Promise<RunPlane> {
    checkNamespace(scenario.namespace ?? 'explore');
    const environment = { ...scenario.environment };
    if (options.controlPlane !== undefined) {
      environment.controlPlane =
        options.controlPlane === 'binaries' && environment.requires === 'pods'
          ? 'cluster'
          : options.controlPlane;
    }
    const kind = chooseControlPlane(environment);
    if (kind === 'local') return new RunPlane({ ...scenario, environment }, kind, undefined);
    const env = await Environment.start({
      ...environment,
      controlPlane: kind,
      crds: [...(environment.crds ?? []), ...(scenario.crds ?? [])],
    });
    try {
      return new RunPlane(scenario, kind, {
        env,
        resources: await namespacedResources(env.kubeConfig),
      });
    } catch (error) {
      await env.stop();
      throw error;
    }
  }

  /**
   * The perturbation kinds this plane cannot perform, each with the reason: schedules are
   * drawn without them.
   */
  get excludedKinds(): Partial<Record<PerturbationKind, string>> {
    return this.kind === 'cluster'
      ? {
          'apiserver-restart':
            "kwokctl runs the cluster plane's kube-apiserver, which the harness cannot restart (Environment.restartApiServer works on local and binaries)",
        }
      : {};
  }

  /**
   * Opens the next run: its control plane (`local`) or its namespace (real planes), named
   * after `namespace` (default: the scenario's, else `explore`; a scenario sharing the plane
   * passes its own).
   *
   * @throws {Error} when `namespace` is not a namespace name, the control plane does not
   *   start or the namespace is not made.
   */
  async openRun(namespace = this.scenario.namespace ?? 'explore'): Promise<RunSpace> {
    checkNamespace(namespace);
    this.runs++;
    const base = namespace;
    if (this.shared === undefined) {
      const environment = this.scenario.environment;
      const env = await Environment.start({
        ...environment,
        crds: [...(environment?.crds ?? []), ...(this.scenario.crds ?? [])],
        // The local API server authorizes everyone by default; the operator's install is
        // judged only with its RBAC authorizer on (kube-apiserver's is always on).
        ...(this.scenario.operatorConfig === undefined
          ? {}
          : { apiServer: { ...environment?.apiServer, rbac: true } }),
      });
      try {
        await createNamespace(env.kubeConfig, base);
      } catch (error) {
        await env.stop();
        throw error;
      }
      return { env, namespace: base, reportedNamespace: base, close: () => env.stop() };
    }
    const { env, resources } = this.shared;
    const own = `${base}-${this.runs}`;
    const timeoutMs = this.scenario.environment?.timeoutMs ?? 60_000;
    await createNamespace(env.kubeConfig, own);
    if (this.kind === 'cluster') await namespaceFilled(env.kubeConfig, own, timeoutMs);
    return {
      env,
      namespace: own,
      reportedNamespace: base,
      close: () => removeNamespace(env.kubeConfig, own, resources, timeoutMs),
    };
  }

  /**
   * The identity the operator of `operatorConfig` (its kustomize directory, `config/default`)
   * runs as in `space`: the ServiceAccount its manager Deployment names, under the RBAC of
   * that install ({@link Environment.serviceAccount}). The directory is rendered once per
   * plane. On the real planes the account is made once (with
   * {@link Environment.operatorServiceAccount}: its namespace as rendered, the manager Pod
   * dry-run through Pod Security admission) and serves every run; on `local`, where each run
   * has an API server of its own, it is made in each run's.
   *
   * @throws {Error} as {@link renderOperator} (kubectl fails, no manager Deployment) and
   *   {@link Environment.serviceAccount}.
   */
  async operatorIdentity(space: RunSpace, operatorConfig: string): Promise<ServiceAccountIdentity> {
    const shared = this.shared;
    if (shared !== undefined) {
      let identity = this.identities.get(operatorConfig);
      if (identity === undefined) {
        identity = shared.env.operatorServiceAccount(operatorConfig).then((made) => made.identity);
        this.identities.set(operatorConfig, identity);
      }
      return identity;
    }
    let rendered = this.rendered.get(operatorConfig);
    if (rendered === undefined) {
      rendered = renderOperator(operatorConfig);
      this.rendered.set(operatorConfig, rendered);
    }
    const { objects, serviceAccount } = await rendered;
    return space.env.serviceAccount({ ...serviceAccount, rbac: objects });
  }

  /** Stops the shared control plane of the real planes. Safe to call twice. */
  async stop(): Promise<void> {
    await this.shared?.env.stop();
  }
}

/** @throws {Error} when `name` cannot be a run's base namespace. */
function checkNamespace(name: string): void {
  if (!namespacePattern.test(name) || name.length > 55)
    throw new Error(
      `the scenario's namespace ${JSON.stringify(name)} is not a namespace name of at most 55 characters (lower-case letters, digits and '-'; the real planes add a run number to it)`,
    );
}

async function createNamespace(kubeConfig: KubeConfig, name: string): Promise<void> {
  await applyObjects(kubeConfig, [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }]);
}

/** Waits for what the cluster's controllers add to a new namespace. */
async function namespaceFilled(
  kubeConfig: KubeConfig,
  namespace: string,
  timeoutMs: number,
): Promise<void> {
  await eventually(
    async () => {
      for (const path of [
        `/api/v1/namespaces/${namespace}/serviceaccounts/default`,
        `/api/v1/namespaces/${namespace}/configmaps/kube-root-ca.crt`,
      ]) {
        const answer = await kubeRequest(kubeConfig, 'GET', path);
        if (answer.status !== 200) throw new Error(`${path}: ${answer.status}`);
      }
      return true;
    },
    {
      timeoutMs,
      intervalMs: 50,
      description: `namespace ${namespace} given its default ServiceAccount and kube-root-ca.crt`,
    },
  );
}
