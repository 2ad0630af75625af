import {
  ControlPlaneAssetsError,
  type ControlPlaneAssetsOptions,
  ensureControlPlaneAssets,
  kubernetesVersionVariable,
  pinnedControlPlanes,
} from '@ops/envtest';

/** Where the CLI writes: results to `out`, progress and errors to `err`. */
export interface Output {
  out(line: string): void;
  err(line: string): void;
}

export const usage = `usage: ops-control-plane <command> [--kubernetes VERSION | --all] [--force] [--cache-dir DIR]

Builds the real Kubernetes control plane of a release pinned by @ops/envtest's Go modules
(packages/envtest/go) with the go command, into <cache>/kube/<version>-<os>-<arch>/, and
reuses it while the pins are unchanged.

commands:
  build      build the binaries, or reuse them; prints their directory on stdout
             (progress on stderr), so KUBEBUILDER_ASSETS="$(ops-control-plane build)" works
  versions   print every pinned release (Kubernetes, etcd, kwok), the default first

options:
  --kubernetes VERSION  the release: a pinned minor (1.35) or exact version (default:
                        ${kubernetesVersionVariable}, else the newest)
  --all                 every pinned release, one after the other (one directory per line)
  --force               rebuild even when the cached binaries are current
  --cache-dir DIR       cache root (default: OPS_CONTROL_PLANE_CACHE, else $XDG_CACHE_HOME/ops
                        or ~/.cache/ops, shared by every clone)`;

/**
 * Runs the CLI with `args` (without node and the script). Resolves with the exit status:
 * 0 on success, 1 when the binaries cannot be built (the message says what to install) or the
 * release is not pinned (the message names those that are), 2 on a usage error.
 */
export async function main(
  args: readonly string[],
  output: Output,
  build: typeof ensureControlPlaneAssets = ensureControlPlaneAssets,
): Promise<number> {
  const [command, ...rest] = args;
  const options: ControlPlaneAssetsOptions = {
    log: (line) => output.err(`control-plane: ${line}`),
  };
  let all = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === '--force') options.force = true;
    else if (arg === '--all') all = true;
    else if (arg === '--cache-dir' && rest[i + 1] !== undefined) options.cacheDirectory = rest[++i];
    else if (arg === '--kubernetes' && rest[i + 1] !== undefined) options.kubernetes = rest[++i];
    else {
      output.err(`ops-control-plane: unknown argument "${arg}"\n\n${usage}`);
      return 2;
    }
  }
  if (all && options.kubernetes !== undefined) {
    output.err(`ops-control-plane: --all and --kubernetes exclude each other\n\n${usage}`);
    return 2;
  }
  if (command === 'versions') {
    const releases = await pinnedControlPlanes();
    for (const [index, { versions }] of releases.entries())
      output.out(
        `kubernetes v${versions.kubernetes}  etcd v${versions.etcd}  kwok v${versions.kwok}${
          index === 0 ? '  (default)' : ''
        }`,
      );
    return 0;
  }
  if (command !== 'build') {
    output.err(
      command === undefined || command === '--help' || command === 'help'
        ? usage
        : `ops-control-plane: unknown command "${command}"\n\n${usage}`,
    );
    return command === '--help' || command === 'help' ? 0 : 2;
  }
  try {
    if (all) {
      for (const { versions } of await pinnedControlPlanes())
        output.out((await build({ ...options, kubernetes: versions.kubernetes })).directory);
    } else {
      output.out((await build(options)).directory);
    }
    return 0;
  } catch (error) {
    if (!ControlPlaneAssetsError.isInstance(error)) throw error;
    output.err(`ops-control-plane: ${error.message}`);
    return 1;
  }
}
