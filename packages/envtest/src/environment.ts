import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import type { KubernetesObject } from '@ops/api';
import { ApiServer, type ApiServerOptions, PortInUseError } from '@ops/apiserver';
import YAML from 'yaml';
import { type BinaryControlPlane, startBinaryControlPlane } from './binary-control-plane.js';
import { ensureControlPlaneAssets } from './control-plane-assets.js';
import { eventually } from './eventually.js';
import { kubeRequest } from './kube-request.js';
import { loadManifests } from './load-manifests.js';

/** Options of {@link Environment.start}. */
export interface EnvironmentOptions {
  /** Files or directories of CRD manifests (YAML or JSON) to install once started. */
  crdDirectoryPaths?: string[];
  /** CRD objects to install once started. */
  crds?: KubernetesObject[];
  /** Fail when a CRD path does not exist (default true). */
  errorIfCrdPathMissing?: boolean;
  /**
   * Directory with `etcd` and `kube-apiserver` binaries for the `binaries` plane; defaults to
   * `KUBEBUILDER_ASSETS`, then to the project's cache (built there with Go when absent: see
   * {@link ensureControlPlaneAssets}).
   */
  binaryAssetsDirectory?: string;
  /** Options of the local API server (ignored with real binaries). */
  apiServer?: ApiServerOptions;
  /** Timeout for the control plane to start and for CRDs to be established (default 60 s). */
  timeoutMs?: number;
  /**
   * Which control plane to start:
   * - `local`: the in-process local API server (forced by tests of what only it can do, such
   *   as fault injection);
   * - `binaries`: real etcd + kube-apiserver from `binaryAssetsDirectory`, `KUBEBUILDER_ASSETS`
   *   or the project's cache (built with Go when absent; a ControlPlaneAssetsError
   *   says what to install when it cannot be);
   * - `auto` (default; `binaries` when `binaryAssetsDirectory` is given): the environment variable `OPS_ENVTEST_CONTROL_PLANE` (`local` or
   *   `binaries`) when set, else `binaries` when `KUBEBUILDER_ASSETS` is set (as
   *   controller-runtime's envtest), else `local`.
   */
  controlPlane?: ControlPlaneKind | 'auto';
  /** Build progress of the `binaries` plane (default: lines on stderr). */
  log?: (line: string) => void;
}

/** The control planes {@link Environment} starts. */
export type ControlPlaneKind = 'local' | 'binaries';

/** The environment variable that picks the control plane when the option is `auto`. */
export const controlPlaneVariable = 'OPS_ENVTEST_CONTROL_PLANE';

/**
 * The plane `controlPlane` (default `auto`) resolves to, as {@link Environment.start} does.
 *
 * @throws {Error} when OPS_ENVTEST_CONTROL_PLANE holds something else than `local` or `binaries`.
 */
export function resolveControlPlane(
  controlPlane: ControlPlaneKind | 'auto' = 'auto',
  env: NodeJS.ProcessEnv = process.env,
): ControlPlaneKind {
  if (controlPlane !== 'auto') return controlPlane;
  const chosen = env[controlPlaneVariable];
  if (chosen !== undefined && chosen !== '') {
    if (chosen === 'local' || chosen === 'binaries') return chosen;
    throw new Error(
      `${controlPlaneVariable}=${chosen} is not a control plane: use "local" (the in-process API server) or "binaries" (etcd + kube-apiserver), or unset it`,
    );
  }
  return env.KUBEBUILDER_ASSETS ? 'binaries' : 'local';
}

/**
 * A running control plane for tests, as controller-runtime's envtest gives one: the local
 * in-memory API server in-process by default, or real etcd + kube-apiserver (`controlPlane:
 * 'binaries'` or `OPS_ENVTEST_CONTROL_PLANE=binaries`, or `KUBEBUILDER_ASSETS` set) — so one
 * suite runs against either. Start with {@link Environment.start}; always `stop()` it.
 *
 * The admin user (`system:masters`) is in {@link kubeConfig} and in the file at
 * {@link kubeconfigPath}.
 */
export class Environment {
  private constructor(
    /** `local` (in-process API server) or `binaries` (etcd + kube-apiserver). */
    readonly kind: ControlPlaneKind,
    /** The admin kubeconfig, YAML. */
    readonly kubeconfig: string,
    /** The same kubeconfig, written to a file (for kubectl and child processes). */
    readonly kubeconfigPath: string,
    /** The local API server, when {@link kind} is `local` (for its fault injection). */
    readonly server: ApiServer | undefined,
    private readonly binaries: BinaryControlPlane | undefined,
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
    const plane = resolveControlPlane(
      options.controlPlane ?? (options.binaryAssetsDirectory ? 'binaries' : 'auto'),
    );
    const crds = [
      ...(options.crds ?? []),
      ...(await loadManifests(options.crdDirectoryPaths ?? [], {
        ignoreMissing: options.errorIfCrdPathMissing === false,
      })),
    ];
    const directory = await mkdtemp(join(tmpdir(), 'ops-envtest-'));
    const kubeconfigPath = join(directory, 'kubeconfig');
    let environment: Environment;
    if (plane === 'binaries') {
      const assets =
        options.binaryAssetsDirectory ??
        (process.env.KUBEBUILDER_ASSETS ||
          (await ensureControlPlaneAssets(options.log ? { log: options.log } : {})).directory);
      const binaries = await startBinaryControlPlane(assets, { timeoutMs });
      environment = new Environment(
        'binaries',
        binaries.kubeconfig,
        kubeconfigPath,
        undefined,
        binaries,
        directory,
        timeoutMs,
      );
    } else {
      const server = await ApiServer.start(options.apiServer ?? {}).catch((error: unknown) => {
        if (!PortInUseError.isInstance(error)) throw error;
        throw new Error(
          `envtest: the local API server cannot listen on port ${error.port} of ${error.host}: the port is already in use. It is set by the apiServer.port option of Environment.start: leave it unset (a free port is picked) or choose another, or stop the process listening there (lsof -i :${error.port} shows which)`,
          { cause: error },
        );
      });
      environment = new Environment(
        'local',
        server.kubeconfig(),
        kubeconfigPath,
        server,
        undefined,
        directory,
        timeoutMs,
      );
    }
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
   * A kubeconfig (YAML) that authenticates as the service account `namespace/name`, for
   * running an operator under its own RBAC. The account is created if missing.
   */
  async serviceAccountKubeconfig(namespace: string, name: string): Promise<string> {
    const config = this.kubeConfig;
    const account = await kubeRequest(
      config,
      'POST',
      `/api/v1/namespaces/${namespace}/serviceaccounts`,
      { metadata: { name } },
    );
    if (account.status >= 300 && account.status !== 409)
      throw new Error(
        `could not create service account ${namespace}/${name}: ${JSON.stringify(account.body)}`,
      );
    let token: string;
    if (this.server) {
      token = this.server.serviceAccountToken(namespace, name);
    } else {
      const request = await kubeRequest(
        config,
        'POST',
        `/api/v1/namespaces/${namespace}/serviceaccounts/${name}/token`,
        {
          apiVersion: 'authentication.k8s.io/v1',
          kind: 'TokenRequest',
          spec: { expirationSeconds: 86_400 },
        },
      );
      const issued = (request.body as { status?: { token?: string } }).status?.token;
      if (!issued)
        throw new Error(
          `could not issue a token for ${namespace}/${name}: ${JSON.stringify(request.body)}`,
        );
      token = issued;
    }
    const parsed = YAML.parse(this.kubeconfig) as {
      users: Array<{ name: string; user: Record<string, unknown> }>;
      contexts: Array<{ context: Record<string, unknown> }>;
    };
    parsed.users = [{ name: `${namespace}-${name}`, user: { token } }];
    for (const context of parsed.contexts) {
      context.context.user = `${namespace}-${name}`;
      context.context.namespace = namespace;
    }
    return YAML.stringify(parsed);
  }

  /** Stops the control plane and removes its files. Safe to call twice. */
  async stop(): Promise<void> {
    await this.server?.stop();
    await this.binaries?.stop();
    await rm(this.directory, { recursive: true, force: true });
  }
}
