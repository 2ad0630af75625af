import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The libraries a run compares, by package name: what the report names with their versions. */
export const comparedLibraries = [
  '@ops/core',
  '@kubernetes/client-node',
  'kubernetes-fluent-client',
] as const;

/**
 * The installed version of each of `names`, as this package resolves them (so the versions
 * the run really measured, whatever the lockfile says). Found by resolving the package's
 * entry point and walking up to the `package.json` that carries its name, which works for
 * packages whose `exports` hide `./package.json`.
 *
 * @throws when a package cannot be resolved from here.
 */
export function libraryVersions(
  names: readonly string[] = comparedLibraries,
): Record<string, string> {
  const versions: Record<string, string> = {};
  for (const name of names) versions[name] = installedVersion(name);
  return versions;
}

function installedVersion(name: string): string {
  const entry = fileURLToPath(import.meta.resolve(name));
  for (let dir = dirname(entry); dirname(dir) !== dir; dir = dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (manifest.name === name && manifest.version) return manifest.version;
    } catch {
      // No package.json here (or not JSON): keep walking up.
    }
  }
  throw new Error(`cannot find the package.json of ${name} above ${entry}`);
}
