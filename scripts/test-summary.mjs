#!/usr/bin/env node
// Adds up the vitest JSON reports every package wrote (test-results/vitest-node<version>.json,
// and vitest-node<version>-binaries.json from runs on the real control plane) and prints one
// closing line per Node.js version (and plane) the tests ran on, then the total:
// "Tests: N passed, N failed, N skipped". Exits non-zero when a test failed or none passed.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** @type {Map<string, { passed: number, failed: number, skipped: number }>} */
const byNode = new Map();
for (const group of ['packages', 'operators', 'tools']) {
  const dir = join(root, group);
  if (!existsSync(dir)) continue;
  for (const name of readdirSync(dir)) {
    const results = join(dir, name, 'test-results');
    if (!existsSync(results)) continue;
    for (const file of readdirSync(results)) {
      const match = /^vitest-node(.+)\.json$/.exec(file);
      if (!match) continue;
      const result = JSON.parse(readFileSync(join(results, file), 'utf8'));
      const counts = byNode.get(match[1]) ?? { passed: 0, failed: 0, skipped: 0 };
      counts.passed += result.numPassedTests ?? 0;
      counts.failed += result.numFailedTests ?? 0;
      counts.skipped += (result.numPendingTests ?? 0) + (result.numTodoTests ?? 0);
      byNode.set(match[1], counts);
    }
  }
}
if (byNode.size === 0) {
  console.error('test-summary: no vitest reports found; did the tests run?');
  process.exit(1);
}
const line = ({ passed, failed, skipped }) =>
  `${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`;
const total = { passed: 0, failed: 0, skipped: 0 };
for (const [version, counts] of byNode) {
  const [node, plane] = version.split('-');
  console.log(
    `Tests on Node.js ${node}${plane === 'binaries' ? ' (real etcd + kube-apiserver)' : ''}: ${line(counts)}`,
  );
  total.passed += counts.passed;
  total.failed += counts.failed;
  total.skipped += counts.skipped;
}
console.log(`Tests: ${line(total)}`);
process.exit(total.failed > 0 || total.passed === 0 ? 1 : 0);
