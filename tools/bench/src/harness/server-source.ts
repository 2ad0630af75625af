import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ensureControlPlaneAssets } from '@ops/envtest';
import type { BenchServer, ServerKind, ServerStartOptions } from './bench-server.js';
import { libraryVersions } from './library-versions.js';
import { LocalBenchServer } from './local-bench-server.js';
import { RealBenchServer, type RealBenchServerOptions } from './real-bench-server.js';

/**
 * Where a run's API servers come from: one kind of server for every benchmark and every
 * library of a run, named in the report's header.
 */
export interface ServerSource {
  kind: ServerKind;
  /**
   * The server as the report names it, with its version, e.g. `kube-apiserver v1.37.2
   * (etcd 3.7.3)` or `local API server (@ops/apiserver 0.1.0)`.
   */
  name: string;
  /**
   * Starts a fresh server (see {@link ServerStartOptions}).
   *
   * @throws {Error} when `cluster` is asked of a source without one, or the server fails to
   *   start (kube-apiserver also refuses a feature gate its version does not know).
   */
  start(options?: ServerStartOptions): Promise<BenchServer>;
}

/** The local API server of `@ops/apiserver`, in a child process per server. */
export function localServerSource(): ServerSource {
  return {
    kind: 'local',
    name: `local API server (@ops/apiserver ${libraryVersions(['@ops/apiserver'])['@ops/apiserver']})`,
    start: (options) => LocalBenchServer.start(options),
  };
}

/** Options of {@link realServerSource}. */
export interface RealServerSourceOptions {
  /** Options of every server started (seeding concurrency, start timeout). */
  server?: RealBenchServerOptions;
  /**
   * The directory with `etcd` and `kube-apiserver`. Default: `KUBEBUILDER_ASSETS` of `env`
   * when set, else the project's cache, built there with Go or reused as `pnpm control-plane
   * build` does (`ensureControlPlaneAssets` of `@ops/envtest`).
   */
  assetsDirectory?: string;
  /** Where `KUBEBUILDER_ASSETS` is read (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Progress of a build, line by line (default: lines on stderr). */
  log?: (line: string) => void;
  /** Finds or builds the binaries (default `ensureControlPlaneAssets`; replaced in tests). */
  ensureAssets?: typeof ensureControlPlaneAssets;
}

const execFileAsync = promisify(execFile);

/** The first line `binary --version` prints (`Kubernetes v1.37.2`, `etcd Version: 3.7.3`). */
async function versionLine(binary: string): Promise<string> {
  const { stdout } = await execFileAsync(binary, ['--version'], { timeout: 30_000 });
  return stdout.split('\n')[0]?.trim() ?? '';
}

/**
 * Real etcd + kube-apiserver, a fresh pair per server, from binaries found (or built) once
 * here. Their versions are read from the binaries themselves (`--version`), so binaries from
 * `setup-envtest` are named as truly as the project's own.
 *
 * @throws {ControlPlaneAssetsError} (from `@ops/envtest`) when the binaries are absent and
 *   cannot be built: its message says what to install (Go) or how to use setup-envtest's.
 * @throws {Error} when the assets directory lacks `etcd` or `kube-apiserver`, or they do not run.
 */
export async function realServerSource(
  options: RealServerSourceOptions = {},
): Promise<ServerSource> {
  const env = options.env ?? process.env;
  const ensureAssets = options.ensureAssets ?? ensureControlPlaneAssets;
  const fromEnv = env.KUBEBUILDER_ASSETS ? 'KUBEBUILDER_ASSETS' : undefined;
  const directory =
    options.assetsDirectory ??
    (env.KUBEBUILDER_ASSETS ||
      (await ensureAssets(options.log ? { log: options.log } : {})).directory);
  for (const binary of ['etcd', 'kube-apiserver']) {
    if (!existsSync(join(directory, binary)))
      throw new Error(
        `${fromEnv ? `KUBEBUILDER_ASSETS=${directory}` : directory} has no ${binary}: point KUBEBUILDER_ASSETS at envtest's binaries (setup-envtest use), unset it to build them with \`pnpm control-plane build\`, or run the bench on the local server (--server local)`,
      );
  }
  const apiserver = (await versionLine(join(directory, 'kube-apiserver'))).replace(
    /^Kubernetes\s+/,
    '',
  );
  const etcd = (await versionLine(join(directory, 'etcd'))).replace(/^etcd Version:\s*/, '');
  return {
    kind: 'real',
    name: `kube-apiserver ${apiserver} (etcd ${etcd})`,
    start: async (startOptions) => {
      if (startOptions?.cluster)
        throw new Error(
          'the real server is etcd + kube-apiserver without kube-controller-manager: nothing runs Deployments or Pods; skip this benchmark on it',
        );
      return RealBenchServer.start(directory, {
        ...options.server,
        ...(startOptions?.featureGates ? { featureGates: startOptions.featureGates } : {}),
      });
    },
  };
}
