import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubernetesObject } from '@ops/api';
import {
  type ChartInstallOptions,
  type ChartLifecycle,
  type ChartOperatorOptions,
  chartLifecycle,
  installChartOperator,
} from './chart-operator.js';
import {
  installWebhookChartOperator,
  type WebhookChartOperator,
  type WebhookChartOperatorOptions,
} from './chart-webhook-operator.js';
import { Environment } from './environment.js';
import { eventually } from './eventually.js';
import { kubeRequest } from './kube-request.js';
import { parseManifests } from './load-manifests.js';
import type { OperatorManagerLike } from './operator-manager.js';

/** Options of {@link ChartRelease.start}. */
export interface ChartReleaseOptions {
  /** The operator's directory: its chart is `<operatorDir>/chart` (`ops-operator helm`). */
  operatorDir: string;
  /**
   * The operator's name (its kustomize namePrefix without the trailing dash): the chart's
   * manager Deployment and ServiceAccount are `<name>-controller-manager`.
   */
  name: string;
  /** The Helm release's name. */
  release: string;
  /** The namespace the release goes to. Default: `<name>-system`, as config/default's. */
  namespace?: string;
  /**
   * `'pods'` when the operator's work needs running Pods: the plane is then `cluster`
   * (kube-apiserver, controllers and kwok nodes) where `binaries` was asked for.
   */
  requires?: 'pods';
}

/** A resource of an API group version's discovery document. */
interface DiscoveredResource {
  name: string;
  kind: string;
  namespaced: boolean;
}

/** What a suite's operator is, once installed: stopped by {@link ChartRelease.lifecycle}. */
interface RunningChartOperator {
  stop(): Promise<void>;
}

/** Options of {@link ChartRelease.lifecycle}. */
export interface ChartReleaseLifecycleOptions {
  /** API paths that must outlive `helm uninstall`: the CRDs of the chart's `crds/`. */
  kept: readonly string[];
  /**
   * What the test checks on the upgraded release, while the operator still runs (an operator
   * with webhooks still answers them, and removes its finalizers from what the test deletes).
   */
  afterUpgrade?: () => Promise<void>;
}

/**
 * One operator's Helm chart on a control plane of its own, as the operators' chart suites
 * prove it: {@link ChartRelease.start} starts the plane (RBAC on, so its authorizer judges
 * the chart's roles), `installWebhookOperator` / `installOperator` run `helm install` with the
 * chart's defaults (plus any `helmArgs`) and the operator as the chart's ServiceAccount,
 * {@link ChartRelease.lifecycle} takes the release through upgrade, rollback and uninstall, and
 * {@link ChartRelease.stop} tears everything down.
 */
export class ChartRelease {
  /** The control plane. */
  readonly env: Environment;
  /** The release's namespace. */
  readonly namespace: string;
  /** The manager Deployment's API path. */
  readonly deployment: string;
  private readonly options: ChartReleaseOptions;
  /** A scratch directory of this release (Helm plugins, serving certificates). */
  private readonly directory: string;
  private operator: RunningChartOperator | undefined;
  /** Set once a webhook operator runs: what `helm upgrade` must repeat, and Helm's env. */
  private webhooks: Pick<WebhookChartOperator, 'upgradeArgs' | 'helmEnv'> | undefined;

  private constructor(options: ChartReleaseOptions, env: Environment, directory: string) {
    this.options = options;
    this.env = env;
    this.directory = directory;
    this.namespace = options.namespace ?? `${options.name}-system`;
    this.deployment = `/apis/apps/v1/namespaces/${this.namespace}/deployments/${this.serviceAccount}`;
  }

  /**
   * Starts the control plane ({@link Environment.start} with RBAC on, and `requires`) and a
   * scratch directory for the release.
   *
   * @throws as {@link Environment.start}.
   */
  static async start(options: ChartReleaseOptions): Promise<ChartRelease> {
    const env = await Environment.start({
      ...(options.requires ? { requires: options.requires } : {}),
      apiServer: { rbac: true },
    });
    const directory = await mkdtemp(join(tmpdir(), `${options.name}-chart-`));
    return new ChartRelease(options, env, directory);
  }

  /** The manager's ServiceAccount (and Deployment) the chart makes. */
  get serviceAccount(): string {
    return `${this.options.name}-controller-manager`;
  }

  /**
   * `helm install` with the chart's defaults (plus `helmArgs`) and a post-renderer that points
   * the admission webhooks at the operator run in this process (see
   * {@link installWebhookChartOperator}: the planes have no kube-proxy to reach a Service).
   *
   * @throws as {@link installWebhookChartOperator}; when an operator runs already.
   */
  async installWebhookOperator(
    options: Pick<WebhookChartOperatorOptions, 'definition' | 'runOperator' | 'helmArgs'>,
  ): Promise<WebhookChartOperator> {
    const operator = await installWebhookChartOperator({
      ...options,
      ...this.installTarget(),
      directory: this.directory,
      deployment: this.deployment,
    });
    this.webhooks = operator;
    this.operator = {
      stop: async () => {
        const code = await operator.stop();
        if (code !== 0) {
          throw new Error(
            `the operator exited with ${code} when stopped (expected 0); it wrote:\n${operator.output.join('')}`,
          );
        }
      },
    };
    return operator;
  }

  /**
   * `helm install` with the chart's defaults (plus `helmArgs`), then the operator's manager
   * run in this process as the chart's ServiceAccount ({@link installChartOperator}).
   * Resolves with what `helm install` printed, once the manager leads.
   *
   * @throws as {@link installChartOperator}; when an operator runs already.
   */
  async installOperator<M extends OperatorManagerLike>(
    options: Omit<
      ChartOperatorOptions<M>,
      'env' | 'operatorDir' | 'release' | 'namespace' | 'serviceAccount' | 'helmEnv'
    >,
  ): Promise<string> {
    const { installed, operator } = await installChartOperator({
      ...options,
      ...this.installTarget(),
    });
    this.operator = operator;
    return installed;
  }

  /**
   * The values the release was installed with beyond the chart's defaults (`helm get
   * values`): `{}` for an install with the defaults.
   *
   * @throws Helm's error when the release does not exist.
   */
  async suppliedValues(): Promise<Record<string, unknown>> {
    const text = await this.env.helm([
      'get',
      'values',
      this.options.release,
      '-n',
      this.namespace,
      '-o',
      'json',
    ]);
    return (JSON.parse(text) as Record<string, unknown> | null) ?? {};
  }

  /**
   * `helm test` of the installed release (the chart's test hooks: Pods that must succeed),
   * then waits (up to 60 s) until every test hook of the release (`helm get hooks`) is deleted,
   * as their `hook-succeeded` delete policy asks; resolves with what `helm test` printed.
   * Needs a plane that runs Pods (`requires: 'pods'`): on the cluster plane kwok runs them
   * without running their containers, so this proves that the API server admits the hooks and
   * that Helm runs and cleans them up, not what their containers would do.
   *
   * @throws Helm's error when a test Pod fails or `timeout` (default 3m) passes; when the
   *   release has no test hooks; when a hook outlives the deadline.
   */
  async helmTest(timeout = '3m'): Promise<string> {
    const { release } = this.options;
    const output = await this.env.helm([
      'test',
      release,
      '-n',
      this.namespace,
      '--timeout',
      timeout,
    ]);
    const hooks = await this.env.helm(['get', 'hooks', release, '-n', this.namespace]);
    const tests = parseManifests(hooks, `the hooks of release ${release}`).filter(
      (object) => object.metadata?.annotations?.['helm.sh/hook'] === 'test',
    );
    if (tests.length === 0) {
      throw new Error(
        `release ${release} has no test hooks (helm.sh/hook: test): its chart ships no templates/tests`,
      );
    }
    const paths = await this.objectPaths(tests);
    await eventually(
      async () => {
        for (const path of paths) {
          if ((await kubeRequest(this.env.kubeConfig, 'GET', path)).status !== 404) return false;
        }
        return true;
      },
      { description: `the test hooks ${paths.join(', ')} deleted`, timeoutMs: 60_000 },
    );
    return output;
  }

  /**
   * {@link chartLifecycle} of the installed release: `helm upgrade` (repeating the
   * post-renderer and values of a webhook operator's install), `afterUpgrade`, then the
   * operator stopped (it must exit cleanly), `helm rollback`, `helm uninstall`; resolves with
   * what it saw (compare with `cleanChartLifecycle(kept)`). The uninstall must delete every
   * object of the release (`helm get manifest`, the API paths found through discovery).
   *
   * @throws as {@link chartLifecycle}; when the operator fails to stop cleanly; when the API
   *   server serves no resource of a kind the release holds; when the release holds no
   *   manager Deployment.
   */
  async lifecycle(options: ChartReleaseLifecycleOptions): Promise<ChartLifecycle> {
    const deleted = await this.releasePaths();
    if (!deleted.includes(this.deployment)) {
      throw new Error(
        `release ${this.options.release} holds no ${this.deployment} (it holds ${deleted.join(', ') || 'nothing'}): is ${this.options.name} the operator's name, its kustomize namePrefix?`,
      );
    }
    return chartLifecycle({
      env: this.env,
      operatorDir: this.options.operatorDir,
      release: this.options.release,
      namespace: this.namespace,
      deployment: this.deployment,
      upgradeArgs: this.webhooks?.upgradeArgs ?? [],
      helmEnv: this.webhooks?.helmEnv ?? {},
      afterUpgrade: async () => {
        await options.afterUpgrade?.();
        await this.stopOperator();
      },
      deleted,
      kept: options.kept,
    });
  }

  /** The API path of every object of the release as installed (`helm get manifest`). */
  async releasePaths(): Promise<string[]> {
    const { release } = this.options;
    const manifest = await this.env.helm(['get', 'manifest', release, '-n', this.namespace]);
    return this.objectPaths(parseManifests(manifest, `the manifest of release ${release}`));
  }

  /** The API paths of `objects` (of this release), their resources found through discovery. */
  private async objectPaths(objects: readonly KubernetesObject[]): Promise<string[]> {
    const { release } = this.options;
    const resources = new Map<string, DiscoveredResource[]>();
    const paths: string[] = [];
    for (const object of objects) {
      const apiVersion = object.apiVersion ?? '';
      const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
      let served = resources.get(base);
      if (served === undefined) {
        const response = await kubeRequest(this.env.kubeConfig, 'GET', base);
        served = (response.body as { resources?: DiscoveredResource[] }).resources ?? [];
        resources.set(base, served);
      }
      const resource = served.find((r) => r.kind === object.kind && !r.name.includes('/'));
      if (resource === undefined) {
        throw new Error(
          `${base} serves no resource of kind ${object.kind}, which release ${release} holds: install its CRD first`,
        );
      }
      const scope = resource.namespaced
        ? `/namespaces/${object.metadata?.namespace ?? this.namespace}`
        : '';
      paths.push(`${base}${scope}/${resource.name}/${object.metadata?.name}`);
    }
    return paths;
  }

  /** Stops the operator (if it runs), the control plane, and removes the scratch directory. */
  async stop(): Promise<void> {
    try {
      await this.stopOperator();
    } finally {
      await this.env.stop();
      await rm(this.directory, { recursive: true, force: true });
    }
  }

  private async stopOperator(): Promise<void> {
    const operator = this.operator;
    this.operator = undefined;
    await operator?.stop();
  }

  /** Where `helm install` goes and whom the operator runs as; refuses a second operator. */
  private installTarget(): Omit<ChartInstallOptions, 'helmArgs' | 'helmEnv'> {
    if (this.operator !== undefined) {
      throw new Error(
        `${this.options.name} already runs from release ${this.options.release}: one operator per ChartRelease (lifecycle or stop stops it)`,
      );
    }
    return {
      env: this.env,
      operatorDir: this.options.operatorDir,
      release: this.options.release,
      namespace: this.namespace,
      serviceAccount: this.serviceAccount,
    };
  }
}
