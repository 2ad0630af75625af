import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ControlPlaneAssetsError } from '@ops/envtest';
import { afterEach, describe, expect, it } from 'vitest';
import { localServerSource, realServerSource } from './server-source.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A directory with stand-ins for `etcd` and `kube-apiserver` that only print a version. */
async function fakeAssets(binaries: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-assets-'));
  dirs.push(dir);
  for (const [name, version] of Object.entries(binaries)) {
    const path = join(dir, name);
    await writeFile(path, `#!/bin/sh\necho '${version}'\n`);
    await chmod(path, 0o755);
  }
  return dir;
}

describe('server sources', () => {
  it('names the local server with its package version', () => {
    const source = localServerSource();
    expect(source.kind).toBe('local');
    expect(source.name).toMatch(/^local API server \(@ops\/apiserver \d+\.\d+\.\d+/);
  });

  it('names the real server by the versions its binaries print', async () => {
    const assetsDirectory = await fakeAssets({
      etcd: 'etcd Version: 3.7.3',
      'kube-apiserver': 'Kubernetes v1.37.2',
    });
    const source = await realServerSource({ assetsDirectory });
    expect(source).toMatchObject({ kind: 'real', name: 'kube-apiserver v1.37.2 (etcd 3.7.3)' });
    // No kube-controller-manager: nothing would run a simulated cluster's Deployments.
    await expect(source.start({ cluster: true })).rejects.toThrow(/kube-controller-manager/);
  });

  it('takes KUBEBUILDER_ASSETS as envtest does, and names what it lacks', async () => {
    const assets = await fakeAssets({ 'kube-apiserver': 'Kubernetes v1.37.2' });
    const ensureAssets = () => Promise.reject(new Error('must not build'));
    await expect(
      realServerSource({ env: { KUBEBUILDER_ASSETS: assets }, ensureAssets }),
    ).rejects.toThrow(`KUBEBUILDER_ASSETS=${assets} has no etcd`);
  });

  it('passes on the message of binaries that cannot be built (no Go)', async () => {
    const ensureAssets = () =>
      Promise.reject(new ControlPlaneAssetsError('go: not found. Install Go 1.26.0 or newer'));
    await expect(realServerSource({ env: {}, ensureAssets })).rejects.toThrow(
      /Install Go 1\.26\.0/,
    );
  });
});
