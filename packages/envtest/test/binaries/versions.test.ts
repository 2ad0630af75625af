import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureControlPlaneAssets, pinnedControlPlane } from '../../src/index.js';
import { startCluster, type TestCluster } from '../cluster.js';

// Runs only on the binaries plane (pnpm test:binaries): the binaries the project builds carry
// the versions it pins.
const run = promisify(execFile);
let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startCluster({ controlPlane: 'binaries' });
});
afterAll(async () => {
  await cluster?.stop();
});

describe('the built control plane', () => {
  it('kubectl version shows the pinned Kubernetes release as the server version', async () => {
    const { versions } = await pinnedControlPlane();
    const [major, minor] = versions.kubernetes.split('.');
    const answer = JSON.parse(await cluster.kubectl(['version', '-o', 'json'])) as {
      serverVersion: { gitVersion: string; major: string; minor: string; gitTreeState: string };
    };
    expect(answer.serverVersion).toMatchObject({
      gitVersion: `v${versions.kubernetes}`,
      major,
      minor,
      gitTreeState: 'archive',
    });
    expect(cluster.env.kind).toBe('binaries');
  });

  it('every binary reports the pinned version', async () => {
    const { directory, versions } = await ensureControlPlaneAssets({ log: () => {} });
    const version = async (binary: string, args: string[]) =>
      (await run(join(directory, binary), args)).stdout;
    expect(await version('etcd', ['--version'])).toContain(`etcd Version: ${versions.etcd}`);
    for (const binary of ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler'])
      expect(await version(binary, ['--version'])).toBe(`Kubernetes v${versions.kubernetes}\n`);
    expect(await version('kwok', ['--version'])).toContain(versions.kwok);
    expect(await version('kwokctl', ['--version'])).toContain(versions.kwok);
  });
});
