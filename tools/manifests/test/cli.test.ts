/**
 * The `ops-manifests` command as a user runs it: a child process on a built CLI. The CLI and
 * the fixture module are bundled here from source (with `@ops/core/crd` from its
 * TypeScript, through the `@ops/source` condition), so the test needs no earlier build of
 * any package; each bundle gets its own copy of `@ops/core/crd`, as an operator's build and
 * an installed CLI do.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  expectedApplicationYaml,
  expectedRoleYaml,
  fixtureModule,
  fixturePaths,
  packageDirectory,
  workDirectory,
  writeFixture,
} from './work-directory.js';

const work = workDirectory('cli');
afterAll(() => work.remove());

let cli: string;
let manifests: string;

beforeAll(async () => {
  const source = writeFixture(work.path, 'src/manifests.mjs', fixtureModule());
  const outDir = join(work.path, 'dist');
  await build({
    config: false,
    entry: { cli: join(packageDirectory, 'src/cli.ts'), manifests: source },
    outDir,
    format: ['esm'],
    platform: 'node',
    target: 'node22',
    dts: false,
    sourcemap: false,
    splitting: false,
    clean: false,
    silent: true,
    noExternal: [/^@ops\//, /^@sinclair\//],
    // @ops/core's controller runtime (the manager that reads an operator's controllers)
    // brings CommonJS dependencies that call require(); give the ESM bundle one, as the
    // operators' bundles do.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    esbuildOptions(options) {
      options.conditions = ['@ops/source'];
    },
  });
  cli = join(outDir, 'cli.js');
  manifests = join(outDir, 'manifests.js');
});

function runCli(args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { cwd: work.path }, (error, stdout, stderr) => {
      const status = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ status, stdout, stderr });
    });
  });
}

describe('ops-manifests (child process)', () => {
  it('is an executable script', () => {
    expect(readFileSync(cli, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
  });

  it('generates, confirms with --check, and fails --check after an edit', async () => {
    const out = join(work.path, 'operator');
    const generate = await runCli(['--module', manifests, '--out', out]);
    expect(generate).toEqual({
      status: 0,
      stdout: fixturePaths.map((path) => `created   operator/${path}\n`).join(''),
      stderr: '',
    });
    expect(readFileSync(join(out, fixturePaths[0] ?? ''), 'utf8')).toBe(expectedApplicationYaml);
    expect(readFileSync(join(out, 'config/rbac/role.yaml'), 'utf8')).toBe(expectedRoleYaml);
    expect(parse(readFileSync(join(out, fixturePaths[1] ?? ''), 'utf8')).spec.scope).toBe(
      'Cluster',
    );

    expect(await runCli(['--module', manifests, '--out', out, '--check'])).toEqual({
      status: 0,
      stdout: 'ops-manifests: 6 file(s) up to date\n',
      stderr: '',
    });

    const crd = join(out, fixturePaths[0] ?? '');
    writeFileSync(
      crd,
      expectedApplicationYaml.replace('    served: true\n', '    served: false\n'),
    );
    const check = await runCli(['--module', manifests, '--out', out, '--check']);
    expect(check.status).toBe(1);
    expect(check.stdout).toContain(`--- a/${fixturePaths[0]}\n+++ b/${fixturePaths[0]}\n`);
    expect(check.stdout).toContain('-    served: false\n+    served: true\n');
    expect(check.stderr).toContain(`operator/${fixturePaths[0]} differs`);
  });

  it('exits 2 with a message for a bad module', async () => {
    const result = await runCli(['--module', 'nowhere.mjs']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(
      /^ops-manifests: cannot read module .*nowhere\.mjs: no such file/,
    );
  });
});
