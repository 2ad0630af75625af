import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KubeConfigError } from '../errors/kube-config-error.js';
import { loadKubeConfig } from './load-kube-config.js';

const kubeconfig = (name: string, server: string, extra = '') => `apiVersion: v1
kind: Config
clusters:
  - name: ${name}
    cluster:
      server: ${server}
      certificate-authority: ca/${name}.crt
users:
  - name: ${name}-user
    user:
      token: token-${name}
contexts:
  - name: ${name}
    context:
      cluster: ${name}
      user: ${name}-user
      namespace: ns-${name}
current-context: ${name}
${extra}`;

function errorOf(fn: () => unknown): KubeConfigError {
  try {
    fn();
  } catch (error) {
    if (KubeConfigError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a KubeConfigError');
}

describe('loadKubeConfig', () => {
  let dir: string;
  let home: string;
  let saDir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ops-kubeconfig-'));
    home = join(dir, 'home');
    saDir = join(dir, 'serviceaccount');
    await mkdir(join(home, '.kube'), { recursive: true });
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const base = () => ({ env: {}, homeDir: home, serviceAccountDir: saDir });

  it('loads an explicit file, resolving relative paths against its directory', async () => {
    const path = join(dir, 'explicit.yaml');
    await writeFile(path, kubeconfig('explicit', 'https://explicit:6443'));
    await writeFile(join(home, '.kube', 'config'), kubeconfig('home', 'https://home:6443'));
    const config = loadKubeConfig({ ...base(), kubeconfig: path, env: { KUBECONFIG: path } });
    expect(config.getCurrentCluster()?.server).toBe('https://explicit:6443');
    expect(config.getCurrentCluster()?.caFile).toBe(join(dir, 'ca', 'explicit.crt'));
    expect(config.getCurrentUser()?.token).toBe('token-explicit');
    expect(config.getContextObject(config.getCurrentContext())?.namespace).toBe('ns-explicit');
  });

  it('fails clearly when the explicit file is missing, without falling back', async () => {
    await writeFile(join(home, '.kube', 'config'), kubeconfig('home', 'https://home:6443'));
    const missing = join(dir, 'missing.yaml');
    const error = errorOf(() => loadKubeConfig({ ...base(), kubeconfig: missing }));
    expect(error.reason).toBe('FileNotFound');
    expect(error.tried).toEqual([missing]);
    expect(error.message).toContain(
      `kubeconfig ${missing} (given with --kubeconfig) does not exist`,
    );
    expect(error.message).toContain('pass the path of an existing kubeconfig');
  });

  it('merges the KUBECONFIG list, first definition and current-context winning', async () => {
    const first = join(dir, 'first.yaml');
    const second = join(dir, 'second.yaml');
    await writeFile(first, kubeconfig('one', 'https://one:6443'));
    await writeFile(
      second,
      `${kubeconfig('two', 'https://two:6443')}`.replace(
        'clusters:\n',
        'clusters:\n  - name: one\n    cluster:\n      server: https://shadowed:6443\n',
      ),
    );
    await writeFile(join(home, '.kube', 'config'), kubeconfig('home', 'https://home:6443'));
    const list = [first, join(dir, 'absent.yaml'), second].join(delimiter);
    const config = loadKubeConfig({ ...base(), env: { KUBECONFIG: list } });
    expect(config.getCurrentContext()).toBe('one');
    expect(config.getCurrentCluster()?.server).toBe('https://one:6443');
    expect(config.getContexts().map((c) => c.name)).toEqual(['one', 'two']);
    expect(config.getCluster('two')?.caFile).toBe(join(dir, 'ca', 'two.crt'));

    const switched = loadKubeConfig({ ...base(), env: { KUBECONFIG: list }, context: 'two' });
    expect(switched.getCurrentCluster()?.server).toBe('https://two:6443');
    expect(switched.getCurrentUser()?.token).toBe('token-two');
  });

  it('reads ~/.kube/config when neither a flag nor KUBECONFIG is given', async () => {
    await writeFile(join(home, '.kube', 'config'), kubeconfig('home', 'https://home:6443'));
    expect(loadKubeConfig(base()).getCurrentCluster()?.server).toBe('https://home:6443');
    expect(
      loadKubeConfig({ ...base(), homeDir: undefined, env: { HOME: home } }).getCurrentContext(),
    ).toBe('home');
  });

  it('uses the in-cluster service account last, with its token file, CA and namespace', async () => {
    await mkdir(saDir, { recursive: true });
    await writeFile(join(saDir, 'token'), 'sa-token');
    await writeFile(join(saDir, 'ca.crt'), 'not really a certificate');
    await writeFile(join(saDir, 'namespace'), 'operators\n');
    const env = { KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '443' };
    const config = loadKubeConfig({ ...base(), env });
    expect(config.getCurrentCluster()).toMatchObject({
      server: 'https://10.0.0.1:443',
      caFile: join(saDir, 'ca.crt'),
    });
    expect(config.getCurrentUser()?.authProvider).toEqual({
      name: 'tokenFile',
      config: { tokenFile: join(saDir, 'token') },
    });
    expect(config.getContextObject(config.getCurrentContext())?.namespace).toBe('operators');
    const ipv6 = loadKubeConfig({ ...base(), env: { ...env, KUBERNETES_SERVICE_HOST: 'fd00::1' } });
    expect(ipv6.getCurrentCluster()?.server).toBe('https://[fd00::1]:443');

    // A kubeconfig in the home directory takes precedence.
    await writeFile(join(home, '.kube', 'config'), kubeconfig('home', 'https://home:6443'));
    expect(loadKubeConfig({ ...base(), env }).getCurrentContext()).toBe('home');
  });

  it('names everything it tried when there is no configuration', async () => {
    const error = errorOf(() => loadKubeConfig(base()));
    expect(error.reason).toBe('NoConfiguration');
    expect(error.tried).toEqual([
      join(home, '.kube', 'config'),
      `in-cluster (KUBERNETES_SERVICE_HOST, KUBERNETES_SERVICE_PORT, ${join(saDir, 'token')})`,
    ]);
    expect(error.message).toContain('KUBERNETES_SERVICE_HOST/KUBERNETES_SERVICE_PORT are not set');
    expect(error.message).toContain('Pass --kubeconfig PATH, set KUBECONFIG');

    const absent = join(dir, 'absent.yaml');
    const withEnv = errorOf(() =>
      loadKubeConfig({
        ...base(),
        env: { KUBECONFIG: absent, KUBERNETES_SERVICE_HOST: 'h', KUBERNETES_SERVICE_PORT: '1' },
      }),
    );
    expect(withEnv.tried[0]).toBe(absent);
    expect(withEnv.message).toContain(`${saDir} does not exist`);
  });

  it('rejects unparsable files and unknown or incomplete contexts', async () => {
    const broken = join(dir, 'broken.yaml');
    await writeFile(broken, 'clusters: [ {');
    const invalid = errorOf(() => loadKubeConfig({ ...base(), kubeconfig: broken }));
    expect(invalid.reason).toBe('InvalidConfig');
    expect(invalid.message).toContain(`kubeconfig ${broken} is not a valid kubeconfig`);

    const good = join(dir, 'good.yaml');
    await writeFile(good, kubeconfig('good', 'https://good:6443'));
    const unknown = errorOf(() => loadKubeConfig({ ...base(), kubeconfig: good, context: 'nope' }));
    expect(unknown.reason).toBe('ContextNotFound');
    expect(unknown.message).toContain('context "nope" is not in the kubeconfig');
    expect(unknown.message).toContain('available contexts: good');

    const noCurrent = join(dir, 'no-current.yaml');
    await writeFile(noCurrent, kubeconfig('x', 'https://x:6443').replace('current-context: x', ''));
    expect(errorOf(() => loadKubeConfig({ ...base(), kubeconfig: noCurrent })).message).toContain(
      'sets no current-context',
    );

    const empty = join(dir, 'empty.yaml');
    await writeFile(empty, '');
    expect(errorOf(() => loadKubeConfig({ ...base(), kubeconfig: empty })).reason).toBe(
      'ContextNotFound',
    );
  });
});
