import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runPnpm } from '../../../scripts/run-pnpm.mjs';

/** A workspace package packed as `pnpm publish` would: its name and its tarball. */
export interface PackedPackage {
  name: string;
  tarball: string;
}

/** The directories (under `packages/` and `tools/`) of the workspace's public packages. */
export function publicPackageDirectories(workspaceRoot: string): string[] {
  const directories: string[] = [];
  for (const group of ['packages', 'tools']) {
    for (const entry of readdirSync(join(workspaceRoot, group)).sort()) {
      const manifestPath = join(workspaceRoot, group, entry, 'package.json');
      if (!existsSync(manifestPath)) continue;
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { private?: boolean };
      if (manifest.private !== true) directories.push(join(workspaceRoot, group, entry));
    }
  }
  return directories;
}

/**
 * Packs each public package of the workspace (built beforehand) into `destination` with
 * `pnpm pack`, which turns `workspace:*` dependencies into the versions being published.
 *
 * @throws Error from pnpm, with its output, when a package does not pack.
 */
export function packPublicPackages(workspaceRoot: string, destination: string): PackedPackage[] {
  return publicPackageDirectories(workspaceRoot).map((directory) => {
    const before = new Set(readdirSync(destination));
    runPnpm(['pack', '--pack-destination', destination], directory);
    const tarball = readdirSync(destination).find(
      (file) => !before.has(file) && file.endsWith('.tgz'),
    );
    if (tarball === undefined) throw new Error(`pnpm pack wrote no tarball for ${directory}`);
    const { name } = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as {
      name: string;
    };
    return { name, tarball: join(destination, tarball) };
  });
}
