#!/usr/bin/env node
// Adds up the vitest JSON reports every package wrote (test-results/vitest-node<version>.json,
// vitest-node<version>-binaries.json from runs on the real control plane, and
// vitest-node<version>-binaries-kubernetes<release>.json from runs on another Kubernetes release
// than the newest) and prints one closing line per Node.js version, plane and Kubernetes
// release the tests ran on, then the total:
// "Tests: N passed, N failed, N skipped". Before those lines it names every failed test (package,
// file, test, the first line of its failure) and every test file that failed outside a test (an
// import or a hook), so the end of a long CI log says what broke. Exits non-zero when a test or
// a file failed, or none passed.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** @type {Map<string, { passed: number, failed: number, skipped: number }>} */
const byNode = new Map();
/** @type {string[]} */
const failures = [];
/** The first non-empty line of a failure message, without colour codes. */
const firstLine = (message) =>
  String(message ?? '')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: strips ANSI colour codes
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .map((text) => text.trim())
    .find((text) => text !== '') ?? '(no message)';
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
      for (const suite of result.testResults ?? []) {
        const where = `${group}/${name} (Node.js ${match[1]}) ${relative(join(root, group, name), suite.name)}`;
        const failedTests = (suite.assertionResults ?? []).filter(
          (test) => test.status === 'failed',
        );
        for (const test of failedTests) {
          failures.push(
            `FAILED ${where} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`,
          );
        }
        if (suite.status === 'failed' && failedTests.length === 0) {
          // The file failed outside any test (an import, a hook): no test counts it.
          counts.failed += 1;
          failures.push(`FAILED ${where}: ${firstLine(suite.message)}`);
        }
      }
      byNode.set(match[1], counts);
    }
  }
}
if (byNode.size === 0) {
  console.error('test-summary: no vitest reports found; did the tests run?');
  process.exit(1);
}
for (const failure of failures) console.log(failure);
const line = ({ passed, failed, skipped }) =>
  `${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`;
const total = { passed: 0, failed: 0, skipped: 0 };
for (const [version, counts] of byNode) {
  const [, node, binaries, kubernetes] =
    /^([^-]+)(-binaries)?(?:-kubernetes(.+))?$/.exec(version) ?? [];
  const plane = binaries
    ? ` (real etcd + kube-apiserver, ${kubernetes ? `Kubernetes ${kubernetes}` : 'the newest Kubernetes'})`
    : kubernetes
      ? ` (Kubernetes ${kubernetes})`
      : '';
  console.log(`Tests on Node.js ${node ?? version}${plane}: ${line(counts)}`);
  total.passed += counts.passed;
  total.failed += counts.failed;
  total.skipped += counts.skipped;
}
console.log(`Tests: ${line(total)}`);
process.exit(total.failed > 0 || total.passed === 0 ? 1 : 0);
