import { execFileSync } from 'node:child_process';
import { runPnpm } from '../../../scripts/run-pnpm.mjs';

/** A public package as `pnpm pack-all` packed it: its name and its tarball. */
export interface PackedPackage {
  name: string;
  tarball: string;
}

/** What {@link packAll} did: every tarball, and the install command pack-all printed. */
export interface PackAllResult {
  packed: PackedPackage[];
  /** `npm install <every tarball>`, as `pnpm pack-all` prints it for a user. */
  installCommand: string;
}

/**
 * Runs `pnpm pack-all --pack-destination <destination>` in the workspace, as a user packs the
 * packages from a clone (it builds every public package first), and reads each tarball's name
 * from its own package.json.
 *
 * @throws Error from pnpm, with its output, when a package does not build or pack.
 */
export function packAll(workspaceRoot: string, destination: string): PackAllResult {
  const installCommand = runPnpm(
    ['-s', 'pack-all', '--pack-destination', destination],
    workspaceRoot,
  ).trim();
  const packed = installCommand
    .replace(/^npm install /, '')
    .split(' ')
    .map((tarball) => {
      const manifest = execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], {
        encoding: 'utf8',
      });
      return { name: (JSON.parse(manifest) as { name: string }).name, tarball };
    });
  return { packed, installCommand };
}
