import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ControlPlaneAssetsError,
  type ControlPlaneAssetsOptions,
  pinnedControlPlanes,
} from '@ops/envtest';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from './main.js';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, output: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } };
}

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('ops-control-plane', () => {
  it('prints every pinned release read from the Go modules, the default first', async () => {
    const { out, output } = capture();
    expect(await main(['versions'], output)).toBe(0);
    const releases = await pinnedControlPlanes();
    expect(releases.length).toBeGreaterThanOrEqual(2);
    expect(out).toEqual(
      releases.map(
        ({ versions }, index) =>
          `kubernetes v${versions.kubernetes}  etcd v${versions.etcd}  kwok v${versions.kwok}${index === 0 ? '  (default)' : ''}`,
      ),
    );
  });

  it('builds the release --kubernetes names, or every one with --all', async () => {
    const asked: ControlPlaneAssetsOptions[] = [];
    const build = async (options: ControlPlaneAssetsOptions = {}) => {
      asked.push(options);
      const kubernetes = options.kubernetes ?? 'default';
      return {
        directory: `/c/kube/${kubernetes}-linux-amd64`,
        versions: { kubernetes, etcd: '3.0.0', kwok: '0.1.0' },
        built: false,
        seconds: 0,
      };
    };
    const one = capture();
    expect(await main(['build', '--kubernetes', '1.35'], one.output, build)).toBe(0);
    expect(asked.map((o) => o.kubernetes)).toEqual(['1.35']);
    expect(one.out).toEqual(['/c/kube/1.35-linux-amd64']);

    asked.length = 0;
    const every = capture();
    expect(await main(['build', '--all', '--cache-dir', '/c'], every.output, build)).toBe(0);
    const releases = await pinnedControlPlanes();
    expect(asked).toEqual(
      releases.map(({ versions }) =>
        expect.objectContaining({ kubernetes: versions.kubernetes, cacheDirectory: '/c' }),
      ),
    );
    expect(every.out).toEqual(
      releases.map(({ versions }) => `/c/kube/${versions.kubernetes}-linux-amd64`),
    );

    const both = capture();
    expect(await main(['build', '--all', '--kubernetes', '1.35'], both.output, build)).toBe(2);
    expect(both.err.join('\n')).toContain('--all and --kubernetes exclude each other');
  });

  it('exits 1 naming the pinned releases when --kubernetes names another', async () => {
    const { out, err, output } = capture();
    expect(await main(['build', '--kubernetes', '1.20'], output)).toBe(1);
    expect(out).toEqual([]);
    expect(err.join('\n')).toMatch(/Kubernetes "1\.20" is not a pinned release: use one of 1\.\d+/);
  });

  it('prints the directory of the binaries on stdout and passes the options on', async () => {
    const { out, output } = capture();
    const status = await main(['build', '--force', '--cache-dir', '/tmp/x'], output, async (o) => {
      expect(o?.force).toBe(true);
      expect(o?.cacheDirectory).toBe('/tmp/x');
      return {
        directory: '/tmp/x/kube/1.0.0-linux-amd64',
        versions: { kubernetes: '1.0.0', etcd: '3.0.0', kwok: '0.1.0' },
        built: false,
        seconds: 0,
      };
    });
    expect(status).toBe(0);
    expect(out).toEqual(['/tmp/x/kube/1.0.0-linux-amd64']);
  });

  it('exits 1 with what to install when Go is missing', async () => {
    const cache = await mkdtemp(join(tmpdir(), 'ops-control-plane-'));
    dirs.push(cache);
    const { err, output } = capture();
    const status = await main(['build', '--cache-dir', cache], output, (options) =>
      import('@ops/envtest').then(({ ensureControlPlaneAssets }) =>
        ensureControlPlaneAssets({ ...options, go: join(cache, 'no-go-here') }),
      ),
    );
    expect(status).toBe(1);
    expect(err.join('\n')).toMatch(/is not a working go command.*install Go 1\.26\.0 or newer/s);
    expect(err.join('\n')).toContain('KUBEBUILDER_ASSETS');
  });

  it('rejects unknown commands and arguments with the usage', async () => {
    const { err, output } = capture();
    expect(await main(['fly'], output)).toBe(2);
    expect(await main(['build', '--fast'], output)).toBe(2);
    expect(await main(['build', '--kubernetes'], output)).toBe(2);
    expect(err.join('\n')).toContain('unknown command "fly"');
    expect(err.join('\n')).toContain('unknown argument "--fast"');
    expect(err.join('\n')).toContain('usage: ops-control-plane');
  });

  it('passes other errors through', async () => {
    const { output } = capture();
    await expect(
      main(['build'], output, () => Promise.reject(new Error('disk full'))),
    ).rejects.toThrow('disk full');
    expect(ControlPlaneAssetsError.isInstance(new Error('x'))).toBe(false);
  });
});
