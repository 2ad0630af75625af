import type { KubernetesObject } from '@ops/api';
import type { Environment } from './environment.js';
import { eventually } from './eventually.js';
import { kubeRequest } from './kube-request.js';
import {
  type OperatorManagerLike,
  type OperatorManagerOptions,
  type RunningOperatorManager,
  startOperatorManager,
} from './operator-manager.js';
import type { ServiceAccountIdentity } from './service-account-identity.js';

/** Options of {@link installChart}. */
export interface ChartInstallOptions {
  env: Environment;
  /** The operator's directory: its chart is `<operatorDir>/chart` (`ops-operator helm`). */
  operatorDir: string;
  /** The Helm release's name. */
  release: string;
  /** The namespace the release is installed in (created when missing). */
  namespace: string;
  /** The manager's ServiceAccount the chart makes: `<namePrefix>controller-manager`. */
  serviceAccount: string;
  /** Extra `helm install` arguments (`--set k=v`, a post-renderer's ...). */
  helmArgs?: readonly string[];
  /** Environment variables for Helm (a post-renderer's `HELM_PLUGINS`). */
  helmEnv?: Readonly<Record<string, string>>;
}

/** A chart installed by {@link installChart}. */
export interface InstalledChart {
  /** What `helm install` printed. */
  installed: string;
  /** The chart's ServiceAccount, with a token the API server issued (its kubeconfig). */
  identity: ServiceAccountIdentity;
}

/**
 * `helm install`s `<operatorDir>/chart` as `release` in `namespace` (created when missing)
 * with Helm ({@link Environment.helm}), and resolves with the identity of the manager's
 * ServiceAccount the chart made, to run the operator as, under the RBAC the chart made and
 * nothing else (a token through the TokenRequest API), so the API server's authorizer judges
 * the chart's roles. {@link installChartOperator} also starts the manager; an operator run
 * through its entry point (`runOperator`, with the installed Deployment's flags) takes the
 * identity's kubeconfig.
 *
 * @throws {Error} Helm's error when the install fails.
 */
export async function installChart(options: ChartInstallOptions): Promise<InstalledChart> {
  const { env, operatorDir, release, namespace, serviceAccount } = options;
  const installed = await env.helm(
    [
      'install',
      release,
      'chart',
      '-n',
      namespace,
      '--create-namespace',
      ...(options.helmArgs ?? []),
    ],
    { cwd: operatorDir, ...(options.helmEnv ? { env: options.helmEnv } : {}) },
  );
  const identity = await env.serviceAccount({ namespace, name: serviceAccount });
  return { installed, identity };
}

/**
 * The arguments of the `manager` container of the Deployment at `deployment` (its API path)
 * as installed, to run the operator's entry point in the test process with the flags the
 * chart gave it (the test adds its own ports, kubeconfig and cert dir).
 *
 * @throws {Error} when the Deployment cannot be read or has no `manager` container.
 */
export async function installedManagerArgs(
  env: Environment,
  deployment: string,
): Promise<string[]> {
  const response = await kubeRequest(env.kubeConfig, 'GET', deployment);
  const containers =
    (
      response.body as KubernetesObject & {
        spec?: { template?: { spec?: { containers?: Array<{ name?: string; args?: string[] }> } } };
      }
    ).spec?.template?.spec?.containers ?? [];
  const manager = containers.find((container) => container.name === 'manager');
  if (response.status !== 200 || manager === undefined) {
    throw new Error(
      `${deployment} (status ${response.status}) has no container named manager: install the chart first`,
    );
  }
  return manager.args ?? [];
}

/** Options of {@link installChartOperator}. */
export interface ChartOperatorOptions<M extends OperatorManagerLike>
  extends Omit<OperatorManagerOptions<M>, 'identity'>,
    ChartInstallOptions {}

/** An operator installed by {@link installChartOperator}. */
export interface ChartOperator<M extends OperatorManagerLike> {
  /** What `helm install` printed. */
  installed: string;
  /** The manager, running in the test process as the chart's ServiceAccount. */
  operator: RunningOperatorManager<M>;
}

/**
 * An operator as `helm install` ships it: {@link installChart}, then the operator's manager
 * run in the test process as the ServiceAccount the chart made ({@link startOperatorManager}).
 * Resolves once the manager leads.
 *
 * @throws {Error} Helm's error when the install fails; as {@link startOperatorManager}.
 */
export async function installChartOperator<M extends OperatorManagerLike>(
  options: ChartOperatorOptions<M>,
): Promise<ChartOperator<M>> {
  const { env, operatorDir, release, namespace, serviceAccount, helmArgs, helmEnv, ...manager } =
    options;
  const { installed, identity } = await installChart({
    env,
    operatorDir,
    release,
    namespace,
    serviceAccount,
    ...(helmArgs ? { helmArgs } : {}),
    ...(helmEnv ? { helmEnv } : {}),
  });
  const operator = await startOperatorManager({ ...manager, identity });
  return { installed, operator };
}

/** What {@link chartLifecycle} saw. */
export interface ChartLifecycle {
  /** `spec.replicas` of the manager Deployment after `helm upgrade --set manager.replicas=2`. */
  replicasAfterUpgrade: number | undefined;
  /** `spec.replicas` after `helm rollback <release> 1`. */
  replicasAfterRollback: number | undefined;
  /** `helm history` as `[revision, status]`, after the rollback. */
  history: Array<[number, string]>;
  /** `helm list` in the namespace after `helm uninstall --wait`. */
  releasesAfterUninstall: unknown[];
  /** Whether each of `kept` (paths) still exists after the uninstall. */
  keptAfterUninstall: Record<string, boolean>;
}

/**
 * What {@link chartLifecycle} reports for a release that upgrades to two replicas, rolls back
 * to one (revisions 1 and 2 superseded, 3 deployed), and uninstalls leaving only `kept`.
 */
export function cleanChartLifecycle(kept: readonly string[]): ChartLifecycle {
  return {
    replicasAfterUpgrade: 2,
    replicasAfterRollback: 1,
    history: [
      [1, 'superseded'],
      [2, 'superseded'],
      [3, 'deployed'],
    ],
    releasesAfterUninstall: [],
    keptAfterUninstall: Object.fromEntries(kept.map((path) => [path, true])),
  };
}

/**
 * Takes an installed release through `helm upgrade --set manager.replicas=2` (plus
 * `upgradeArgs`: the values and post-renderer it was installed with, as `helm upgrade` starts
 * again from the chart's defaults), then `afterUpgrade` (what the test checks on the upgraded
 * release), `helm rollback <release> 1` and `helm uninstall --wait`, reading the manager
 * Deployment (`deployment`: its API path) after each step, and resolves with what it saw.
 * After the uninstall it waits (up to 60 s) until every path of `deleted` answers 404, then
 * reports which of `kept` still exist (the CRDs of a chart's `crds/`, which Helm never
 * deletes). `helmEnv` is Helm's environment for every step.
 *
 * @throws {Error} Helm's error for a failed step; what `afterUpgrade` throws; when a
 *   `deleted` path outlives the deadline.
 */
export async function chartLifecycle(options: {
  env: Environment;
  operatorDir: string;
  release: string;
  namespace: string;
  deployment: string;
  deleted: readonly string[];
  kept: readonly string[];
  upgradeArgs?: readonly string[];
  helmEnv?: Readonly<Record<string, string>>;
  afterUpgrade?: () => Promise<void>;
}): Promise<ChartLifecycle> {
  const { env, operatorDir, release, namespace } = options;
  const helm = (...args: string[]) =>
    env.helm([...args, '-n', namespace], {
      cwd: operatorDir,
      ...(options.helmEnv ? { env: options.helmEnv } : {}),
    });
  const replicas = async () =>
    (
      (await kubeRequest(env.kubeConfig, 'GET', options.deployment)).body as KubernetesObject & {
        spec?: { replicas?: number };
      }
    ).spec?.replicas;
  const exists = async (path: string) =>
    (await kubeRequest(env.kubeConfig, 'GET', path)).status !== 404;

  await helm(
    'upgrade',
    release,
    'chart',
    '--set',
    'manager.replicas=2',
    ...(options.upgradeArgs ?? []),
  );
  const replicasAfterUpgrade = await replicas();
  await options.afterUpgrade?.();
  await helm('rollback', release, '1');
  const replicasAfterRollback = await replicas();
  const history = (
    JSON.parse(await helm('history', release, '-o', 'json')) as Array<{
      revision: number;
      status: string;
    }>
  ).map((entry): [number, string] => [entry.revision, entry.status]);
  await helm('uninstall', release, '--wait');
  await eventually(
    async () => {
      for (const path of options.deleted) if (await exists(path)) return false;
      return true;
    },
    { description: `${options.deleted.join(', ')} deleted by helm uninstall`, timeoutMs: 60_000 },
  );
  const keptAfterUninstall: Record<string, boolean> = {};
  for (const path of options.kept) keptAfterUninstall[path] = await exists(path);
  const releasesAfterUninstall = JSON.parse(await helm('list', '-o', 'json')) as unknown[];
  return {
    replicasAfterUpgrade,
    replicasAfterRollback,
    history,
    releasesAfterUninstall,
    keptAfterUninstall,
  };
}
