// `ops-operator new` for real: a scaffolded operator in a temporary copy of the workspace
// (the root files and the workspace packages a new operator depends on, with their built
// dist/), installed offline from this machine's pnpm store, must build, pass its lint
// (manifests --check), typecheck, biome and its own end-to-end test, render with kustomize,
// and its image workflow must pass actionlint. The repository's own lockfile is never touched.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, cp, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseYamlStream } from '../src/kubectl.js';
import { main } from '../src/main.js';
import { workspacePackages } from '../src/scaffold/workspace-versions.js';
import { pnpmCommand } from '../src/verbs/new.js';

const run = promisify(execFile);
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const kubectl = process.env.KUBECTL || 'kubectl';
const name = 'myjob-operator';
const args = [name, '--group', 'batch.example.com', '--version', 'v1alpha1', '--kind', 'MyJob'];

/** The environment of the commands run in the copy: not this vitest's (it would nest). */
function childEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const key of Object.keys(env)) {
    if (key.startsWith('VITEST') || key === 'NODE_ENV' || key === 'TEST') delete env[key];
  }
  return env;
}

async function pnpm(cwd: string, argv: string[]): Promise<string> {
  const command = pnpmCommand(process.env);
  try {
    const { stdout, stderr } = await run(command.command, [...command.args, ...argv], {
      cwd,
      env: childEnvironment(),
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

let workspace: string;
let operator: string;
const output: string[] = [];
let status: number;

beforeAll(async () => {
  const built = ['tools/operator-cli/dist/cli.js', 'tools/manifests/dist/index.js'];
  for (const file of built) {
    if (!existsSync(join(repoRoot, file))) {
      throw new Error(
        `${file} is missing: build first (pnpm turbo run build --filter=@ops/operator-cli...), as turbo does before this test`,
      );
    }
  }
  workspace = await mkdtemp(join(tmpdir(), 'ops-new-operator-'));
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
  operator = join(workspace, 'operators', name);
  status = await main(['new', ...args], {
    cwd: workspace,
    env: childEnvironment(),
    stdout: (text) => output.push(text),
    stderr: (text) => output.push(text),
  });
}, 360_000);

afterAll(async () => {
  if (workspace) await rm(workspace, { recursive: true, force: true });
});

// Each step runs real commands (tsup, tsc, vitest, kubectl) that take seconds alone and far
// longer on a busy 2-core CI machine running other packages' tests beside them.
const step = 180_000;

describe('ops-operator new, in a copy of the workspace', () => {
  it(
    'writes the operator, installs it and renders its manifests with ops-manifests',
    async () => {
      expect(status, output.join('')).toBe(0);
      expect(output.join('')).toContain(
        `${name}: MyJob (batch.example.com/v1alpha1, Namespaced) in operators/${name}`,
      );
      const crd = parseYamlStream(
        await readFile(join(operator, 'config/crd/bases/batch.example.com_myjobs.yaml'), 'utf8'),
      );
      expect(crd[0]).toMatchObject({
        kind: 'CustomResourceDefinition',
        metadata: { name: 'myjobs.batch.example.com' },
        spec: { scope: 'Namespaced', names: { kind: 'MyJob', plural: 'myjobs' } },
      });
      const role = await readFile(join(operator, 'config/rbac/role.yaml'), 'utf8');
      expect(role).toMatch(/^# Code generated by ops-manifests/);
      const manifest = JSON.parse(await readFile(join(operator, 'package.json'), 'utf8'));
      const rootManifest = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8'));
      expect(manifest.devDependencies.vitest).toBe(rootManifest.devDependencies.vitest);
      expect(manifest.devDependencies.typescript).toBe(rootManifest.devDependencies.typescript);
      expect(existsSync(join(workspace, '.github/workflows', `${name}.yml`))).toBe(true);
    },
    step,
  );

  it(
    'builds, and its bundle runs',
    async () => {
      await pnpm(operator, ['run', 'build']);
      const { stdout } = await run(process.execPath, [join(operator, 'dist/main.js'), '--help']);
      expect(stdout).toContain('--leader-elect');
      expect(stdout).toContain(name);
    },
    step,
  );

  it(
    'passes its lint (manifests --check), typecheck and biome',
    async () => {
      expect(await pnpm(operator, ['run', 'lint'])).toContain(
        'ops-manifests: 2 file(s) up to date',
      );
      await pnpm(operator, ['run', 'typecheck']);
      await pnpm(workspace, [
        'exec',
        'biome',
        'check',
        '--error-on-warnings',
        `operators/${name}`,
        '.github',
      ]);
    },
    step,
  );

  it(
    'passes its own end-to-end test on the local API server',
    async () => {
      await pnpm(operator, ['run', 'test']);
      const report = JSON.parse(
        await readFile(
          join(operator, 'test-results', `vitest-node${process.versions.node}.json`),
          'utf8',
        ),
      );
      expect(report).toMatchObject({ numTotalTests: 3, numPassedTests: 3, success: true });
    },
    step,
  );

  it(
    'renders config/default and config/samples with kustomize',
    async () => {
      const { stdout } = await run(kubectl, ['kustomize', join(operator, 'config/default')]);
      const ids = parseYamlStream(stdout)
        .map((object) => `${object.kind}/${object.metadata.name}`)
        .sort();
      expect(ids).toEqual(
        [
          `Namespace/${name}-system`,
          'CustomResourceDefinition/myjobs.batch.example.com',
          `ServiceAccount/${name}-controller-manager`,
          `ClusterRole/${name}-manager-role`,
          `ClusterRoleBinding/${name}-manager-rolebinding`,
          `Role/${name}-leader-election-role`,
          `RoleBinding/${name}-leader-election-rolebinding`,
          `ClusterRole/${name}-myjob-editor-role`,
          `ClusterRole/${name}-myjob-viewer-role`,
          `Deployment/${name}-controller-manager`,
          `Service/${name}-controller-manager-metrics-service`,
        ].sort(),
      );
      const samples = await run(kubectl, ['kustomize', join(operator, 'config/samples')]);
      expect(parseYamlStream(samples.stdout)).toEqual([
        expect.objectContaining({ kind: 'MyJob', apiVersion: 'batch.example.com/v1alpha1' }),
      ]);
    },
    step,
  );

  it(
    'writes an image workflow that passes actionlint, calling operator-image.yml',
    async () => {
      const { stdout } = await run(process.execPath, ['scripts/lint-workflows.mjs'], {
        cwd: workspace,
      });
      expect(stdout).toContain('lint-workflows: 2 workflow(s) clean');
    },
    step,
  );

  it(
    'refuses an existing operator and changes nothing',
    async () => {
      const readme = await readFile(join(operator, 'README.md'), 'utf8');
      const errors: string[] = [];
      const again = await main(['new', ...args], {
        cwd: workspace,
        stdout: () => undefined,
        stderr: (text) => errors.push(text),
      });
      expect(again).toBe(1);
      expect(errors.join('')).toBe(
        `ops-operator new: ${operator} already exists (or a workspace package is named ${name}); nothing was written. Choose another name, or remove it first.\n`,
      );
      expect(await readFile(join(operator, 'README.md'), 'utf8')).toBe(readme);
    },
    step,
  );
});
