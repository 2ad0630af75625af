#!/usr/bin/env node
// `pnpm pack-all [--pack-destination <dir>]`: builds every public package (not "private",
// under packages/ and tools/), packs each with `pnpm pack` (which writes their `workspace:*`
// dependencies on each other as the versions being published) into one directory (default
// .cache/packs), and prints on stdout the one `npm install` command that installs them all
// into a project before they are on the registry: each package's dependencies on the others
// (@ops/core's on @ops/api, @ops/envtest's on @ops/apiserver, ...) then resolve to the
// tarballs installed with it instead of failing with E404. Progress goes to stderr.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runPnpm } from './run-pnpm.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
let values;
try {
  ({ values } = parseArgs({ options: { 'pack-destination': { type: 'string' } } }));
} catch (error) {
  console.error(`pack-all: ${error.message}\nUsage: pnpm pack-all [--pack-destination <dir>]`);
  process.exit(1);
}
const destination = resolve(values['pack-destination'] ?? join(root, '.cache', 'packs'));
mkdirSync(destination, { recursive: true });

const manifests = ['packages', 'tools']
  .flatMap((group) =>
    readdirSync(join(root, group))
      .sort()
      .map((entry) => join(root, group, entry)),
  )
  .filter((directory) => existsSync(join(directory, 'package.json')))
  .map((directory) => ({
    directory,
    ...JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')),
  }))
  .filter((manifest) => manifest.private !== true);

// One turbo run builds them all in parallel; each pack's prepack then finds them built.
try {
  execFileSync(
    join(root, 'node_modules', '.bin', 'turbo'),
    [
      'run',
      'build',
      ...manifests.map((manifest) => `--filter=${manifest.name}`),
      '--output-logs=errors-only',
    ],
    {
      cwd: root,
      stdio: ['ignore', 2, 'inherit'],
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' },
    },
  );
} catch {
  console.error('pack-all: the build failed (the output above says why); nothing was packed');
  process.exit(1);
}
const tarballs = manifests.map(({ directory, name, version }) => {
  runPnpm(['pack', '--pack-destination', destination], directory);
  // npm's and pnpm's name for it: @ops/core@0.1.0 -> ops-core-0.1.0.tgz.
  const tarball = join(destination, `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`);
  if (!existsSync(tarball)) {
    console.error(`pack-all: pnpm pack wrote no ${tarball} for ${directory}`);
    process.exit(1);
  }
  return tarball;
});
console.error(
  `pack-all: ${manifests.map((manifest) => manifest.name).join(', ')} packed into ${destination}. Install them into a project with:`,
);
console.log(`npm install ${tarballs.join(' ')}`);
