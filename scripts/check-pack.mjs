#!/usr/bin/env node
// Packs the workspace package in the current directory exactly as `pnpm publish` would, then
// proves that what a user installs works: every `exports` target exists in the tarball, no
// test files ship, each entry point imports under plain Node.js, and a TypeScript consumer
// with `moduleResolution: NodeNext`, `strict` and library checks on (no `skipLibCheck`)
// resolves its types. Run from a package directory. tools/npm-consumer goes further: it
// installs every tarball with npm into a fresh project and runs @ops/core's worked example.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runPnpm } from './run-pnpm.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const packageDir = process.cwd();
const work = mkdtempSync(join(tmpdir(), 'ops-pack-'));
const problems = [];

function pnpm(args, cwd) {
  try {
    return runPnpm(args, cwd);
  } catch (error) {
    if (error.code === 'ENOENT') {
      console.error(
        'check-pack: pnpm is not on PATH; run this through pnpm, for example `pnpm lint`',
      );
      process.exit(2);
    }
    throw error;
  }
}

try {
  pnpm(['pack', '--pack-destination', work], packageDir);
  const tarball = execFileSync('sh', ['-c', `ls ${work}/*.tgz`], { encoding: 'utf8' }).trim();
  const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
  const installed = join(work, 'consumer', 'node_modules');
  mkdirSync(installed, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', work]);
  const manifest = JSON.parse(readFileSync(join(work, 'package', 'package.json'), 'utf8'));
  const target = join(installed, ...manifest.name.split('/'));
  mkdirSync(dirname(target), { recursive: true });
  execFileSync('mv', [join(work, 'package'), target]);
  // Dependencies resolve from the workspace's node_modules, as they would from the user's.
  execFileSync('ln', ['-s', join(packageDir, 'node_modules'), join(work, 'node_modules')]);

  for (const file of listing) {
    // A template (`.tmpl`, e.g. @ops/operator-cli's scaffold) is data, even of a test.
    if (/\.(test|spec)\.[cm]?[jt]s$|\/test\//.test(file) && !file.endsWith('.tmpl'))
      problems.push(`test file shipped: ${file}`);
  }
  // Side-effect free, but for modules that exist for their side effect alone (such as
  // @ops/api/require-supported-node, which refuses an unsupported Node.js): each is listed,
  // in dist/ and in src/ (the workspace's `@ops/source` condition), and is an entry of its own.
  const sideEffectEntries = new Set();
  if (Array.isArray(manifest.sideEffects)) {
    for (const file of manifest.sideEffects) {
      if (/^\.\/dist\/[\w-]+\.js$/.test(file)) sideEffectEntries.add(file);
      else if (!/^\.\/src\/[\w-]+\.ts$/.test(file))
        problems.push(
          `package.json "sideEffects" lists ${file}: list only side-effect entries, as ./dist/<name>.js and ./src/<name>.ts`,
        );
    }
  } else if (manifest.sideEffects !== false) {
    problems.push(
      'package.json must declare "sideEffects": false (or list the entries that exist for their side effect)',
    );
  }
  const exportsMap = manifest.exports;
  if (typeof exportsMap !== 'object' || exportsMap === null)
    problems.push('package.json has no exports map');

  const entries = [];
  const sideEffectOnly = [];
  for (const [subpath, conditions] of Object.entries(exportsMap ?? {})) {
    if (subpath === './package.json') continue;
    if (typeof conditions !== 'object') {
      problems.push(`exports["${subpath}"] must be an object with "types" first`);
      continue;
    }
    const keys = Object.keys(conditions);
    if (keys[0] !== 'types')
      problems.push(`exports["${subpath}"]: "types" must come first, found ${keys.join(', ')}`);
    for (const [condition, path] of Object.entries(conditions)) {
      if (condition.startsWith('@ops/'))
        problems.push(`exports["${subpath}"] publishes the workspace-only condition ${condition}`);
      if (!existsSync(join(target, path)))
        problems.push(`exports["${subpath}"].${condition} -> ${path} is not in the tarball`);
    }
    const name = subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`;
    if (sideEffectEntries.has(conditions.default)) sideEffectOnly.push(name);
    else entries.push(name);
  }

  const consumer = join(work, 'consumer');
  writeFileSync(
    join(consumer, 'package.json'),
    JSON.stringify({ name: 'consumer', type: 'module', private: true }),
  );
  for (const entry of entries) {
    try {
      execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const m = await import(${JSON.stringify(entry)}); if (Object.keys(m).length === 0) throw new Error('no exports');`,
        ],
        { cwd: consumer, encoding: 'utf8', stdio: 'pipe' },
      );
    } catch (error) {
      problems.push(
        `import("${entry}") fails under Node.js: ${String(error.stderr || error.message)
          .split('\n')
          .slice(0, 5)
          .join(' ')}`,
      );
    }
  }
  for (const entry of sideEffectOnly) {
    try {
      execFileSync(
        process.execPath,
        ['--input-type=module', '-e', `await import(${JSON.stringify(entry)});`],
        {
          cwd: consumer,
          encoding: 'utf8',
          stdio: 'pipe',
        },
      );
    } catch (error) {
      problems.push(
        `import("${entry}") fails under Node.js: ${String(error.stderr || error.message)
          .split('\n')
          .slice(0, 5)
          .join(' ')}`,
      );
    }
  }
  writeFileSync(
    join(consumer, 'index.ts'),
    `${sideEffectOnly.map((e) => `import ${JSON.stringify(e)};\n`).join('')}${entries.map((e, i) => `import * as m${i} from ${JSON.stringify(e)};\nexport const k${i}: string[] = Object.keys(m${i});`).join('\n')}\n`,
  );
  writeFileSync(
    join(consumer, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        types: ['node'],
        typeRoots: [join(root, 'node_modules', '@types')],
      },
      files: ['index.ts'],
    }),
  );
  try {
    execFileSync(
      process.execPath,
      [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', consumer],
      { cwd: consumer, encoding: 'utf8', stdio: 'pipe' },
    );
  } catch (error) {
    problems.push(
      `a TypeScript consumer cannot use the package's types:\n${error.stdout || error.message}`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

if (problems.length > 0) {
  console.error(
    `check-pack: ${problems.length} problem(s) in ${packageDir}:\n- ${problems.join('\n- ')}`,
  );
  process.exit(1);
}
console.log(
  `check-pack: ${packageDir} packs cleanly; its exports resolve under Node.js and TypeScript`,
);
