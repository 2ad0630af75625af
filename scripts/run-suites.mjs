#!/usr/bin/env node
// `node scripts/run-suites.mjs [--jobs N] [--older-releases "1.35.4 ..."] [--oldest-node V]
// [--oldest-node-bin DIR] [--record]`: every test suite of the test command (scripts/test.sh), as one pool of jobs
// run N at a time (default 3), the longest expected first, each job's output
// line by line behind its label ("[envtest real 1.35.4] ..."). The jobs, one per package and
// variant:
//
// - `local`: each package's `test` (the local API server), on the Node.js running this;
// - `real`: each package's `test:binaries` (real etcd + kube-apiserver of the newest release);
// - `real <release>`: envtest's and every operator's `test:binaries` on each older pinned
//   release (`--older-releases`), without the fault-exploration quick runs, which test the
//   operators' and the harness's handling of faults, which the release does not change;
// - `node <version>`: each published package's `test` once more on the oldest Node.js its
//   "engines" accept (`--oldest-node`, and `--oldest-node-bin`: the directory of its binary),
//   without envtest's planted-bug catalogue.
//
// The conformance walk's kubectl matrix (OPS_KUBECTL_MATRIX) runs in the `local` and `real`
// jobs, and envtest's read-your-writes oracle counts to 10,000 there; the reruns walk with
// $KUBECTL alone and count to 1,000.
//
// One pool instead of phases: a real-plane suite mostly waits on its control plane's processes
// and the local suites mostly compute, so running them side by side keeps both cores busy
// where phases left them idle at each phase's tail. Longest first (a job's time from its last
// JSON report in test-results/, else from scripts/suite-seconds.json, the last fresh-clone
// run's; `--record` writes that file from this run) so no long job starts last. The control
// planes must be built before (`pnpm control-plane build --all`), and every package built:
// no job builds, so none rewrites a dist/ file another is reading.
//
// Exits non-zero when any job failed, after every job ran; prints each job's time and result.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const recordedFile = join(root, 'scripts', 'suite-seconds.json');

/**
 * @typedef {object} Suite
 * @property {string} label what the job is called in the output: package and variant
 * @property {string} key the label without versions, the key of scripts/suite-seconds.json
 * @property {string} name the package's name, for `pnpm --filter`
 * @property {string} directory the package's directory, relative to the repository
 * @property {string} script `test` or `test:binaries`
 * @property {string[]} args arguments after the script's name (passed on to vitest)
 * @property {Record<string, string>} env variables set for the job
 * @property {string} report the JSON report the job writes, relative to the repository
 * @property {boolean} onOldestNode whether it runs on the oldest supported Node.js
 */

/**
 * The workspace's packages (packages/, operators/, tools/): name, directory, scripts and
 * whether they are published (not "private").
 *
 * @param {string} repositoryRoot
 */
export function workspacePackages(repositoryRoot) {
  return ['packages', 'operators', 'tools'].flatMap((group) =>
    readdirSync(join(repositoryRoot, group), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(group, entry.name))
      .filter((directory) => existsSync(join(repositoryRoot, directory, 'package.json')))
      .sort()
      .map((directory) => {
        const manifest = JSON.parse(
          readFileSync(join(repositoryRoot, directory, 'package.json'), 'utf8'),
        );
        return {
          name: String(manifest.name),
          directory,
          scripts: manifest.scripts ?? {},
          published: manifest.private !== true,
        };
      }),
  );
}

/**
 * Every job of the test command, in the packages' order.
 *
 * @param {ReturnType<typeof workspacePackages>} packages
 * @param {{ nodeVersion: string, olderReleases: string[], oldestNode?: string }} versions
 *   the Node.js running the jobs, the older Kubernetes releases, and the oldest supported
 *   Node.js when it is another than `nodeVersion` (no rerun when absent)
 * @returns {Suite[]}
 */
export function planSuites(packages, { nodeVersion, olderReleases, oldestNode }) {
  const short = (name) => name.replace(/^@ops\//, '');
  const report = (directory, node, suffix = '') =>
    `${directory}/test-results/vitest-node${node}${suffix}.json`;
  // What a rerun (an older release, the oldest Node.js) tests is the release or Node.js, on
  // the code paths the first run took: the conformance walk's kubectl matrix
  // (OPS_KUBECTL_MATRIX, 1.27 ... 1.35) runs on the local API server and on the newest
  // release, the reruns walk with $KUBECTL alone; envtest's read-your-writes oracle counts to
  // 10,000 there and to 1,000 in a rerun (OPS_RYW_WRITES: the same comparison of
  // resourceVersions on 1.35 as on the newest, the same client on either Node.js; a tenth of
  // the writes, 120 of kube-apiserver's CPU-seconds fewer on 1.35).
  const rerun = { OPS_KUBECTL_MATRIX: '', OPS_RYW_WRITES: '1000' };
  /** A suite of `pkg` in `variant` (its label's tail), keyed by `key`; `fields` set the rest. */
  const suite = (pkg, variant, key, fields) => ({
    label: `${short(pkg.name)} ${variant}`,
    key: `${pkg.name} ${key}`,
    name: pkg.name,
    directory: pkg.directory,
    args: [],
    env: {},
    onOldestNode: false,
    ...fields,
  });
  /** @type {Suite[]} */
  const suites = [];
  for (const pkg of packages) {
    if (pkg.scripts.test) {
      suites.push(
        suite(pkg, 'local', 'local', {
          script: 'test',
          report: report(pkg.directory, nodeVersion),
        }),
      );
    }
    if (pkg.scripts['test:binaries']) {
      suites.push(
        suite(pkg, 'real', 'real', {
          script: 'test:binaries',
          report: report(pkg.directory, nodeVersion, '-binaries'),
        }),
      );
    }
  }
  const onEveryRelease = packages.filter(
    (pkg) =>
      pkg.scripts['test:binaries'] &&
      (pkg.name === '@ops/envtest' || pkg.directory.startsWith('operators/')),
  );
  for (const release of olderReleases) {
    for (const pkg of onEveryRelease) {
      suites.push(
        suite(pkg, `real ${release}`, 'real older', {
          script: 'test:binaries',
          args: ['--exclude', '**/explore.e2e.test.ts', '--exclude', '**/binaries/explore.test.ts'],
          env: { OPS_ENVTEST_KUBERNETES_VERSION: release, ...rerun },
          report: report(pkg.directory, nodeVersion, `-binaries-kubernetes${release}`),
        }),
      );
    }
  }
  if (oldestNode !== undefined && oldestNode !== nodeVersion) {
    for (const pkg of packages.filter(
      (candidate) => candidate.published && candidate.scripts.test,
    )) {
      suites.push(
        suite(pkg, `node ${oldestNode}`, 'oldest node', {
          script: 'test',
          // Without the planted-bug catalogue (envtest's explorer finding eight bugs, 260 s): it
          // tests the explorer's search, which Node.js does not change; exploration-mode.test.ts
          // still runs the explorer end to end on this Node.js.
          args: ['--exclude', '**/explore/planted.test.ts'],
          env: rerun,
          report: report(pkg.directory, oldestNode),
          onOldestNode: true,
        }),
      );
    }
  }
  return suites;
}

/**
 * Seconds a JSON report of vitest says its files took, first start to last end; undefined
 * when there is no such report or it holds no file.
 *
 * @param {string} file
 */
export function reportSeconds(file) {
  if (!existsSync(file)) return undefined;
  try {
    const { testResults = [] } = JSON.parse(readFileSync(file, 'utf8'));
    if (testResults.length === 0) return undefined;
    const start = Math.min(...testResults.map((result) => result.startTime));
    const end = Math.max(...testResults.map((result) => result.endTime));
    return Number.isFinite(end - start) ? Math.max(0, (end - start) / 1000) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The suites, longest expected first: a suite's time from its last report, else from
 * `recorded` (by key), else 0; ties keep the plan's order.
 *
 * @param {Suite[]} suites
 * @param {(suite: Suite) => number | undefined} lastReport
 * @param {Record<string, number>} recorded
 */
export function longestFirst(suites, lastReport, recorded) {
  return suites
    .map((suite, index) => ({
      suite,
      index,
      seconds: lastReport(suite) ?? recorded[suite.key] ?? 0,
    }))
    .sort((a, b) => b.seconds - a.seconds || a.index - b.index)
    .map(({ suite, seconds }) => ({ ...suite, expectedSeconds: seconds }));
}

/**
 * Runs `suites` `jobs` at a time, in their order; resolves with each suite's result.
 *
 * @param {Suite[]} suites
 * @param {{ jobs: number, oldestNodeBin?: string, write: (line: string) => void }} options
 * @returns {Promise<{ suite: Suite, code: number, seconds: number, cpuSeconds?: number }[]>}
 */
export async function runPool(suites, { jobs, oldestNodeBin, write }) {
  const results = [];
  let next = 0;
  const worker = async () => {
    while (next < suites.length) {
      const suite = suites[next++];
      const started = Date.now();
      write(`run-suites: start ${suite.label}`);
      const { code, cpuSeconds } = await runSuite(suite, { oldestNodeBin, write });
      const seconds = (Date.now() - started) / 1000;
      write(
        `run-suites: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} ${suite.label} after ${Math.round(seconds)} s${cpuSeconds === undefined ? '' : `, ${Math.round(cpuSeconds)} CPU-s`}`,
      );
      results.push({ suite, code, seconds, cpuSeconds });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, jobs) }, worker));
  return results;
}

/**
 * One suite through pnpm, its lines prefixed with its label; resolves with its exit code and
 * the CPU seconds (user + system) of pnpm and every process it waited for (vitest, its
 * workers, the control planes they started and stopped), from bash's `times`.
 */
function runSuite(suite, { oldestNodeBin, write }) {
  if (suite.onOldestNode && !oldestNodeBin) {
    write(`[${suite.label}] run-suites: no --oldest-node-bin given for this suite`);
    return Promise.resolve({ code: 1, cpuSeconds: undefined });
  }
  const env = { ...process.env, ...suite.env };
  if (suite.onOldestNode) env.PATH = `${oldestNodeBin}:${env.PATH ?? ''}`;
  const timesFile = join(tmpdir(), `ops-run-suites-${process.pid}-${randomUUID()}`);
  const script = 'pnpm "$@"; code=$?; times > "$0"; exit $code';
  const args = [timesFile, '--filter', suite.name, 'run', suite.script, ...suite.args];
  return new Promise((resolvePromise) => {
    const child = spawn('bash', ['-c', script, ...args], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) =>
        write(`[${suite.label}] ${line}`),
      );
    }
    child.on('error', (error) => {
      write(`[${suite.label}] run-suites: could not start bash: ${error.message}`);
      resolvePromise({ code: 1, cpuSeconds: undefined });
    });
    child.on('close', (code, signal) => {
      const cpuSeconds = existsSync(timesFile)
        ? childrenCpuSeconds(readFileSync(timesFile, 'utf8'))
        : undefined;
      rmSync(timesFile, { force: true });
      resolvePromise({ code: code ?? (signal ? 1 : 0), cpuSeconds });
    });
  });
}

/**
 * The children's user + system seconds from bash's `times` output (its second line,
 * "1m2.500s 0m3.250s"); undefined when it does not read so.
 *
 * @param {string} text
 */
export function childrenCpuSeconds(text) {
  const line = text.trim().split('\n')[1] ?? '';
  const parts = [...line.matchAll(/(\d+)m([\d.]+)s/g)].map(
    ([, minutes, seconds]) => Number(minutes) * 60 + Number(seconds),
  );
  return parts.length === 2 ? parts[0] + parts[1] : undefined;
}

async function main() {
  const { values } = parseArgs({
    options: {
      jobs: { type: 'string' },
      'older-releases': { type: 'string' },
      'oldest-node': { type: 'string' },
      'oldest-node-bin': { type: 'string' },
      record: { type: 'boolean' },
    },
  });
  const jobs = Number(values.jobs ?? 3);
  if (!Number.isInteger(jobs) || jobs < 1) {
    console.error(`run-suites: --jobs must be a whole number of at least 1, not "${values.jobs}"`);
    process.exit(2);
  }
  const olderReleases = (values['older-releases'] ?? '').split(/\s+/).filter(Boolean);
  const suites = planSuites(workspacePackages(root), {
    nodeVersion: process.versions.node,
    olderReleases,
    ...(values['oldest-node'] ? { oldestNode: values['oldest-node'] } : {}),
  });
  const recorded = existsSync(recordedFile) ? JSON.parse(readFileSync(recordedFile, 'utf8')) : {};
  const ordered = longestFirst(
    suites,
    (suite) => reportSeconds(join(root, suite.report)),
    recorded,
  );
  // Read before removed: a report left from an earlier run only orders this one.
  for (const suite of ordered) rmSync(join(root, suite.report), { force: true });
  const write = (line) => process.stdout.write(`${line}\n`);
  write(`run-suites: ${ordered.length} suites, ${jobs} at a time, longest expected first`);
  const started = Date.now();
  const results = await runPool(ordered, {
    jobs,
    ...(values['oldest-node-bin'] ? { oldestNodeBin: values['oldest-node-bin'] } : {}),
    write,
  });
  write(
    `run-suites: all ${results.length} suites done after ${Math.round((Date.now() - started) / 1000)} s:`,
  );
  const cpuTotal = results.reduce((sum, result) => sum + (result.cpuSeconds ?? 0), 0);
  write(
    `  (time, CPU seconds of the suite's processes; ${Math.round(cpuTotal / 60)} CPU-minutes in all)`,
  );
  for (const { suite, code, seconds, cpuSeconds } of [...results].sort(
    (a, b) => b.seconds - a.seconds,
  )) {
    const cpu = cpuSeconds === undefined ? '?' : String(Math.round(cpuSeconds));
    write(
      `  ${String(Math.round(seconds)).padStart(5)} s ${cpu.padStart(5)} CPU-s  ${code === 0 ? 'passed' : 'FAILED'}  ${suite.label}`,
    );
  }
  if (values.record) {
    const times = Object.fromEntries(
      results
        .map(({ suite, seconds }) => [suite.key, Math.round(seconds)])
        .sort(([a], [b]) => (a < b ? -1 : 1)),
    );
    writeFileSync(recordedFile, `${JSON.stringify(times, null, 2)}\n`);
    write(`run-suites: recorded each suite's time in ${recordedFile}`);
  }
  process.exit(results.every((result) => result.code === 0) ? 0 : 1);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await main();
}
