import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../main.js';
import { detectPackageManager, npmCommand } from './init.js';

let parent: string;

beforeEach(async () => {
  parent = await mkdtemp(join(tmpdir(), 'ops-init-'));
});
afterEach(async () => {
  await rm(parent, { recursive: true, force: true });
});

async function runInit(argv: string[], env: NodeJS.ProcessEnv = {}, cwd = parent) {
  const output = { stdout: '', stderr: '' };
  const status = await main(['init', ...argv], {
    cwd,
    env,
    stdout: (text) => {
      output.stdout += text;
    },
    stderr: (text) => {
      output.stderr += text;
    },
  });
  return { status, ...output };
}

const kind = ['--group', 'cache.example.com', '--version', 'v1', '--kind', 'Cache'];
const cliManifest = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as { version: string; devDependencies: Record<string, string> };
const coreVersion = (
  JSON.parse(
    readFileSync(new URL('../../../../packages/core/package.json', import.meta.url), 'utf8'),
  ) as {
    version: string;
  }
).version;

describe('ops-operator init', () => {
  it('writes a standalone project named after a new directory, on the published versions', async () => {
    const result = await runInit(['cache-operator', ...kind, '--skip-install'], {
      npm_config_user_agent: 'npm/11.6.0 node/v24.21.0 linux x64 workspaces/false',
    });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toBe(
      'cache-operator: Cache (cache.example.com/v1, Namespaced) in cache-operator, for npm\n' +
        'Next: cd cache-operator && npm install && npm run manifests && npm test; commit it with package-lock.json.\n',
    );
    const project = join(parent, 'cache-operator');
    const manifest = JSON.parse(await readFile(join(project, 'package.json'), 'utf8'));
    expect(manifest.name).toBe('cache-operator');
    expect(manifest.dependencies['@ops/core']).toBe(`^${coreVersion}`);
    expect(manifest.devDependencies['@ops/operator-cli']).toBe(`^${cliManifest.version}`);
    expect(manifest.devDependencies.typescript).toBe(cliManifest.devDependencies.typescript);
    expect(manifest.scripts.lint).toBe(
      'biome check . && tsc -p tsconfig.json && npm run manifests:check',
    );
    for (const path of [
      'Dockerfile',
      '.github/workflows/image.yml',
      'biome.json',
      'src/api/v1/cache.ts',
    ]) {
      expect(existsSync(join(project, path)), path).toBe(true);
    }
    // Nothing in the project points outside it.
    for (const path of ['tsconfig.json', 'tsup.config.ts', 'vitest.config.ts', 'Dockerfile']) {
      expect(await readFile(join(project, path), 'utf8'), path).not.toContain('../');
    }
  });

  it('writes a pnpm project when pnpm runs it, or when asked', async () => {
    const detected = await runInit(['a-operator', ...kind, '--skip-install'], {
      npm_config_user_agent: 'pnpm/11.28.10 npm/? node/v24.21.0 linux x64',
    });
    expect(detected.stdout).toContain('pnpm install && pnpm run manifests && pnpm test');
    const asked = await runInit([
      'b-operator',
      ...kind,
      '--skip-install',
      '--package-manager',
      'pnpm',
    ]);
    expect(asked.status, asked.stderr).toBe(0);
    const dockerfile = await readFile(join(parent, 'b-operator', 'Dockerfile'), 'utf8');
    expect(dockerfile).toContain('pnpm install --frozen-lockfile');
  });

  it('refuses a directory that is not empty, naming what is there, and writes nothing', async () => {
    const project = join(parent, 'busy-operator');
    await mkdir(join(project, '.git'), { recursive: true });
    await writeFile(join(project, 'notes.txt'), 'mine\n');
    await writeFile(join(project, 'package.json'), '{}\n');
    const result = await runInit([...kind, '--skip-install'], {}, project);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      `ops-operator init: ${project} is not empty (notes.txt, package.json); ops-operator init writes a new project only into an empty directory (a .git may be there) and overwrites nothing.`,
    );
    expect(result.stderr).toContain('ops-operator create api');
    expect((await readdir(project)).sort()).toEqual(['.git', 'notes.txt', 'package.json']);
    expect(await readFile(join(project, 'package.json'), 'utf8')).toBe('{}\n');
  });

  it('accepts a directory holding only .git', async () => {
    const project = join(parent, 'git-operator');
    await mkdir(join(project, '.git'), { recursive: true });
    const result = await runInit([...kind, '--skip-install'], {}, project);
    expect(result.status, result.stderr).toBe(0);
    expect(existsSync(join(project, 'src/operator.ts'))).toBe(true);
  });

  it('says to pass --name when the directory name is not an operator name', async () => {
    const result = await runInit(['caches', ...kind, '--skip-install']);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('pass --name <name>-operator');
    expect(existsSync(join(parent, 'caches'))).toBe(false);
    const named = await runInit(['caches', '--name', 'cache-operator', ...kind, '--skip-install']);
    expect(named.status, named.stderr).toBe(0);
  });
});

describe('detectPackageManager', () => {
  it('takes the flag, else the user agent, else npm', () => {
    expect(detectPackageManager('pnpm', { npm_config_user_agent: 'npm/11' })).toBe('pnpm');
    expect(detectPackageManager(undefined, { npm_config_user_agent: 'pnpm/11.2.0 npm/?' })).toBe(
      'pnpm',
    );
    expect(detectPackageManager(undefined, { npm_config_user_agent: 'npm/11.6.0 node/v24' })).toBe(
      'npm',
    );
    expect(detectPackageManager(undefined, {})).toBe('npm');
  });

  it('refuses yarn and bun without a flag, and an unknown flag', () => {
    expect(() => detectPackageManager(undefined, { npm_config_user_agent: 'yarn/4.1.0' })).toThrow(
      'yarn runs this, but ops-operator scaffolds npm and pnpm projects only: pass --package-manager npm or --package-manager pnpm',
    );
    expect(() => detectPackageManager('bun', {})).toThrow(
      '--package-manager "bun" is not one ops-operator scaffolds: pass npm or pnpm',
    );
  });

  it('runs the npm that runs it, else npm on PATH', () => {
    expect(npmCommand({ npm_execpath: '/usr/lib/node_modules/npm/bin/npm-cli.js' })).toEqual({
      command: process.execPath,
      args: ['/usr/lib/node_modules/npm/bin/npm-cli.js'],
    });
    expect(npmCommand({})).toEqual({ command: 'npm', args: [] });
  });
});
