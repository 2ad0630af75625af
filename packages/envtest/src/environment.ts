import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import type { KubernetesObject } from '@ops/api';
import { ApiServer, type ApiServerOptions, PortInUseError } from '@ops/apiserver';
import { applyObjects } from './apply-objects.js';
import { startBinaryControlPlane } from './binary-control-plane.js';
import {
  type ClusterControlPlaneOptions,
  startClusterControlPlane,
} from './cluster-control-plane.js';
import { ensureControlPlaneAssets } from './control-plane-assets.js';
import { acquirePooledControlPlane, controlPlanePoolVariable } from './control-plane-pool.js';
import { eventually } from './eventually.js';
import { kubeRequest } from './kube-request.js';
import { loadManifests } from './load-manifests.js';
import { applyNamespace, dryRunCreatePod } from './pod-security.js';
import { renderOperator } from './rendered-operator.js';
import {
  createServiceAccountIdentity,
  type ServiceAccountIdentity,
  type ServiceAccountOptions,
  tokenRequestIssuer,
} from './service-account-identity.js';
import { type WebhookUrlOptions, webhooksByUrl } from './webhooks-by-url.js';

/** Options of {@link Environment.start}. */
export interface EnvironmentOptions {
  /** Files or directories of CRD manifests (YAML or JSON) to install once started. */
  crdDirectoryPaths?: string[];
  /** CRD objects to install once started. */
  crds?: KubernetesObject[];
  /** Fail when a CRD path does not exist (default true). */
  errorIfCrdPathMissing?: boolean;
  /**
   * Directory with the binaries of the real planes (`etcd` and `kube-apiserver` for
   * `binaries`; also kube-controller-manager, kube-scheduler, kwok and kwokctl for `cluster`);
   * defaults to `KUBEBUILDER_ASSETS`, then to the project's cache (built there with Go when
   * absent: see {@link ensureControlPlaneAssets}).
   */
  binaryAssetsDirectory?: string;
  /**
   * The Kubernetes release of the real planes when their binaries come from the project's
   * cache (neither `binaryAssetsDirectory` nor `KUBEBUILDER_ASSETS` given): a pinned minor
   * (`1.35`) or exact version. Default: `OPS_ENVTEST_KUBERNETES_VERSION`, else the newest
   * pinned release. A release that is not pinned fails `start` with a
   * `ControlPlaneAssetsError` naming those that are.
   */
  kubernetesVersion?: string;
  /**
   * kube-apiserver's feature gates on the `binaries` plane (`{ ShardedListAndWatch: true }`
   * turns on an alpha gate), as its `--feature-gates` flag. Such a plane is started for the
   * suite, never taken from the pool (whose planes run the release's defaults). Refused on the
   * `local` and `cluster` planes.
   */
  featureGates?: Readonly<Record<string, boolean>>;
  /** Options of the local API server (ignored on the real planes). */
  apiServer?: ApiServerOptions;
  /** Timeout for the control plane to start and for CRDs to be established (default 60 s). */
  timeoutMs?: number;
  /**
   * Which control plane to start:
   * - `local`: the in-process local API server (forced by tests of what only it can do, such
   *   as fault injection);
   * - `binaries`: real etcd + kube-apiserver from `binaryAssetsDirectory`, `KUBEBUILDER_ASSETS`
   *   or the project's cache (built with Go when absent; a ControlPlaneAssetsError
   *   says what to install when it cannot be); taken ready from the control plane pool
   *   named by `OPS_ENVTEST_CONTROL_PLANE_POOL` when one runs those binaries (see
   *   {@link startControlPlanePool});
   * - `cluster`: a whole cluster from the same binaries with kwokctl's `binary` runtime:
   *   kube-controller-manager, kube-scheduler and kwok's fake nodes, so Pods run (see
   *   {@link startClusterControlPlane});
   * - `auto` (default; `binaries` when `binaryAssetsDirectory` is given): the environment
   *   variable `OPS_ENVTEST_CONTROL_PLANE` (`local`, `binaries` or `cluster`) when set, else
   *   `binaries` when `KUBEBUILDER_ASSETS` is set (as controller-runtime's envtest), else
   *   `local`; with `requires: 'pods'`, `cluster` where that would be `binaries`.
   */
  controlPlane?: ControlPlaneKind | 'auto';
  /**
   * What the suite needs of the plane. `pods`: Pods that run (scheduled, Running and Ready,
   * finishing, deleted by their controllers), which `local` and `cluster` give and `binaries`
   * (no controllers, no nodes) does not: `auto` resolves to one of those two, and an explicit
   * `controlPlane: 'binaries'` is refused.
   */
  requires?: 'pods';
  /** Options of the `cluster` plane: node count, default Pod run time, API server port. */
  cluster?: Omit<ClusterControlPlaneOptions, 'timeoutMs'>;
  /** Build progress of the `binaries` plane (default: lines on stderr). */
  log?: (line: string) => void;
}

/** The control planes {@link Environment} starts. */
export type ControlPlaneKind = 'local' | 'binaries' | 'cluster';

const controlPlaneKinds: readonly ControlPlaneKind[] = ['local', 'binaries', 'cluster'];

/** The environment variable that picks the control plane when the option is `auto`. */
export const controlPlaneVariable = 'OPS_ENVTEST_CONTROL_PLANE';

/**
 * The plane `controlPlane` (default `auto`) resolves to, as {@link Environment.start} does.
 * With `requires: 'pods'`, `auto` never gives `binaries`: where the variable or
 * KUBEBUILDER_ASSETS asks for the real plane, the suite gets the real plane that runs Pods,
 * `cluster`.
 *
 * @throws {Error} when OPS_ENVTEST_CONTROL_PLANE holds something else than `local`,
 *   `binaries` or `cluster`, or when `binaries` is asked for by name by a suite that requires
 *   Pods.
 */
export function resolveControlPlane(
  controlPlane: ControlPlaneKind | 'auto' = 'auto',
  env: NodeJS.ProcessEnv = process.env,
  requires?: 'pods',
): ControlPlaneKind {
  if (controlPlane !== 'auto') {
    if (controlPlane === 'binaries' && requires === 'pods')
      throw new Error(
        "this suite requires running Pods (requires: 'pods'), which the binaries plane (etcd + kube-apiserver, no controllers or nodes) does not give: use controlPlane 'cluster' (kube-controller-manager, kube-scheduler and kwok nodes) or 'local', or 'auto'",
      );
    return controlPlane;
  }
  const chosen = env[controlPlaneVariable];
  let plane: ControlPlaneKind;
  if (chosen !== undefined && chosen !== '') {
    if (!controlPlaneKinds.includes(chosen as ControlPlaneKind))
      throw new Error(
        `${controlPlaneVariable}=${chosen} is not a control plane: use "local" (the in-process API server), "binaries" (etcd + kube-apiserver) or "cluster" (a whole cluster with kwok nodes), or unset it`,
      );
    plane = chosen as ControlPlaneKind;
  } else {
    plane = env.KUBEBUILDER_ASSETS ? 'binaries' : 'local';
  }
  return plane === 'binaries' && requires === 'pods' ? 'cluster' : plane;
}

/**
 * The plane {@link Environment.start} starts for `options`: `controlPlane` (default `auto`;
 * `binaries`, or `cluster` with `requires: 'pods'`, when `binaryAssetsDirectory` is given)
 * resolved by {@link resolveControlPlane}.
 *
 * @throws {Error} as {@link resolveControlPlane}.
 */
export function chooseControlPlane(
  options: Pick<EnvironmentOptions, 'controlPlane' | 'binaryAssetsDirectory' | 'requires'> = {},
  env: NodeJS.ProcessEnv = process.env,
): ControlPlaneKind {
  return resolveControlPlane(
    options.controlPlane ??
      (options.binaryAssetsDirectory
        ? options.requires === 'pods'
          ? 'cluster'
          : 'binaries'
        : 'auto'),
    env,
    options.requires,
  );
}

/**
 * A running control plane for tests, as controller-runtime's envtest gives one: the local
 * in-memory API server in-process by default, real etcd + kube-apiserver (`controlPlane:
 * 'binaries'` or `OPS_ENVTEST_CONTROL_PLANE=binaries`, or `KUBEBUILDER_ASSETS` set), or a whole
 * cluster with kwok nodes (`cluster`) — so one suite runs against any. Start with
 * {@link Environment.start}; always `stop()` it.
 *
 * The admin user (`system:masters`) is in {@link kubeConfig} and in the file at
 * {@link kubeconfigPath}.
 */
export class Environment {
  private constructor(
    /** `local` (in-process API server), `binaries` (etcd + kube-apiserver) or `cluster`. */
    readonly kind: ControlPlaneKind,
    /** The admin kubeconfig, YAML. */
    readonly kubeconfig: string,
    /** The same kubeconfig, written to a file (for kubectl and child processes). */
    readonly kubeconfigPath: string,
    /** The local API server, when {@link kind} is `local` (for its fault injection). */
    readonly server: ApiServer | undefined,
    /** The processes of a real plane. */
    private readonly processes:
      | {
          stop(): Promise<void>;
          restartApiServer?(options: { downtimeMs?: number }): Promise<void>;
        }
      | undefined,
    private readonly directory: string,
    private readonly timeoutMs: number,
  ) {}

  /**
   * Starts a control plane and installs the CRDs the options name.
   *
   * @throws Error naming the port, the `apiServer.port` option and what to do when the local
   *   API server's port is already in use.
   */
  static async start(options: EnvironmentOptions = {}): Promise<Environment> {
    const timeoutMs = options.timeoutMs ?? 60_000;
    const plane = chooseControlPlane(options);
    if (plane !== 'binaries' && Object.keys(options.featureGates ?? {}).length > 0)
      throw new Error(
        `envtest: the featureGates option sets kube-apiserver's flags on the binaries plane; this suite runs on the ${plane} plane. Start it with controlPlane: 'binaries', or drop featureGates`,
      );
    const crds = [
      ...(options.crds ?? []),
      ...(await loadManifests(options.crdDirectoryPaths ?? [], {
        ignoreMissing: options.errorIfCrdPathMissing === false,
      })),
    ];
    let server: ApiServer | undefined;
    let processes:
      | {
          kubeconfig: string;
          stop(): Promise<void>;
          restartApiServer?(options: { downtimeMs?: number }): Promise<void>;
        }
      | undefined;
    if (plane !== 'local') {
      const assets =
        options.binaryAssetsDirectory ??
        (process.env.KUBEBUILDER_ASSETS ||
          (
            await ensureControlPlaneAssets({
              ...(options.log ? { log: options.log } : {}),
              ...(options.kubernetesVersion ? { kubernetes: options.kubernetesVersion } : {}),
            })
          ).directory);
      const pool = process.env[controlPlanePoolVariable]?.startsWith('http://')
        ? process.env[controlPlanePoolVariable]
        : undefined;
      const featureGates = options.featureGates ?? {};
      const gated = Object.keys(featureGates).length > 0;
      processes =
        plane === 'cluster'
          ? await startClusterControlPlane(assets, { ...options.cluster, timeoutMs })
          : ((pool && !gated ? await acquirePooledControlPlane(pool, assets) : undefined) ??
            (await startBinaryControlPlane(assets, { timeoutMs, featureGates })));
    } else {
      server = await ApiServer.start(options.apiServer ?? {}).catch((error: unknown) => {
        if (!PortInUseError.isInstance(error)) throw error;
        throw new Error(
          `envtest: the local API server cannot listen on port ${error.port} of ${error.host}: the port is already in use. It is set by the apiServer.port option of Environment.start: leave it unset (a free port is picked) or choose another, or stop the process listening there (lsof -i :${error.port} shows which)`,
          { cause: error },
        );
      });
    }
    const directory = await mkdtemp(join(tmpdir(), 'ops-envtest-'));
    const kubeconfigPath = join(directory, 'kubeconfig');
    const environment = new Environment(
      plane,
      server ? server.kubeconfig() : (processes?.kubeconfig ?? ''),
      kubeconfigPath,
      server,
      processes,
      directory,
      timeoutMs,
    );
    try {
      await writeFile(kubeconfigPath, environment.kubeconfig, { mode: 0o600 });
      if (crds.length > 0) await environment.installCrds(crds);
    } catch (error) {
      await environment.stop();
      throw error;
    }
    return environment;
  }

  /** A client-node KubeConfig for the admin user. */
  get kubeConfig(): KubeConfig {
    const config = new KubeConfig();
    config.loadFromString(this.kubeconfig);
    return config;
  }

  /**
   * Creates (or updates) CRDs and waits until each is Established and served, so the next
   * request for its resource succeeds.
   *
   * @throws {Error} quoting the API server's answer when a CRD is rejected, or naming the CRD
   *   that was not established in time.
   */
  async installCrds(crds: readonly KubernetesObject[]): Promise<void> {
    const config = this.kubeConfig;
    for (const crd of crds) {
      const name = crd.metadata?.name ?? '';
      const created = await kubeRequest(
        config,
        'POST',
        '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
        crd,
      );
      if (created.status === 409) {
        const current = await kubeRequest(
          config,
          'GET',
          `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`,
        );
        const resourceVersion = (current.body as KubernetesObject).metadata?.resourceVersion;
        const updated = await kubeRequest(
          config,
          'PUT',
          `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`,
          { ...crd, metadata: { ...crd.metadata, resourceVersion } },
        );
        if (updated.status >= 300)
          throw new Error(`could not update CRD ${name}: ${JSON.stringify(updated.body)}`);
      } else if (created.status >= 300) {
        throw new Error(`could not create CRD ${name}: ${JSON.stringify(created.body)}`);
      }
    }
    for (const crd of crds) {
      const name = crd.metadata?.name ?? '';
      const spec = (
        crd as {
          spec?: {
            group?: string;
            versions?: Array<{ name: string; served?: boolean }>;
            names?: { plural?: string };
          };
        }
      ).spec;
      await eventually(
        async () => {
          const current = await kubeRequest(
            config,
            'GET',
            `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`,
          );
          const conditions =
            (current.body as { status?: { conditions?: Array<{ type: string; status: string }> } })
              .status?.conditions ?? [];
          if (!conditions.some((c) => c.type === 'Established' && c.status === 'True'))
            throw new Error('not Established yet');
          for (const version of spec?.versions ?? []) {
            if (version.served === false) continue;
            const discovery = await kubeRequest(
              config,
              'GET',
              `/apis/${spec?.group}/${version.name}`,
            );
            const resources =
              (discovery.body as { resources?: Array<{ name: string }> }).resources ?? [];
            if (!resources.some((r) => r.name === spec?.names?.plural))
              throw new Error(
                `${spec?.group}/${version.name} does not serve ${spec?.names?.plural} yet`,
              );
          }
          return true;
        },
        { timeoutMs: this.timeoutMs, description: `CRD ${name} established and served` },
      );
    }
  }

  /**
   * A ServiceAccount to run an operator as, under its shipped RBAC, so the API server's
   * authorizer proves the generated roles: creates the namespace and account when missing,
   * applies the ClusterRoles, Roles and their bindings among `options.rbac` (the rendered
   * manifests), and issues a token through the TokenRequest API (on every plane; the local
   * server's tokens, like kube-apiserver's, stop working once the account is deleted) — then
   * waits until the authorizer grants the bound rules. See
   * {@link createServiceAccountIdentity} for the guarantees and errors.
   */
  async serviceAccount(options: ServiceAccountOptions): Promise<ServiceAccountIdentity> {
    return createServiceAccountIdentity(this.kubeConfig, this.kubeconfig, options, {
      issueToken: tokenRequestIssuer(this.kubeConfig),
      directory: this.directory,
      timeoutMs: this.timeoutMs,
    });
  }

  /**
   * An operator as it runs in a cluster: renders its kustomize `configDir` (usually
   * `config/default`; {@link renderOperator}), creates the namespace its manager runs in
   * labelled as rendered and enforcing the `restricted` Pod Security Standard unless the
   * rendered Namespace names another level (`pod-security.kubernetes.io/enforce`; an existing
   * namespace gets the labels), and gives the ServiceAccount its manager Deployment runs as,
   * under the rendered RBAC ({@link serviceAccount}), so the API server's authorizer judges
   * the generated roles. On the real planes, where kube-apiserver's `PodSecurity` admission
   * runs, it then creates the Pod of the manager Deployment's template in that namespace as
   * a server-side dry run, so an operator whose manager the cluster would not admit fails
   * here. Also returns the rendered objects (webhook configurations to install, for one).
   *
   * @throws {Error} as {@link renderOperator} and {@link serviceAccount}; naming `configDir`
   *   and quoting kube-apiserver when the manager Pod is not admitted.
   */
  async operatorServiceAccount(
    configDir: string,
  ): Promise<{ identity: ServiceAccountIdentity; rendered: KubernetesObject[] }> {
    const { objects, serviceAccount, namespace, managerPod } = await renderOperator(configDir);
    await applyNamespace(this.kubeConfig, namespace);
    const identity = await this.serviceAccount({ ...serviceAccount, rbac: objects });
    if (this.kind !== 'local') {
      try {
        await dryRunCreatePod(this.kubeConfig, managerPod);
      } catch (error) {
        throw new Error(
          `the manager Deployment of ${configDir} makes a Pod the cluster refuses in namespace ${serviceAccount.namespace}: ${(error as Error).message}`,
          { cause: error },
        );
      }
    }
    return { identity, rendered: objects };
  }

  /**
   * A kubeconfig (YAML) that authenticates as the service account `namespace/name`, created
   * if missing, with no RBAC applied: {@link serviceAccount} without `rbac`.
   */
  async serviceAccountKubeconfig(namespace: string, name: string): Promise<string> {
    return (await this.serviceAccount({ namespace, name })).kubeconfig;
  }

  /**
   * Installs an operator's generated webhook configurations (and the CRDs among `objects`
   * whose conversion calls a webhook) so that this control plane calls the webhook server of
   * the test process by URL (`https://127.0.0.1:<port><path>`, trusting `options.caCert`), as
   * controller-runtime's envtest does: {@link webhooksByUrl}, then each object created or
   * replaced. Resolves with them as stored.
   * kube-apiserver calls a new configuration a moment after it is stored (it watches them),
   * so the first test of a webhook's answer retries until it sees it.
   *
   * @throws {Error} as {@link webhooksByUrl}, or the API server's error for a configuration
   *   it refuses.
   */
  async installWebhooks(
    objects: readonly KubernetesObject[],
    options: WebhookUrlOptions,
  ): Promise<KubernetesObject[]> {
    return applyObjects(this.kubeConfig, webhooksByUrl(objects, options));
  }

  /**
   * Runs Helm (\`$HELM\`, else \`helm\` from PATH; the project's tests use Helm 4 from
   * scripts/ensure-helm.sh) against this control plane as its admin: \`args\` then
   * \`--kubeconfig <this kubeconfig>\`, from \`cwd\` (a chart's parent directory), with \`env\`
   * over this process's environment (\`HELM_PLUGINS\` for a post-renderer, say). Resolves with
   * its stdout.
   *
   * @throws {Error} naming the command with Helm's stderr when it fails or cannot be run.
   */
  helm(
    args: readonly string[],
    options: { cwd?: string; env?: Readonly<Record<string, string>> } = {},
  ): Promise<string> {
    const helm = process.env.HELM || 'helm';
    const argv = [...args, '--kubeconfig', this.kubeconfigPath];
    return new Promise((resolve, reject) => {
      execFile(
        helm,
        argv,
        {
          ...(options.cwd ? { cwd: options.cwd } : {}),
          ...(options.env ? { env: { ...process.env, ...options.env } } : {}),
          maxBuffer: 64 * 1024 * 1024,
        },
        (error, stdout, stderr) => {
          if (error === null) resolve(stdout);
          else
            reject(
              new Error(
                `${helm} ${args.join(' ')} failed: ${stderr.trim() || error.message}${(error as NodeJS.ErrnoException).code === 'ENOENT' ? ' (install Helm 4 or set HELM to its path: scripts/ensure-helm.sh does)' : ''}`,
                { cause: error },
              ),
            );
        },
      );
    });
  }

  /**
   * Restarts the API server as a rolling update of kube-apiserver does, for tests of what an
   * operator does through it. Every open watch is cut and clients reconnect; stored objects
   * stay. `local`: the in-process server stops listening for `downtimeMs` and forgets its watch
   * history, so a client resuming from an older resourceVersion gets 410 Gone and relists.
   * `binaries`: the kube-apiserver process is stopped (SIGTERM), and after `downtimeMs` started
   * again with the same flags, port and certificates over the same etcd. Resolves once the
   * server answers again.
   *
   * @throws Error on the `cluster` plane, whose components kwokctl runs: use `binaries` (or
   *   `local`) for a restart test.
   */
  async restartApiServer(options: { downtimeMs?: number } = {}): Promise<void> {
    if (this.server) return this.server.restartListening(options);
    if (!this.processes?.restartApiServer)
      throw new Error(
        `envtest: restartApiServer() is not available on the ${this.kind} plane (kwokctl runs its kube-apiserver); run the test on the binaries or local plane (OPS_ENVTEST_CONTROL_PLANE=binaries or local)`,
      );
    return this.processes.restartApiServer(options);
  }

  /** Stops the control plane and removes its files. Safe to call twice. */
  async stop(): Promise<void> {
    await this.server?.stop();
    await this.processes?.stop();
    await rm(this.directory, { recursive: true, force: true });
  }
}
