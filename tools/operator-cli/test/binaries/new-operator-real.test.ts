// A new operator's own end-to-end suite on the real control plane: `ops-operator new`
// scaffolds it into a copy of the workspace (scaffolded-copy.ts), then its `pnpm test:binaries`
// runs the suite on etcd + kube-apiserver, the controller as its ServiceAccount under the
// generated RBAC, so every operator written with the kit is proven on kube-apiserver from its
// first commit. The binaries come from the user's cache (~/.cache/ops, or OPS_CONTROL_PLANE_CACHE,
// which the copy inherits; the test command builds them first), or KUBEBUILDER_ASSETS.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pnpm, type ScaffoldedCopy, scaffoldInCopy } from '../scaffolded-copy.js';

let copy: ScaffoldedCopy | undefined;

beforeAll(async () => {
  copy = await scaffoldInCopy();
  expect(copy.status, copy.output.join('')).toBe(0);
}, 360_000);

afterAll(async () => {
  if (copy) await rm(copy.workspace, { recursive: true, force: true });
});

describe('ops-operator new, on the real control plane', () => {
  it('passes its own end-to-end test on etcd + kube-apiserver', async () => {
    const operator = copy?.operator ?? '';
    await pnpm(operator, ['run', 'test:binaries']);
    const report = JSON.parse(
      await readFile(
        join(operator, 'test-results', `vitest-node${process.versions.node}-binaries.json`),
        'utf8',
      ),
    );
    // The kind's end-to-end test (3) and its webhooks' (2).
    expect(report).toMatchObject({ numTotalTests: 5, numPassedTests: 5, success: true });
  }, 300_000);
});
