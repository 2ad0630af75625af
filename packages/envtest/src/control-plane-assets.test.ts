import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  controlPlaneBinaries,
  defaultCacheDirectory,
  ensureControlPlaneAssets,
  kubernetesVersionVariable,
  pinnedControlPlane,
  pinnedControlPlanes,
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

describe('pinnedControlPlanes', () => {
  it('reads each release from its Go modules, newest first', async () => {
    const releases = await pinnedControlPlanes();
    expect(releases.length).toBeGreaterThanOrEqual(2);
    for (const { versions, digest, modules } of releases) {
      const goMod = await readFile(
        new URL(`../go/${modules.kubernetes}/go.mod`, import.meta.url),
        'utf8',
      );
      expect(goMod).toMatch(
        new RegExp(`\\sk8s\\.io/kubernetes v${versions.kubernetes.replaceAll('.', '\\.')}\\s`),
      );
      // Every staging module is replaced by the published release of the same minor.
      const minor = versions.kubernetes.split('.').slice(1).join('.');
      expect(goMod).toContain(`k8s.io/client-go => k8s.io/client-go v0.${minor}`);
      const etcdMod = await readFile(
        new URL(`../go/${modules.etcd}/go.mod`, import.meta.url),
        'utf8',
      );
      expect(etcdMod).toContain(`go.etcd.io/etcd/server/v3 v${versions.etcd}`);
      expect(versions.etcd).toMatch(/^3\.\d+\.\d+$/);
      expect(versions.kwok).toMatch(/^0\.\d+\.\d+$/);
      expect(digest).toMatch(/^[0-9a-f]{16}$/);
    }
    const minors = releases.map(({ versions }) => Number(versions.kubernetes.split('.')[1]));
    expect(minors).toEqual([...minors].sort((a, b) => b - a));
    expect(new Set(releases.map(({ digest }) => digest)).size).toBe(releases.length);
    // The newest keeps the module folders it had alone, so its cached build stays current.
    expect(releases[0]?.modules).toEqual({ etcd: 'etcd', kubernetes: 'kubernetes', kwok: 'kwok' });
  });

  it('spans at least three minors: the oldest is two or more older than the newest', async () => {
    const releases = await pinnedControlPlanes();
    const minor = (index: number) => Number(releases.at(index)?.versions.kubernetes.split('.')[1]);
    expect(minor(0) - minor(-1)).toBeGreaterThanOrEqual(2);
  });
});

describe('pinnedControlPlane', () => {
  it('is the newest release by default', async () => {
    const [newest] = await pinnedControlPlanes();
    expect(await pinnedControlPlane(undefined, {})).toEqual(newest);
    expect(await pinnedControlPlane(undefined, { [kubernetesVersionVariable]: '' })).toEqual(
      newest,
    );
  });

  it('picks a release by minor or exact version, by option or variable', async () => {
    const releases = await pinnedControlPlanes();
    const oldest = releases.at(-1);
    if (!oldest) throw new Error('no pinned release');
    const { kubernetes } = oldest.versions;
    const minor = kubernetes.split('.').slice(0, 2).join('.');
    expect(await pinnedControlPlane(minor, {})).toEqual(oldest);
    expect(await pinnedControlPlane(kubernetes, {})).toEqual(oldest);
    expect(await pinnedControlPlane(`v${minor}`, {})).toEqual(oldest);
    expect(await pinnedControlPlane(undefined, { [kubernetesVersionVariable]: minor })).toEqual(
      oldest,
    );
    // The option wins over the variable.
    expect(
      await pinnedControlPlane(releases[0]?.versions.kubernetes, {
        [kubernetesVersionVariable]: minor,
      }),
    ).toEqual(releases[0]);
  });

  it('refuses a release that is not pinned, naming those that are', async () => {
    const releases = await pinnedControlPlanes();
    const pinned = releases
      .map(
        ({ versions }) =>
          `${versions.kubernetes.split('.').slice(0, 2).join('.')} (${versions.kubernetes})`,
      )
      .join(', ');
    const byOption = await pinnedControlPlane('1.20', {}).catch((e: unknown) => e);
    expect(ControlPlaneAssetsError.isInstance(byOption)).toBe(true);
    expect((byOption as Error).message).toBe(
      `Kubernetes "1.20" is not a pinned release: use one of ${pinned}, as a minor (1.35) or the exact version. Another release needs its Go modules under packages/envtest/go (see its README).`,
    );
    await expect(
      pinnedControlPlane(undefined, { [kubernetesVersionVariable]: 'latest' }),
    ).rejects.toThrow(
      `${kubernetesVersionVariable}=latest is not a pinned release: use one of ${pinned}, as a minor (1.35) or the exact version, or unset the variable for the newest.`,
    );
    // A major alone or a patch that is not pinned names no release.
    await expect(pinnedControlPlane('1', {})).rejects.toThrow('is not a pinned release');
    await expect(
      pinnedControlPlane(
        `${releases[0]?.versions.kubernetes.split('.').slice(0, 2).join('.')}.999`,
        {},
      ),
    ).rejects.toThrow('is not a pinned release');
  });
});

function fakeBuild(cache: string, kubernetes: string, digest: string) {
  const platform = `${process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}`;
  const directory = join(cache, 'kube', `${kubernetes}-${platform}`);
  return {
    directory,
    async write() {
      await mkdir(directory, { recursive: true });
      for (const binary of controlPlaneBinaries) await writeFile(join(directory, binary), '');
      await writeFile(join(directory, 'ops-control-plane.json'), JSON.stringify({ digest }));
    },
  };
}

describe('ensureControlPlaneAssets', () => {
  it('reuses binaries built from the same pins without running go', async () => {
    const cache = await tempDir();
    const { versions, digest } = await pinnedControlPlane(undefined, {});
    const { directory, write } = fakeBuild(cache, versions.kubernetes, digest);
    await write();
    const lines: string[] = [];
    const previous = process.env[kubernetesVersionVariable];
    delete process.env[kubernetesVersionVariable];
    try {
      const assets = await ensureControlPlaneAssets({
        cacheDirectory: cache,
        go: join(cache, 'no-go-here'),
        log: (line) => lines.push(line),
      });
      expect(assets).toMatchObject({ directory, versions, built: false });
    } finally {
      if (previous !== undefined) process.env[kubernetesVersionVariable] = previous;
    }
    expect(lines).toEqual([
      `using Kubernetes ${versions.kubernetes}, etcd ${versions.etcd}, kwok ${versions.kwok} from ${directory}`,
    ]);
  });

  it('finds each release in its own directory, the one the option names', async () => {
    const cache = await tempDir();
    const releases = await pinnedControlPlanes();
    const builds = releases.map(({ versions, digest }) =>
      fakeBuild(cache, versions.kubernetes, digest),
    );
    for (const build of builds) await build.write();
    for (const [index, { versions }] of releases.entries()) {
      const minor = versions.kubernetes.split('.').slice(0, 2).join('.');
      const assets = await ensureControlPlaneAssets({
        cacheDirectory: cache,
        kubernetes: minor,
        go: join(cache, 'no-go-here'),
        log: () => {},
      });
      expect(assets).toMatchObject({ directory: builds[index]?.directory, versions, built: false });
    }
    await expect(
      ensureControlPlaneAssets({ cacheDirectory: cache, kubernetes: '1.20', log: () => {} }),
    ).rejects.toThrow('Kubernetes "1.20" is not a pinned release');
  });

  it('rebuilds when the pins changed, and says what to install when Go is missing', async () => {
    const cache = await tempDir();
    const { versions } = await pinnedControlPlane(undefined, {});
    await fakeBuild(cache, versions.kubernetes, 'old').write();
    const error = await ensureControlPlaneAssets({
      cacheDirectory: cache,
      kubernetes: versions.kubernetes,
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
  it("is the user's cache, shared by every clone, unless OPS_CONTROL_PLANE_CACHE says otherwise", () => {
    expect(defaultCacheDirectory({})).toBe(join(homedir(), '.cache', 'ops'));
    expect(defaultCacheDirectory({ XDG_CACHE_HOME: '/var/cache/me' })).toBe('/var/cache/me/ops');
    // XDG Base Directory: a relative path is invalid and ignored.
    expect(defaultCacheDirectory({ XDG_CACHE_HOME: 'cache' })).toBe(
      join(homedir(), '.cache', 'ops'),
    );
    expect(
      defaultCacheDirectory({
        XDG_CACHE_HOME: '/var/cache/me',
        OPS_CONTROL_PLANE_CACHE: '/srv/ops',
      }),
    ).toBe('/srv/ops');
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
