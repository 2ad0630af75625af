// `pnpm pack` and `npm pack` of the public packages as in a fresh clone: a copy of the
// repository's files (tracked and new, as `git ls-files` lists them) with its dependencies
// installed and nothing built. pnpm pack builds a package first (its prepack,
// scripts/prepack.mjs) and writes its `workspace:*` dependencies as real versions; npm pack of
// a package with such dependencies is refused, saying to use pnpm; a build that lacks a file
// package.json points at is refused too.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPnpm } from '../../../scripts/run-pnpm.mjs';

const workspaceRoot = fileURLToPath(new URL('../../../', import.meta.url));
const minutes = 60_000;
let clone: string;
let packs: string;

beforeAll(() => {
  const work = mkdtempSync(join(tmpdir(), 'ops-pack-'));
  clone = join(work, 'clone');
  packs = join(work, 'packs');
  const files = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    {
      cwd: workspaceRoot,
      encoding: 'utf8',
    },
  )
    .split('\0')
    .filter((file) => file !== '' && existsSync(join(workspaceRoot, file)));
  execFileSync('mkdir', ['-p', clone, packs]);
  // cp --parents keeps each file's directories; xargs-like batches keep the command lines short.
  for (let index = 0; index < files.length; index += 500) {
    execFileSync('cp', ['--parents', '-t', clone, ...files.slice(index, index + 500)], {
      cwd: workspaceRoot,
    });
  }
  // From the store the workspace's install filled: no network.
  runPnpm(['install', '--offline', '--frozen-lockfile', '--reporter=silent'], clone);
}, 5 * minutes);

afterAll(() => {
  if (clone) rmSync(join(clone, '..'), { recursive: true, force: true });
});

/** Runs `command` in the clone's package `directory`; its status and output. */
function packIn(directory: string, command: string[]): { status: number; output: string } {
  try {
    const output = execFileSync(command[0] ?? '', command.slice(1), {
      cwd: join(clone, directory),
      encoding: 'utf8',
      stdio: 'pipe',
      env: { ...process.env, npm_config_update_notifier: 'false', TURBO_TELEMETRY_DISABLED: '1' },
    });
    return { status: 0, output };
  } catch (error) {
    const failure = error as { status?: number; stdout?: string; stderr?: string };
    return {
      status: failure.status ?? -1,
      output: `${failure.stdout ?? ''}${failure.stderr ?? ''}`,
    };
  }
}

const tarballFiles = (tarball: string) =>
  execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n').filter(Boolean);
const tarballManifest = (tarball: string) =>
  JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }));

describe('pack in a fresh clone', () => {
  it('starts from nothing built', () => {
    expect(existsSync(join(clone, 'packages/api/dist'))).toBe(false);
    expect(existsSync(join(clone, 'packages/core/dist'))).toBe(false);
  });

  it(
    'pnpm pack builds the package and the workspace packages it depends on first, and writes their versions',
    () => {
      const packed = packIn('packages/core', ['pnpm', 'pack', '--pack-destination', packs]);
      expect(packed.status, packed.output).toBe(0);
      const tarball = join(packs, 'ops-core-0.1.0.tgz');
      expect(tarballFiles(tarball)).toEqual(
        expect.arrayContaining([
          'package/dist/index.js',
          'package/dist/index.d.ts',
          'package/dist/client/index.js',
        ]),
      );
      const manifest = tarballManifest(tarball);
      const version = JSON.parse(
        readFileSync(join(clone, 'packages/api/package.json'), 'utf8'),
      ).version;
      expect(manifest.dependencies['@ops/api']).toBe(version);
      expect(JSON.stringify(manifest)).not.toContain('workspace:');
      // @ops/api was built on the way, as core's build needs it.
      expect(existsSync(join(clone, 'packages/api/dist/index.js'))).toBe(true);
    },
    8 * minutes,
  );

  it('npm pack of a package with workspace dependencies is refused, saying to pack with pnpm', () => {
    const packed = packIn('packages/core', ['npm', 'pack', '--pack-destination', packs]);
    expect(packed.status).not.toBe(0);
    expect(packed.output).toContain(
      'prepack @ops/core: npm pack would leave the dependencies @ops/api as "workspace:*", which no registry resolves: pack with pnpm (`pnpm pack`, which writes their versions), or run `pnpm pack-all`',
    );
  });

  it('npm pack of a package without them builds it and packs', () => {
    rmSync(join(packs, 'ops-api-0.1.0.tgz'), { force: true });
    const packed = packIn('packages/api', ['npm', 'pack', '--pack-destination', packs]);
    expect(packed.status, packed.output).toBe(0);
    expect(tarballFiles(join(packs, 'ops-api-0.1.0.tgz'))).toEqual(
      expect.arrayContaining(['package/dist/index.js', 'package/dist/node-version.js']),
    );
  });

  it('refuses a build that lacks a file package.json points at', () => {
    const path = join(clone, 'packages/api/package.json');
    const manifest = JSON.parse(readFileSync(path, 'utf8'));
    manifest.publishConfig.exports['./gone'] = {
      types: './dist/gone.d.ts',
      default: './dist/gone.js',
    };
    writeFileSync(path, JSON.stringify(manifest, null, 2));
    const packed = packIn('packages/api', ['pnpm', 'pack', '--pack-destination', packs]);
    expect(packed.status).not.toBe(0);
    expect(packed.output).toContain(
      'prepack @ops/api: built, but package.json points at files that do not exist: exports../gone.types -> ./dist/gone.d.ts, exports../gone.default -> ./dist/gone.js',
    );
  });
});
