// @ops/core's worked example, run as a user would run it: every public package packed with
// `pnpm pack`, a fresh project outside the workspace, the README's files written and its
// commands run there with npm (`npm install` of the tarballs instead of the registry), type
// checked with `strict` and without `skipLibCheck`, the CRD and RBAC rendered with
// ops-manifests, and the example's vitest test run against the local API server.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPnpm } from '../../../scripts/run-pnpm.mjs';
import { type WorkedExampleStep, workedExampleSteps } from '../src/worked-example.js';

const workspaceRoot = fileURLToPath(new URL('../../..', import.meta.url));
const readme = readFileSync(join(workspaceRoot, 'packages/core/README.md'), 'utf8');
const minutes = 60_000;

let work: string;
let project: string;
/** A public package packed by `pnpm pack-all`: its name and its tarball. */
interface PackedPackage {
  name: string;
  tarball: string;
}

let packed: PackedPackage[];
/** What `pnpm pack-all` printed: the npm install command of every tarball. */
let installCommand: string;

/** Runs a shell command in the project; throws with its output when it fails. */
function run(command: string): string {
  try {
    return execFileSync('sh', ['-c', command], {
      cwd: project,
      encoding: 'utf8',
      stdio: 'pipe',
      env: {
        ...process.env,
        npm_config_audit: 'false',
        npm_config_fund: 'false',
        npm_config_update_notifier: 'false',
        // The workspace's pnpm settings must not leak into the user's npm.
        npm_config_user_agent: undefined,
        npm_execpath: undefined,
        NODE_OPTIONS: undefined,
        FORCE_COLOR: undefined,
        FORCE_TTY: undefined,
        NO_COLOR: '1',
      },
    });
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `\`${command}\` failed in ${project}:\n${failure.stdout ?? ''}${failure.stderr ?? failure.message}`,
    );
  }
}

/** `npm install @ops/x ...` with each packed `@ops/x` replaced by its tarball. */
function withTarballs(command: string): string {
  if (!/^npm (install|i)\b/.test(command)) return command;
  return command
    .split(' ')
    .map((word) => packed.find((entry) => entry.name === word)?.tarball ?? word)
    .join(' ');
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'ops-npm-consumer-'));
  const tarballs = join(work, 'tarballs');
  // As a user packs them from a clone: `pnpm pack-all` builds and packs every public package
  // and prints the npm install command for them (its only line on stdout).
  installCommand = runPnpm(
    ['-s', 'pack-all', '--pack-destination', tarballs],
    workspaceRoot,
  ).trim();
  packed = installCommand
    .replace(/^npm install /, '')
    .split(' ')
    .map((tarball) => {
      const manifest = execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], {
        encoding: 'utf8',
      });
      return { name: (JSON.parse(manifest) as { name: string }).name, tarball };
    });
  project = join(work, 'widget-operator');
  mkdirSync(project);
}, 5 * minutes);

// The project's node_modules holds every installed package: on a loaded 2-core machine
// removing it took longer than vitest's default 30 s hook timeout.
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
}, 5 * minutes);

describe("@ops/core's worked example, from the packed packages", () => {
  let steps: WorkedExampleStep[];

  it('packs every public package, the ones the example installs among them', () => {
    const names = packed.map((entry) => entry.name);
    expect(names).toEqual(
      expect.arrayContaining(['@ops/core', '@ops/apiserver', '@ops/envtest', '@ops/manifests']),
    );
    steps = workedExampleSteps(readme);
    const installed = steps
      .filter((step) => step.kind === 'command')
      .flatMap((step) => step.command.split(' ').filter((word) => word.startsWith('@ops/')));
    expect(installed.sort()).toEqual(['@ops/core', '@ops/envtest', '@ops/manifests']);
    for (const name of installed) expect(names).toContain(name);
  });

  it('is strict and skips no library check', () => {
    const tsconfig = steps.find((step) => step.kind === 'file' && step.path === 'tsconfig.json');
    expect(tsconfig?.kind).toBe('file');
    const options = JSON.parse(tsconfig?.kind === 'file' ? tsconfig.content : '{}').compilerOptions;
    expect(options.strict).toBe(true);
    expect(options.skipLibCheck).toBeUndefined();
  });

  it(
    'runs as pasted: install, typecheck, ops-manifests, and its test on the local API server',
    () => {
      const direct = new Set(
        steps.flatMap((step) => (step.kind === 'command' ? step.command.split(' ') : [])),
      );
      const outputs = new Map<string, string>();
      for (const step of steps) {
        if (step.kind === 'command') {
          outputs.set(step.command, stripVTControlCharacters(run(withTarballs(step.command))));
          continue;
        }
        const path = join(project, step.path);
        expect(relative(project, path).startsWith('..')).toBe(false);
        mkdirSync(dirname(path), { recursive: true });
        let content = step.content;
        if (step.path === 'package.json') {
          // The packages the example does not name (dependencies of those it does) come from
          // their tarballs too, where a user's npm would fetch them from the registry.
          const manifest = JSON.parse(content);
          manifest.overrides = Object.fromEntries(
            packed
              .filter((entry) => !direct.has(entry.name))
              .map((entry) => [entry.name, `file:${entry.tarball}`]),
          );
          content = `${JSON.stringify(manifest, null, 2)}\n`;
        }
        writeFileSync(path, content);
      }
      expect(outputs.get('npm test')).toMatch(/Tests\s+1 passed/);
      // What ran was the packed code, not the workspace's.
      const core = join(project, 'node_modules/@ops/core/package.json');
      expect(JSON.parse(readFileSync(core, 'utf8')).exports['.']).toEqual({
        types: './dist/index.d.ts',
        default: './dist/index.js',
      });
      const crd = readFileSync(join(project, 'config/crd/bases/example.com_widgets.yaml'), 'utf8');
      expect(crd).toContain('name: Ready');
      expect(crd).toContain('x-kubernetes-list-type: map');
      const role = readFileSync(join(project, 'config/rbac/role.yaml'), 'utf8');
      expect(role).toContain('widgets/status');
      // Derived from the controller's owns(): what blockOwnerDeletion needs on a hardened cluster.
      expect(role).toContain('widgets/finalizers');
      expect(run('node dist/src/main.js --help')).toContain('widget-operator');
      expect(existsSync(join(project, 'node_modules/@ops/apiserver/dist/index.js'))).toBe(true);
    },
    15 * minutes,
  );
});
