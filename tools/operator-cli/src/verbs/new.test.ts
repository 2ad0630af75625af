import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../main.js';
import { pnpmCommand } from './new.js';

let workspace: string;
const versions = {
  '@sinclair/typebox': '0.34.1',
  '@types/node': '24.1.0',
  pino: '10.1.0',
  tsup: '9.0.1',
  typescript: '6.0.1',
  vitest: '5.0.1',
  yaml: '2.8.0',
};

beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'ops-new-'));
  await writeFile(join(workspace, 'pnpm-workspace.yaml'), 'packages:\n  - operators/*\n');
  await writeFile(
    join(workspace, 'package.json'),
    JSON.stringify({ name: 'root', private: true, devDependencies: versions }),
  );
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

async function runNew(argv: string[], cwd = workspace) {
  const output = { stdout: '', stderr: '' };
  const status = await main(['new', ...argv], {
    cwd,
    stdout: (text) => {
      output.stdout += text;
    },
    stderr: (text) => {
      output.stderr += text;
    },
  });
  return { status, ...output };
}

const valid = ['demo-operator', '--group', 'demo.example.com', '--version', 'v1', '--kind', 'Demo'];

describe('ops-operator new', () => {
  it('writes the files with the workspace versions (--skip-install), from a subdirectory too', async () => {
    await mkdir(join(workspace, 'operators'));
    const result = await runNew([...valid, '--skip-install'], join(workspace, 'operators'));
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toBe(
      'demo-operator: Demo (demo.example.com/v1, Namespaced) in demo-operator\nNext: cd demo-operator && pnpm test; commit it with pnpm-lock.yaml and .github/workflows/demo-operator.yml.\n',
    );
    const operator = join(workspace, 'operators', 'demo-operator');
    const manifest = JSON.parse(await readFile(join(operator, 'package.json'), 'utf8'));
    expect({ ...manifest.dependencies, ...manifest.devDependencies }).toMatchObject(versions);
    expect(existsSync(join(operator, 'src/api/v1/demo.ts'))).toBe(true);
    expect(existsSync(join(workspace, '.github/workflows/demo-operator.yml'))).toBe(true);
    // No staging directory is left behind.
    expect((await import('node:fs')).readdirSync(join(workspace, 'operators'))).toEqual([
      'demo-operator',
    ]);
  });

  it('refuses bad arguments with the flag and the rule, and writes nothing', async () => {
    const cases: Array<[string[], string]> = [
      [
        [...valid.slice(0, 4), '1', ...valid.slice(5)],
        'ops-operator new: --version "1" must be a Kubernetes API version',
      ],
      [
        [...valid.slice(0, 2), 'Demo.com', ...valid.slice(3)],
        'ops-operator new: --group "Demo.com" must be',
      ],
      [[...valid.slice(0, 6), 'demo'], 'ops-operator new: --kind "demo" must be PascalCase'],
      [['demo', ...valid.slice(1)], 'ops-operator new: the operator name "demo" must be'],
      [
        [...valid, '--cluster', '--namespaced'],
        'ops-operator new: --namespaced and --cluster exclude',
      ],
      [
        [...valid, 'other-operator'],
        'ops-operator new: one operator name, got 2 (demo-operator other-operator)',
      ],
      [[...valid, '--replicas', '2'], "ops-operator new: Unknown option '--replicas'"],
      [valid.slice(1), 'ops-operator new: the operator name is missing'],
    ];
    for (const [argv, message] of cases) {
      const result = await runNew(argv);
      expect(result.status, argv.join(' ')).toBe(1);
      expect(result.stderr.startsWith(message), result.stderr).toBe(true);
    }
    expect(existsSync(join(workspace, 'operators'))).toBe(false);
  });

  it('refuses when the workflow exists, and loses nothing', async () => {
    const workflow = join(workspace, '.github', 'workflows', 'demo-operator.yml');
    await mkdir(join(workspace, '.github', 'workflows'), { recursive: true });
    await writeFile(workflow, 'mine\n');
    const result = await runNew([...valid, '--skip-install']);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      `ops-operator new: ${workflow} already exists; nothing was written. Remove it, or choose another operator name.\n`,
    );
    expect(await readFile(workflow, 'utf8')).toBe('mine\n');
    expect(existsSync(join(workspace, 'operators', 'demo-operator'))).toBe(false);
  });

  it('says when a dependency has no version in the workspace', async () => {
    const { pino: _, ...withoutPino } = versions;
    await writeFile(
      join(workspace, 'package.json'),
      JSON.stringify({ devDependencies: withoutPino }),
    );
    const result = await runNew([...valid, '--skip-install']);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /^ops-operator new: no workspace package depends on pino at an exact version/,
    );
    expect(existsSync(join(workspace, 'operators'))).toBe(false);
  });

  it('runs the pnpm that runs it, else pnpm on PATH', () => {
    expect(pnpmCommand({ npm_execpath: '/x/pnpm/bin/pnpm.cjs' })).toEqual({
      command: process.execPath,
      args: ['/x/pnpm/bin/pnpm.cjs'],
    });
    expect(pnpmCommand({ npm_execpath: '/usr/bin/pnpm' })).toEqual({
      command: '/usr/bin/pnpm',
      args: [],
    });
    expect(pnpmCommand({ npm_execpath: '/usr/lib/npm-cli.js' })).toEqual({
      command: 'pnpm',
      args: [],
    });
    expect(pnpmCommand({})).toEqual({ command: 'pnpm', args: [] });
  });
});
