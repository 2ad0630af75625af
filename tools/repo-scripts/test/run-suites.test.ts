// scripts/run-suites.mjs, the test command's pool of suites: which jobs it plans for a
// workspace (each package's local and real-plane suite, the older releases for envtest and the
// operators without the exploration quick runs, the published packages on the oldest Node.js),
// in what order (longest expected first, from the last report or the recorded times), and how
// it reads a report's time and a job's CPU.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  childrenCpuSeconds,
  longestFirst,
  planSuites,
  reportSeconds,
  workspacePackages,
} from '../../../scripts/run-suites.mjs';

const work = mkdtempSync(join(tmpdir(), 'ops-run-suites-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function writePackage(directory: string, manifest: object): void {
  mkdirSync(join(work, directory), { recursive: true });
  writeFileSync(join(work, directory, 'package.json'), JSON.stringify(manifest));
}

writePackage('packages/envtest', {
  name: '@ops/envtest',
  scripts: { test: 'vitest run', 'test:binaries': 'vitest run' },
});
writePackage('packages/api', { name: '@ops/api', scripts: { test: 'vitest run' } });
writePackage('operators/app-operator', {
  name: 'app-operator',
  private: true,
  scripts: { test: 'vitest run', 'test:binaries': 'vitest run' },
});
writePackage('tools/bench', {
  name: '@ops/bench',
  private: true,
  scripts: { test: 'vitest run', 'test:binaries': 'vitest run' },
});
writePackage('tools/no-tests', { name: '@ops/no-tests', scripts: { build: 'tsup' } });
mkdirSync(join(work, 'tools/not-a-package'));

describe('planSuites', () => {
  const packages = workspacePackages(work);

  it('reads every package of packages/, operators/ and tools/, and whether it is published', () => {
    expect(packages.map(({ name, directory, published }) => [name, directory, published])).toEqual([
      ['@ops/api', 'packages/api', true],
      ['@ops/envtest', 'packages/envtest', true],
      ['app-operator', 'operators/app-operator', false],
      ['@ops/bench', 'tools/bench', false],
      ['@ops/no-tests', 'tools/no-tests', true],
    ]);
  });

  it('plans each suite once per variant, each with its own report', () => {
    const suites = planSuites(packages, {
      nodeVersion: '24.21.0',
      olderReleases: ['1.35.4'],
      oldestNode: '22.19.0',
    });
    expect(suites.map((suite) => suite.label)).toEqual([
      'api local',
      'envtest local',
      'envtest real',
      'app-operator local',
      'app-operator real',
      'bench local',
      'bench real',
      'envtest real 1.35.4',
      'app-operator real 1.35.4',
      'api node 22.19.0',
      'envtest node 22.19.0',
    ]);
    const reports = suites.map((suite) => suite.report);
    expect(new Set(reports).size).toBe(reports.length);
    const older = suites.find((suite) => suite.label === 'envtest real 1.35.4');
    expect(older).toMatchObject({
      script: 'test:binaries',
      env: {
        OPS_ENVTEST_KUBERNETES_VERSION: '1.35.4',
        OPS_KUBECTL_MATRIX: '',
        OPS_RYW_WRITES: '1000',
      },
      report: 'packages/envtest/test-results/vitest-node24.21.0-binaries-kubernetes1.35.4.json',
      onOldestNode: false,
    });
    expect(older?.args).toEqual([
      '--exclude',
      '**/explore.e2e.test.ts',
      '--exclude',
      '**/binaries/explore.test.ts',
    ]);
    expect(suites.find((suite) => suite.label === 'envtest node 22.19.0')).toMatchObject({
      script: 'test',
      args: ['--exclude', '**/explore/planted.test.ts'],
      env: { OPS_KUBECTL_MATRIX: '', OPS_RYW_WRITES: '1000' },
      report: 'packages/envtest/test-results/vitest-node22.19.0.json',
      onOldestNode: true,
    });
    // The kubectl matrix walks, and the read-your-writes oracle counts to 10,000, on the local
    // API server and the newest release only; the planted bugs are explored on both.
    for (const label of ['envtest local', 'envtest real']) {
      expect(suites.find((suite) => suite.label === label)?.env).toEqual({});
      expect(suites.find((suite) => suite.label === label)?.args).toEqual([]);
    }
  });

  it('plans no rerun when the oldest Node.js is the one running, or not given', () => {
    for (const oldestNode of ['24.21.0', undefined]) {
      const suites = planSuites(packages, {
        nodeVersion: '24.21.0',
        olderReleases: [],
        ...(oldestNode === undefined ? {} : { oldestNode }),
      });
      expect(suites.filter((suite) => suite.onOldestNode)).toEqual([]);
      expect(suites).toHaveLength(7);
    }
  });
});

describe('longestFirst', () => {
  const suites = planSuites(workspacePackages(work), { nodeVersion: '24.21.0', olderReleases: [] });

  it('orders by the last report, then the recorded time, unknown last in the plan order', () => {
    const ordered = longestFirst(
      suites,
      (suite) => (suite.label === 'bench real' ? 50 : undefined),
      { '@ops/envtest real': 300, 'app-operator local': 40, '@ops/bench real': 999 },
    );
    expect(ordered.map((suite) => [suite.label, suite.expectedSeconds])).toEqual([
      ['envtest real', 300],
      ['bench real', 50],
      ['app-operator local', 40],
      ['api local', 0],
      ['envtest local', 0],
      ['app-operator real', 0],
      ['bench local', 0],
    ]);
  });
});

describe('reportSeconds', () => {
  it("spans a report's first file start to its last file end", () => {
    const file = join(work, 'report.json');
    writeFileSync(
      file,
      JSON.stringify({
        testResults: [
          { startTime: 1_000, endTime: 4_000 },
          { startTime: 2_000, endTime: 11_500 },
        ],
      }),
    );
    expect(reportSeconds(file)).toBe(10.5);
  });

  it('is undefined for a missing, empty or unreadable report', () => {
    const empty = join(work, 'empty.json');
    writeFileSync(empty, JSON.stringify({ testResults: [] }));
    const broken = join(work, 'broken.json');
    writeFileSync(broken, '{ not json');
    expect(reportSeconds(join(work, 'missing.json'))).toBeUndefined();
    expect(reportSeconds(empty)).toBeUndefined();
    expect(reportSeconds(broken)).toBeUndefined();
  });
});

describe('childrenCpuSeconds', () => {
  it("adds the children's user and system time of bash's `times`", () => {
    expect(childrenCpuSeconds('0m0.010s 0m0.005s\n1m2.500s 0m3.250s\n')).toBe(65.75);
  });

  it('is undefined for anything else', () => {
    expect(childrenCpuSeconds('')).toBeUndefined();
    expect(childrenCpuSeconds('0m0.010s 0m0.005s\n')).toBeUndefined();
  });
});
