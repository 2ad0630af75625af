/**
 * The pnpm workspace a new operator is written into: its root, its packages, and the exact
 * version it already uses of each dependency (so a scaffolded package.json never carries a
 * second copy of version numbers, and never changes what the lockfile resolves).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { OperatorCliError } from '../errors/operator-cli-error.js';
import { findUpwards } from '../operator-project.js';

/** A workspace package: its directory and its package.json. */
export interface WorkspacePackage {
  directory: string;
  manifest: {
    name?: string;
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
}

/**
 * The nearest directory from `start` upwards (itself included) with a pnpm-workspace.yaml.
 *
 * @throws {OperatorCliError} when there is none, saying where to run from.
 */
export function findWorkspaceRoot(start: string): string {
  const root = findUpwards(start, (directory) =>
    existsSync(join(directory, 'pnpm-workspace.yaml')),
  );
  if (root === undefined) {
    throw new OperatorCliError(
      `${resolve(start)} is not in a pnpm workspace (no pnpm-workspace.yaml in it or its parents): run from the repository (pnpm new-operator ...) or pass --workspace <directory>`,
    );
  }
  return root;
}

/**
 * The workspace's root package and every package its pnpm-workspace.yaml `packages` names
 * (patterns `dir`, `dir/*`; `!` exclusions are honoured for exact directories).
 *
 * @throws {OperatorCliError} when a package.json cannot be read or a pattern is not one of
 * those forms.
 */
export function workspacePackages(root: string): WorkspacePackage[] {
  const config = (YAML.parse(readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8')) ?? {}) as {
    packages?: unknown;
  };
  const patterns = Array.isArray(config.packages) ? (config.packages as unknown[]) : [];
  const excluded = new Set(
    patterns
      .filter((pattern): pattern is string => typeof pattern === 'string')
      .filter((pattern) => pattern.startsWith('!'))
      .map((pattern) => resolve(root, pattern.slice(1))),
  );
  const directories = [root];
  for (const pattern of patterns) {
    if (typeof pattern !== 'string' || pattern.startsWith('!')) continue;
    if (/[*?[{]/.test(pattern.replace(/\/\*$/, ''))) {
      throw new OperatorCliError(
        `pnpm-workspace.yaml: the package pattern "${pattern}" is not "dir" or "dir/*", the forms ops-operator new reads; list the directories that way`,
      );
    }
    if (pattern.endsWith('/*')) {
      const parent = resolve(root, pattern.slice(0, -2));
      if (!existsSync(parent)) continue;
      for (const entry of readdirSync(parent, { withFileTypes: true })) {
        if (entry.isDirectory()) directories.push(join(parent, entry.name));
      }
    } else {
      directories.push(resolve(root, pattern));
    }
  }
  return directories
    .filter((directory) => !excluded.has(directory))
    .filter((directory) => existsSync(join(directory, 'package.json')))
    .map((directory) => {
      const path = join(directory, 'package.json');
      try {
        return { directory, manifest: JSON.parse(readFileSync(path, 'utf8')) };
      } catch (error) {
        throw new OperatorCliError(
          `cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    });
}

const exactVersion = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

/**
 * The one exact version the workspace's packages depend on for `dependency` (in
 * `dependencies` or `devDependencies`).
 *
 * @throws {OperatorCliError} when no package pins it exactly (add it to one, at an exact
 * version), or packages pin different versions (align them first).
 */
export function workspaceVersion(
  packages: readonly WorkspacePackage[],
  dependency: string,
): string {
  const found = new Map<string, string[]>();
  for (const { directory, manifest } of packages) {
    for (const group of [manifest.dependencies, manifest.devDependencies]) {
      const version = group?.[dependency];
      if (version === undefined || !exactVersion.test(version)) continue;
      found.set(version, [...(found.get(version) ?? []), manifest.name ?? directory]);
    }
  }
  const versions = [...found.keys()];
  if (versions.length === 0) {
    throw new OperatorCliError(
      `no workspace package depends on ${dependency} at an exact version, so the new operator cannot take its version from the workspace: add "${dependency}": "<x.y.z>" to the root package.json's devDependencies and run pnpm install`,
    );
  }
  if (versions.length > 1) {
    const list = [...found].map(([version, users]) => `${version} (${users.join(', ')})`);
    throw new OperatorCliError(
      `the workspace depends on ${dependency} at ${list.join(' and ')}: pin one version everywhere first, so the new operator uses the same`,
    );
  }
  return versions[0] as string;
}

/** The published packages a standalone operator depends on, besides this CLI. */
export const publishedOpsPackages = [
  '@ops/core',
  '@ops/envtest',
  '@ops/manifests',
  '@ops/apiserver',
] as const;

/**
 * The versions a standalone operator (`ops-operator init`) depends on, from the package.json
 * files that ship with this CLI: `^<version>` of each `@ops/*` package (this CLI's and its
 * dependencies' own versions, as installed beside it), and for any other dependency the exact
 * version those packages use themselves ({@link workspaceVersion} over their manifests), so
 * a new project builds with what the packages were built and tested with.
 *
 * @throws {OperatorCliError} when an `@ops/*` package cannot be resolved from this CLI, or
 * (from the returned function) a dependency none of them pins.
 */
export function publishedVersions(
  resolveManifest: (name: string) => string = defaultManifestPath,
): (dependency: string) => string {
  const manifests = new Map<string, WorkspacePackage>();
  for (const name of ['@ops/operator-cli', ...publishedOpsPackages]) {
    let path: string;
    try {
      path = resolveManifest(name);
    } catch (error) {
      throw new OperatorCliError(
        `cannot find ${name} beside @ops/operator-cli (${error instanceof Error ? error.message : String(error)}): reinstall @ops/operator-cli`,
      );
    }
    manifests.set(name, {
      directory: dirname(path),
      manifest: JSON.parse(readFileSync(path, 'utf8')),
    });
  }
  const packages = [...manifests.values()];
  return (dependency) => {
    const own = manifests.get(dependency);
    if (own !== undefined) return `^${(own.manifest as { version: string }).version}`;
    return workspaceVersion(packages, dependency);
  };
}

const require = createRequire(import.meta.url);

function defaultManifestPath(name: string): string {
  if (name === '@ops/operator-cli') {
    const here = dirname(fileURLToPath(import.meta.url));
    const root = findUpwards(here, (directory) => existsSync(join(directory, 'package.json')));
    if (root === undefined) throw new Error(`no package.json above ${here}`);
    return join(root, 'package.json');
  }
  return require.resolve(`${name}/package.json`);
}

/**
 * The versions an operator in this repository's pnpm workspace depends on: `workspace:*`
 * for the `@ops/*` packages, otherwise the one exact version the workspace uses
 * ({@link workspaceVersion}).
 */
export function workspaceVersions(
  packages: readonly WorkspacePackage[],
): (dependency: string) => string {
  return (dependency) =>
    dependency.startsWith('@ops/') ? 'workspace:*' : workspaceVersion(packages, dependency);
}
