import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ensureControlPlaneAssets, eventually } from '../../src/index.js';

const run = promisify(execFile);
const dist = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

// A process that starts the cluster plane and exits without stop() (a failed hook, a
// crashed test file) takes the cluster with it: kwokctl runs the components in sessions of
// their own, so nothing else would stop them.
const script = `
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
const { startClusterControlPlane } = await import(process.env.ENVTEST_DIST);
const cluster = await startClusterControlPlane(process.env.ASSETS);
const pids = join(cluster.workdir, 'clusters', cluster.name, 'pids');
const running = readdirSync(pids).map((file) => Number(readFileSync(join(pids, file), 'utf8')));
console.log(JSON.stringify({ workdir: cluster.workdir, pids: running }));
process.exit(0);
`;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('the cluster plane when its process exits', () => {
  it('stops every component and removes its work directory', { timeout: 120_000 }, async () => {
    const { directory } = await ensureControlPlaneAssets({ log: () => {} });
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, ENVTEST_DIST: dist, ASSETS: directory },
      timeout: 110_000,
    });
    const started = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as {
      workdir: string;
      pids: number[];
    };
    // etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kwok-controller
    expect(started.pids).toHaveLength(5);
    // Killed on the way out; gone once their new parent has reaped them.
    await eventually(() => expect(started.pids.filter(alive)).toEqual([]), {
      timeoutMs: 10_000,
      description: 'the components gone',
    });
    expect(existsSync(started.workdir)).toBe(false);
  });
});
