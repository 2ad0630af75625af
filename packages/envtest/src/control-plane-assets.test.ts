import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  controlPlaneBinaries,
  defaultCacheDirectory,
  ensureControlPlaneAssets,
  pinnedControlPlane,
} from './control-plane-assets.js';
import { resolveControlPlane } from './environment.js';
import { ControlPlaneAssetsError } from './errors/control-plane-assets-error.js';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ops-assets-'));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('pinnedControlPlane', () => {
  it('reads the versions the Go modules require', async () => {
    const { versions, digest } = await pinnedControlPlane();
    const goMod = await readFile(new URL('../go/kubernetes/go.mod', import.meta.url), 'utf8');
    expect(goMod).toMatch(
      new RegExp(`\\sk8s\\.io/kubernetes v${versions.kubernetes.replaceAll('.', '\\.')}\\s`),
    );
    // Every staging module is replaced by the published release of the same minor.
    const minor = versions.kubernetes.split('.').slice(1).join('.');
    expect(goMod).toContain(`k8s.io/client-go => k8s.io/client-go v0.${minor}`);
    expect(versions.etcd).toMatch(/^3\.\d+\.\d+$/);
    expect(versions.kwok).toMatch(/^0\.\d+\.\d+$/);
    expect(digest).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe('ensureControlPlaneAssets', () => {
  it('reuses binaries built from the same pins without running go', async () => {
    const cache = await tempDir();
    const { versions, digest } = await pinnedControlPlane();
    const platform = `${process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}`;
    const directory = join(cache, 'kube', `${versions.kubernetes}-${platform}`);
    await mkdir(directory, { recursive: true });
    for (const binary of controlPlaneBinaries) await writeFile(join(directory, binary), '');
    await writeFile(join(directory, 'ops-control-plane.json'), JSON.stringify({ digest }));
    const lines: string[] = [];
    const assets = await ensureControlPlaneAssets({
      cacheDirectory: cache,
      go: join(cache, 'no-go-here'),
      log: (line) => lines.push(line),
    });
    expect(assets).toMatchObject({ directory, versions, built: false });
    expect(lines).toEqual([
      `using Kubernetes ${versions.kubernetes}, etcd ${versions.etcd}, kwok ${versions.kwok} from ${directory}`,
    ]);
  });

  it('rebuilds when the pins changed, and says what to install when Go is missing', async () => {
    const cache = await tempDir();
    const { versions } = await pinnedControlPlane();
    const platform = `${process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}`;
    const directory = join(cache, 'kube', `${versions.kubernetes}-${platform}`);
    await mkdir(directory, { recursive: true });
    for (const binary of controlPlaneBinaries) await writeFile(join(directory, binary), '');
    await writeFile(join(directory, 'ops-control-plane.json'), JSON.stringify({ digest: 'old' }));
    const error = await ensureControlPlaneAssets({
      cacheDirectory: cache,
      go: join(cache, 'no-go-here'),
      log: () => {},
    }).catch((e: unknown) => e);
    expect(ControlPlaneAssetsError.isInstance(error)).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain(`${join(cache, 'no-go-here')} is not a working go command`);
    expect(message).toContain('install Go 1.26.0 or newer');
    expect(message).toContain('setup-envtest');
    expect(message).toContain('set KUBEBUILDER_ASSETS');
  });
});

describe('defaultCacheDirectory', () => {
  it('is .cache at the workspace root', () => {
    const previous = process.env.OPS_CONTROL_PLANE_CACHE;
    delete process.env.OPS_CONTROL_PLANE_CACHE;
    try {
      expect(defaultCacheDirectory(join(import.meta.dirname, '..', 'test'))).toBe(
        join(import.meta.dirname, '..', '..', '..', '.cache'),
      );
    } finally {
      if (previous !== undefined) process.env.OPS_CONTROL_PLANE_CACHE = previous;
    }
  });
});

describe('resolveControlPlane', () => {
  it('takes the option, then OPS_ENVTEST_CONTROL_PLANE, then KUBEBUILDER_ASSETS', () => {
    expect(resolveControlPlane('local', { OPS_ENVTEST_CONTROL_PLANE: 'binaries' })).toBe('local');
    expect(resolveControlPlane('binaries', {})).toBe('binaries');
    expect(resolveControlPlane('auto', { OPS_ENVTEST_CONTROL_PLANE: 'binaries' })).toBe('binaries');
    expect(
      resolveControlPlane('auto', { OPS_ENVTEST_CONTROL_PLANE: 'local', KUBEBUILDER_ASSETS: '/a' }),
    ).toBe('local');
    expect(resolveControlPlane('auto', { KUBEBUILDER_ASSETS: '/a' })).toBe('binaries');
    expect(resolveControlPlane(undefined, {})).toBe('local');
  });

  it('picks the cluster plane by option or variable', () => {
    expect(resolveControlPlane('cluster', { OPS_ENVTEST_CONTROL_PLANE: 'local' })).toBe('cluster');
    expect(resolveControlPlane('auto', { OPS_ENVTEST_CONTROL_PLANE: 'cluster' })).toBe('cluster');
  });

  it("gives a suite that requires Pods 'local' or 'cluster', never 'binaries'", () => {
    expect(resolveControlPlane('auto', {}, 'pods')).toBe('local');
    expect(resolveControlPlane('auto', { OPS_ENVTEST_CONTROL_PLANE: 'binaries' }, 'pods')).toBe(
      'cluster',
    );
    expect(resolveControlPlane('auto', { KUBEBUILDER_ASSETS: '/a' }, 'pods')).toBe('cluster');
    expect(resolveControlPlane('auto', { OPS_ENVTEST_CONTROL_PLANE: 'local' }, 'pods')).toBe(
      'local',
    );
    expect(resolveControlPlane('cluster', {}, 'pods')).toBe('cluster');
    expect(() => resolveControlPlane('binaries', {}, 'pods')).toThrow(
      "this suite requires running Pods (requires: 'pods'), which the binaries plane (etcd + kube-apiserver, no controllers or nodes) does not give: use controlPlane 'cluster'",
    );
  });

  it('rejects an unknown plane in the environment variable', () => {
    expect(() => resolveControlPlane('auto', { OPS_ENVTEST_CONTROL_PLANE: 'kind' })).toThrow(
      'OPS_ENVTEST_CONTROL_PLANE=kind is not a control plane: use "local" (the in-process API server), "binaries" (etcd + kube-apiserver) or "cluster" (a whole cluster with kwok nodes), or unset it',
    );
  });
});
