#!/usr/bin/env node
// The `prepack` script of every public package (`pnpm pack`, `npm pack`, `pnpm publish` run it
// in the package's directory): builds the package, and the workspace packages it depends on,
// with turbo before the tarball is made, so a fresh clone never packs a package without its
// dist/ (turbo's cache makes this a no-op when nothing changed). Then checks that every file
// package.json points at (exports, bin, main, types) exists, and refuses to pack otherwise.
// Packing with anything but pnpm is refused when the package has `workspace:` dependencies:
// only pnpm rewrites them into the versions being published (npm pack leaves them as they
// are, and no registry resolves them).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const packageDir = process.cwd();
const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
const turbo = join(root, 'node_modules', '.bin', 'turbo');

function fail(message) {
  console.error(`prepack ${manifest.name}: ${message}`);
  process.exit(1);
}

// The package manager running this: each sets npm_execpath to itself for lifecycle scripts
// (npm's user agent is no guide: npm takes npm_config_user_agent from the environment).
const execPath = process.env.npm_execpath ?? '';
const packer = /pnpm/.test(execPath)
  ? 'pnpm'
  : /yarn/.test(execPath)
    ? 'yarn'
    : /npm/.test(execPath)
      ? 'npm'
      : 'this package manager';
const workspaceDependencies = ['dependencies', 'peerDependencies', 'optionalDependencies']
  .flatMap((field) => Object.entries(manifest[field] ?? {}))
  .filter(([, spec]) => String(spec).startsWith('workspace:'))
  .map(([name]) => name);
if (packer !== 'pnpm' && workspaceDependencies.length > 0) {
  fail(
    `${packer} pack would leave the dependencies ${workspaceDependencies.join(', ')} as "workspace:*", which no registry resolves: pack with pnpm (\`pnpm pack\`, which writes their versions), or run \`pnpm pack-all\` in ${root} to pack every public package and print the npm install command for them`,
  );
}

if (!existsSync(turbo)) {
  fail(
    `turbo is not installed (${turbo}), so the package cannot be built before it is packed: run \`pnpm install\` in ${root} (or \`source scripts/bootstrap.sh\`) and pack again`,
  );
}
try {
  execFileSync(
    turbo,
    ['run', 'build', `--filter=${manifest.name}...`, '--output-logs=errors-only'],
    {
      cwd: root,
      encoding: 'utf8',
      // Quiet when it works: `pnpm pack --json` keeps stdout for its own answer.
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' },
    },
  );
} catch (error) {
  process.stderr.write(`${error.stdout ?? ''}${error.stderr ?? ''}`);
  fail(`building it failed (the output above says why); nothing was packed`);
}

/** Every path package.json points at, with where it says so. */
function targets() {
  const found = [];
  const visit = (value, where) => {
    if (typeof value === 'string') found.push([where, value]);
    else if (value && typeof value === 'object')
      for (const [key, inner] of Object.entries(value)) visit(inner, `${where}.${key}`);
  };
  // The published exports (publishConfig) replace the workspace's, which name src/ files.
  visit(manifest.publishConfig?.exports ?? manifest.exports, 'exports');
  visit(typeof manifest.bin === 'string' ? { [manifest.name]: manifest.bin } : manifest.bin, 'bin');
  visit(manifest.main, 'main');
  visit(manifest.types, 'types');
  return found.filter(([, path]) => !path.includes('*'));
}
const missing = targets().filter(([, path]) => !existsSync(join(packageDir, path)));
if (missing.length > 0) {
  fail(
    `built, but package.json points at files that do not exist: ${missing.map(([where, path]) => `${where} -> ${path}`).join(', ')}`,
  );
}
