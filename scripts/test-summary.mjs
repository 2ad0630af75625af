#!/usr/bin/env node
// Adds up the vitest JSON reports every package wrote (test-results/vitest.json) and prints
// one closing line for the whole repository: "Tests: N passed, N failed, N skipped".
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
let passed = 0;
let failed = 0;
let skipped = 0;
let reports = 0;
for (const group of ['packages', 'operators', 'tools']) {
  const dir = join(root, group);
  if (!existsSync(dir)) continue;
  for (const name of readdirSync(dir)) {
    const report = join(dir, name, 'test-results', 'vitest.json');
    if (!existsSync(report)) continue;
    const result = JSON.parse(readFileSync(report, 'utf8'));
    reports++;
    passed += result.numPassedTests ?? 0;
    failed += result.numFailedTests ?? 0;
    skipped += (result.numPendingTests ?? 0) + (result.numTodoTests ?? 0);
  }
}
if (reports === 0) {
  console.error('test-summary: no vitest reports found; did the tests run?');
  process.exit(1);
}
console.log(
  `Tests: ${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`,
);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
