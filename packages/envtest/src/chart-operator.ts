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

/** Options of {@link installChartOperator}. */
export interface ChartOperatorOptions<M extends OperatorManagerLike>
  extends Omit<OperatorManagerOptions<M>, 'identity'> {
  env: Environment;
  /** The operator's directory: its chart is `<operatorDir>/chart` (`ops-operator helm`). */
  operatorDir: string;
  /** The Helm release's name. */
  release: string;
  /** The namespace the release is installed in (created when missing). */
  namespace: string;
  /** The manager's ServiceAccount the chart makes: `<namePrefix>controller-manager`. */
  serviceAccount: string;
  /** Extra `helm install` arguments (`--set k=v` ...). */
  helmArgs?: readonly string[];
}

/** An operator installed by {@link installChartOperator}. */
export interface ChartOperator<M extends OperatorManagerLike> {
  /** What `helm install` printed. */
  installed: string;
  /** The manager, running in the test process as the chart's ServiceAccount. */
  operator: RunningOperatorManager<M>;
}

/**
 * An operator as `helm install` ships it: installs `<operatorDir>/chart` as `release` in
 * `namespace` (created when missing) with Helm ({@link Environment.helm}), then runs the
 * operator's manager in the test process as the ServiceAccount the chart made, under the RBAC
 * the chart made and nothing else (a token through the TokenRequest API;
 * {@link startOperatorManager}), so the API server's authorizer judges the chart's roles.
 * Resolves once the manager leads.
 *
 * @throws {Error} Helm's error when the install fails; as {@link startOperatorManager}.
 */
export async function installChartOperator<M extends OperatorManagerLike>(
  options: ChartOperatorOptions<M>,
): Promise<ChartOperator<M>> {
  const { env, operatorDir, release, namespace, serviceAccount, helmArgs, ...manager } = options;
  const installed = await env.helm(
    ['install', release, 'chart', '-n', namespace, '--create-namespace', ...(helmArgs ?? [])],
    { cwd: operatorDir },
  );
  const identity = await env.serviceAccount({ namespace, name: serviceAccount });
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
 * Takes an installed release through `helm upgrade --set manager.replicas=2`, `helm rollback
 * <release> 1` and `helm uninstall --wait`, reading the manager Deployment
 * (`deployment`: its API path) after each step, and resolves with what it saw. After the
 * uninstall it waits (up to 60 s) until every path of `deleted` answers 404, then reports
 * which of `kept` still exist (the CRDs of a chart's `crds/`, which Helm never deletes).
 *
 * @throws {Error} Helm's error for a failed step; when a `deleted` path outlives the deadline.
 */
export async function chartLifecycle(options: {
  env: Environment;
  operatorDir: string;
  release: string;
  namespace: string;
  deployment: string;
  deleted: readonly string[];
  kept: readonly string[];
}): Promise<ChartLifecycle> {
  const { env, operatorDir, release, namespace } = options;
  const helm = (...args: string[]) => env.helm([...args, '-n', namespace], { cwd: operatorDir });
  const replicas = async () =>
    (
      (await kubeRequest(env.kubeConfig, 'GET', options.deployment)).body as KubernetesObject & {
        spec?: { replicas?: number };
      }
    ).spec?.replicas;
  const exists = async (path: string) =>
    (await kubeRequest(env.kubeConfig, 'GET', path)).status !== 404;

  await helm('upgrade', release, 'chart', '--set', 'manager.replicas=2');
  const replicasAfterUpgrade = await replicas();
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
