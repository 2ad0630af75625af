import {
  ControlPlaneAssetsError,
  type ControlPlaneAssetsOptions,
  ensureControlPlaneAssets,
  pinnedControlPlane,
} from '@ops/envtest';

/** Where the CLI writes: results to `out`, progress and errors to `err`. */
export interface Output {
  out(line: string): void;
  err(line: string): void;
}

export const usage = `usage: ops-control-plane <command> [--force] [--cache-dir DIR]

Builds the real Kubernetes control plane at the versions pinned by @ops/envtest's Go modules
(packages/envtest/go) with the go command, into <cache>/kube/<version>-<os>-<arch>/, and
reuses it while the pins are unchanged.

commands:
  build      build the binaries, or reuse them; prints their directory on stdout
             (progress on stderr), so KUBEBUILDER_ASSETS="$(ops-control-plane build)" works
  versions   print the pinned versions

options:
  --force          rebuild even when the cached binaries are current
  --cache-dir DIR  cache root (default: OPS_CONTROL_PLANE_CACHE, else .cache at the repository root)`;

/**
 * Runs the CLI with `args` (without node and the script). Resolves with the exit status:
 * 0 on success, 1 when the binaries cannot be built (the message says what to install),
 * 2 on a usage error.
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
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === '--force') options.force = true;
    else if (arg === '--cache-dir' && rest[i + 1] !== undefined) options.cacheDirectory = rest[++i];
    else {
      output.err(`ops-control-plane: unknown argument "${arg}"\n\n${usage}`);
      return 2;
    }
  }
  if (command === 'versions') {
    const { versions } = await pinnedControlPlane();
    output.out(`kubernetes v${versions.kubernetes}`);
    output.out(`etcd v${versions.etcd}`);
    output.out(`kwok v${versions.kwok}`);
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
    const assets = await build(options);
    output.out(assets.directory);
    return 0;
  } catch (error) {
    if (!ControlPlaneAssetsError.isInstance(error)) throw error;
    output.err(`ops-control-plane: ${error.message}`);
    return 1;
  }
}
