// A new operator scaffolded by `ops-operator new` into a temporary copy of the workspace (the
// root files and the workspace packages a new operator depends on, with their built dist/),
// installed offline from this machine's pnpm store: what new-operator.test.ts checks step by
// step, and what binaries/new-operator-real.test.ts runs on the real control plane. The
// repository's own lockfile is never touched.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, cp, mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { main } from '../src/main.js';
import { workspacePackages } from '../src/scaffold/workspace-versions.js';
import { pnpmCommand } from '../src/verbs/new.js';

export const run = promisify(execFile);
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const kubectl = process.env.KUBECTL || 'kubectl';
export const name = 'myjob-operator';
export const args = [
  name,
  '--group',
  'batch.example.com',
  '--version',
  'v1alpha1',
  '--kind',
  'MyJob',
  // The fuller variant: everything the plain one writes, plus the webhooks and their config.
  '--webhooks',
];

/**
 * The environment of the commands run in the copy: not this vitest's (it would nest). Its turbo
 * reads this repository's cache and writes none: the copied packages' builds are the ones turbo
 * cached here (same inputs), so `manifests` in the copy builds the new operator alone instead of
 * every workspace package it depends on again (half a minute a call on a busy machine).
 */
export function childEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NO_COLOR: '1',
    TURBO_CACHE_DIR: join(repoRoot, '.turbo', 'cache'),
    TURBO_CACHE: 'local:r',
  };
  for (const key of Object.keys(env)) {
    if (key.startsWith('VITEST') || key === 'NODE_ENV' || key === 'TEST') delete env[key];
  }
  return env;
}

/** `pnpm <argv>` in `cwd`, with `extraEnv` over {@link childEnvironment}; its output, or why it failed. */
export async function pnpm(
  cwd: string,
  argv: string[],
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<string> {
  const command = pnpmCommand(process.env);
  try {
    const { stdout, stderr } = await run(command.command, [...command.args, ...argv], {
      cwd,
      env: { ...childEnvironment(), ...extraEnv },
      maxBuffer: 64 * 1024 * 1024,
    });
    return `${stdout}${stderr}`;
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `pnpm ${argv.join(' ')} in ${cwd} failed: ${failure.message}\n${failure.stdout ?? ''}${failure.stderr ?? ''}`,
    );
  }
}

/**
 * The workspace packages `names` depend on, themselves included, following `workspace:`
 * dependencies.
 */
function workspaceClosure(names: string[]): string[] {
  const packages = workspacePackages(repoRoot);
  const directories = new Set<string>();
  const visit = (packageName: string) => {
    const found = packages.find((pkg) => pkg.manifest.name === packageName);
    if (found === undefined) throw new Error(`no workspace package ${packageName}`);
    if (directories.has(found.directory)) return;
    directories.add(found.directory);
    const { dependencies = {}, devDependencies = {} } = found.manifest;
    for (const [dependency, version] of Object.entries({ ...dependencies, ...devDependencies })) {
      if (version.startsWith('workspace:')) visit(dependency);
    }
  };
  for (const packageName of names) visit(packageName);
  return [...directories];
}

/** The copy of the workspace with the new operator, and what `ops-operator new` printed. */
export interface ScaffoldedCopy {
  workspace: string;
  operator: string;
  output: string[];
  status: number;
}

/**
 * Copies the workspace, scaffolds `name` into it with `ops-operator new` (installing it
 * offline) and resolves with where; remove `workspace` when done. Fails when the CLIs it runs
 * are not built.
 */
export async function scaffoldInCopy(): Promise<ScaffoldedCopy> {
  const output: string[] = [];
  const built = ['tools/operator-cli/dist/cli.js', 'tools/manifests/dist/index.js'];
  for (const file of built) {
    if (!existsSync(join(repoRoot, file))) {
      throw new Error(
        `${file} is missing: build first (pnpm turbo run build --filter=@ops/operator-cli...), as turbo does before this test`,
      );
    }
  }
  const workspace = await mkdtemp(join(tmpdir(), 'ops-new-operator-'));
  for (const file of [
    'package.json',
    'pnpm-workspace.yaml',
    'pnpm-lock.yaml',
    'tsconfig.base.json',
    'vitest.shared.ts',
    'tsup.operator.ts',
    'tsup.package.ts',
    'turbo.json',
    'biome.json',
    '.gitignore',
    'scripts/lint-workflows.mjs',
    '.github/workflows/operator-image.yml',
    'operators/Dockerfile',
    '.github/workflows/operator-chart.yml',
  ]) {
    await mkdir(dirname(join(workspace, file)), { recursive: true });
    await cp(join(repoRoot, file), join(workspace, file));
  }
  const skipped = new Set(['node_modules', '.turbo', 'test-results', '.cache']);
  for (const directory of workspaceClosure([
    '@ops/core',
    '@ops/envtest',
    '@ops/manifests',
    '@ops/operator-cli',
  ])) {
    await cp(directory, join(workspace, directory.slice(repoRoot.length)), {
      recursive: true,
      filter: (source) => !skipped.has(source.split(/[\\/]/).pop() ?? ''),
    });
  }
  // Offline, from the store this repository was installed from; the copy's lockfile gains the
  // new operator (CI=true would otherwise freeze it).
  const store = (await pnpm(repoRoot, ['store', 'path'])).trim();
  await appendFile(
    join(workspace, 'pnpm-workspace.yaml'),
    `\nstoreDir: ${JSON.stringify(store)}\noffline: true\nfrozenLockfile: false\n`,
  );
  const operator = join(workspace, 'operators', name);
  const status = await main(['new', ...args], {
    cwd: workspace,
    env: childEnvironment(),
    stdout: (text) => output.push(text),
    stderr: (text) => output.push(text),
  });
  return { workspace, operator, output, status };
}
