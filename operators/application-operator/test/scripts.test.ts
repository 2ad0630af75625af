// The Makefile-verb scripts under scripts/: image handling, build-installer, docker-build(x)
// command lines and errors, local certificates, and install-crds / deploy / undeploy against a
// local API server.
import { execFile } from 'node:child_process';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eventually } from '@ops/envtest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInstaller } from '../scripts/build-installer.mjs';
import {
  certificatesUsable,
  ensureLocalCertificates,
  localWebhookHosts,
} from '../scripts/certificates.mjs';
import { parseImage, setManagerImage } from '../scripts/common.mjs';
import { installCrds, uninstallCrds } from '../scripts/crds.mjs';
import { deploy, undeploy } from '../scripts/deploy.mjs';
import { dockerBuild, dockerBuildx } from '../scripts/docker.mjs';
import {
  copyOfConfig,
  find,
  type K8sObject,
  type LocalCluster,
  operatorRoot,
  parseYamlStream,
  removeTemporaryDirectories,
  render,
  startLocalCluster,
  temporaryDirectory,
} from './tooling-support.js';

afterAll(removeTemporaryDirectories);

/** Runs `node scripts/<name> ...args` from the operator directory. */
function script(
  name: string,
  args: string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join('scripts', name), ...args],
      { cwd: operatorRoot, env },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('IMG handling (kustomize edit set image)', () => {
  it('splits an image reference into kustomize fields', () => {
    expect(parseImage('application-operator:latest')).toEqual({
      newName: 'application-operator',
      newTag: 'latest',
    });
    expect(parseImage('registry.local:5000/team/app:1.2.3')).toEqual({
      newName: 'registry.local:5000/team/app',
      newTag: '1.2.3',
    });
    expect(parseImage('registry.local:5000/team/app')).toEqual({
      newName: 'registry.local:5000/team/app',
    });
    expect(parseImage(`ghcr.io/a/b@sha256:${'a'.repeat(64)}`)).toEqual({
      newName: 'ghcr.io/a/b',
      digest: `sha256:${'a'.repeat(64)}`,
    });
    expect(() => parseImage('')).toThrow('IMG must be an image reference');
  });

  it('rewrites only the images entry of config/manager, keeping comments, and only when it changes', async () => {
    const root = await copyOfConfig();
    const path = join(root, 'config/manager/kustomization.yaml');
    const before = await readFile(path, 'utf8');
    expect(setManagerImage('application-operator:latest', root)).toBe(false);
    expect(await readFile(path, 'utf8')).toBe(before);
    expect(setManagerImage('ghcr.io/acme/application-operator:0.1.0', root)).toBe(true);
    const after = await readFile(path, 'utf8');
    expect(after).toContain('# `pnpm run deploy` / `pnpm run build-installer` set the image here');
    expect(after).toContain(
      '  - name: controller\n    newName: ghcr.io/acme/application-operator\n    newTag: 0.1.0\n',
    );
  });
});

describe('build-installer', () => {
  it('writes every object of config/default, with the image from IMG, to one file', async () => {
    const root = await copyOfConfig();
    const out = await buildInstaller({ root, image: 'ghcr.io/acme/application-operator:0.1.0' });
    expect(out).toBe(join(root, 'dist', 'install.yaml'));
    const objects = parseYamlStream(await readFile(out, 'utf8'));
    const deployment = find(objects, 'Deployment', 'application-operator-controller-manager');
    expect(deployment.spec.template.spec.containers[0].image).toBe(
      'ghcr.io/acme/application-operator:0.1.0',
    );
    // The same objects as config/default, apart from the image.
    const expected = render('config/default');
    find(
      expected,
      'Deployment',
      'application-operator-controller-manager',
    ).spec.template.spec.containers[0].image = 'ghcr.io/acme/application-operator:0.1.0';
    expect(objects).toEqual(expected);
  });

  it('runs as a command: node scripts/build-installer.mjs writes dist/install.yaml', async () => {
    const { IMG: _ignored, ...env } = process.env;
    const result = await script('build-installer.mjs', [], env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      '(image application-operator:latest); install with: kubectl apply -f',
    );
    const written = parseYamlStream(
      await readFile(join(operatorRoot, 'dist', 'install.yaml'), 'utf8'),
    );
    expect(written).toEqual(render('config/default'));
  });
});

describe('docker-build and docker-buildx', () => {
  let tools: string;
  let log: string;
  beforeAll(async () => {
    tools = await temporaryDirectory('docker');
    log = join(tools, 'calls.log');
    // Stand-ins for a docker CLI: one that works (and records its calls), one without a
    // reachable daemon, one without the buildx plugin.
    const fake = (name: string, body: string) =>
      writeFile(join(tools, name), `#!/bin/sh\necho "$*" >> "${log}"\n${body}\n`).then(() =>
        chmod(join(tools, name), 0o755),
      );
    await fake('docker-ok', 'exit 0');
    await fake(
      'docker-no-daemon',
      'case "$1" in info) echo "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?" >&2; exit 1;; esac; exit 0',
    );
    await fake(
      'docker-no-buildx',
      'case "$1" in buildx) echo "docker: unknown command: docker buildx" >&2; exit 1;; esac; exit 0',
    );
  });
  const env = (tool: string) => ({
    ...process.env,
    CONTAINER_TOOL: join(tools, tool),
    IMG: 'ghcr.io/acme/app:1.0.0',
  });
  const calls = async () => (await readFile(log, 'utf8')).trim().split('\n');

  it('docker-build builds the Dockerfile with the repository root as context', async () => {
    await writeFile(log, '');
    expect(await dockerBuild({ env: env('docker-ok') })).toBe('ghcr.io/acme/app:1.0.0');
    const repositoryRoot = join(operatorRoot, '..', '..');
    expect(await calls()).toEqual([
      '--version',
      'info --format {{.ServerVersion}}',
      `build --tag ghcr.io/acme/app:1.0.0 --file ${join(repositoryRoot, 'operators/application-operator/Dockerfile')} ${repositoryRoot}`,
    ]);
  });

  it('docker-buildx builds linux/amd64 and linux/arm64 and pushes, with its own builder', async () => {
    await writeFile(log, '');
    expect(await dockerBuildx({ env: env('docker-ok') })).toBe('ghcr.io/acme/app:1.0.0');
    const recorded = await calls();
    expect(recorded.slice(0, 4)).toEqual([
      '--version',
      'info --format {{.ServerVersion}}',
      'buildx version',
      'buildx inspect application-operator-builder',
    ]);
    expect(recorded[4]).toMatch(
      /^buildx build --builder application-operator-builder --platform linux\/amd64,linux\/arm64 --tag ghcr\.io\/acme\/app:1\.0\.0 --push --file \S+\/operators\/application-operator\/Dockerfile \S+$/,
    );
  });

  it('says clearly when docker is missing, its daemon is down, or buildx is absent', async () => {
    const missing = await script('docker.mjs', ['build'], env('no-such-docker'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(
      `docker.mjs: ${join(tools, 'no-such-docker')} not found: "${join(tools, 'no-such-docker')}" is not on PATH. Install Docker (https://docs.docker.com/get-docker/)`,
    );
    const noDaemon = await script('docker.mjs', ['build'], env('docker-no-daemon'));
    expect(noDaemon.code).toBe(1);
    expect(noDaemon.stderr).toContain('is installed but cannot reach its daemon; start Docker');
    expect(noDaemon.stderr).toContain('Cannot connect to the Docker daemon');
    const noBuildx = await script('docker.mjs', ['buildx'], env('docker-no-buildx'));
    expect(noBuildx.code).toBe(1);
    expect(noBuildx.stderr).toContain('buildx is not available: install the buildx plugin');
    const usage = await script('docker.mjs', ['push']);
    expect(usage.code).toBe(1);
    expect(usage.stderr).toBe('docker.mjs: usage: node scripts/docker.mjs build|buildx\n');
  });
});

describe('local serving certificates (pnpm run run)', () => {
  it('are generated once for localhost, 127.0.0.1 and the webhook Service, then reused', async () => {
    const dir = join(await temporaryDirectory('certs'), 'serving-certs');
    const first = await ensureLocalCertificates({ dir });
    expect(first.created).toBe(true);
    expect(certificatesUsable(first, localWebhookHosts())).toBe(true);
    expect(localWebhookHosts()).toEqual([
      'localhost',
      '127.0.0.1',
      '::1',
      'application-operator-webhook-service.application-operator-system.svc',
      'application-operator-webhook-service.application-operator-system.svc.cluster.local',
    ]);
    const again = await ensureLocalCertificates({ dir });
    expect(again.created).toBe(false);
    expect(again.cert).toBe(first.cert);
    // A host the certificate does not cover, or an expiry in under 30 days: new ones.
    expect(certificatesUsable(first, ['192.0.2.10'])).toBe(false);
    expect(
      certificatesUsable(first, localWebhookHosts(), Date.now() + 340 * 24 * 3600 * 1000),
    ).toBe(false);
    const widened = await ensureLocalCertificates({
      dir,
      hosts: localWebhookHosts(['192.0.2.10']),
    });
    expect(widened.created).toBe(true);
    expect(certificatesUsable(widened, localWebhookHosts(['192.0.2.10']))).toBe(true);
    // A certificate from another CA is not usable.
    expect(certificatesUsable({ ...widened, caCert: first.caCert }, localWebhookHosts())).toBe(
      false,
    );
  });
});

describe('against a local API server (current kubeconfig)', () => {
  let cluster: LocalCluster;
  const previousKubeconfig = process.env.KUBECONFIG;
  beforeAll(async () => {
    cluster = await startLocalCluster({ crd: false });
    process.env.KUBECONFIG = cluster.kubeconfigPath;
  });
  afterAll(async () => {
    if (previousKubeconfig === undefined) delete process.env.KUBECONFIG;
    else process.env.KUBECONFIG = previousKubeconfig;
    await cluster?.stop();
  });
  const crdPath =
    '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/applications.core.crd.lixueduan.com';
  const get = async (path: string) => {
    const response = await cluster.request('GET', path);
    return response.status === 200 ? (response.body as K8sObject) : undefined;
  };

  it('install-crds applies the CRD, uninstall-crds removes it', async () => {
    await installCrds();
    expect((await get(crdPath))?.spec.names.kind).toBe('Application');
    await uninstallCrds();
    await eventually(async () => (await get(crdPath)) === undefined, {
      description: 'CRD deleted',
    });
    // Absent already: still fine.
    await uninstallCrds();
  });

  it('deploy refuses to go on without cert-manager, and says what to do', async () => {
    const root = await copyOfConfig();
    await expect(deploy({ root })).rejects.toThrow(
      'cert-manager is not installed in this cluster (no CRD certificates.cert-manager.io)',
    );
  });

  it('deploy --without-cert-manager installs everything with a generated Secret and caBundle; undeploy removes it', async () => {
    const root = await copyOfConfig();
    await deploy({
      root,
      withoutCertManager: true,
      image: 'ghcr.io/acme/application-operator:0.1.0',
    });
    const namespace = 'application-operator-system';
    const deployment = await get(
      `/apis/apps/v1/namespaces/${namespace}/deployments/application-operator-controller-manager`,
    );
    expect(deployment?.spec.template.spec.containers[0].image).toBe(
      'ghcr.io/acme/application-operator:0.1.0',
    );
    expect(await get(crdPath)).toBeDefined();
    const secret = await get(`/api/v1/namespaces/${namespace}/secrets/webhook-server-cert`);
    expect(secret?.type).toBe('kubernetes.io/tls');
    expect(
      secret?.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'],
    ).toBeUndefined();
    const decode = (key: string) => Buffer.from(secret?.data[key], 'base64').toString('utf8');
    const set = { caCert: decode('ca.crt'), cert: decode('tls.crt'), key: decode('tls.key') };
    expect(
      certificatesUsable(set, [
        'application-operator-webhook-service.application-operator-system.svc',
        'application-operator-webhook-service.application-operator-system.svc.cluster.local',
      ]),
    ).toBe(true);
    for (const kind of ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations']) {
      const name = kind.startsWith('mutating')
        ? 'application-operator-mutating-webhook-configuration'
        : 'application-operator-validating-webhook-configuration';
      const configuration = await get(`/apis/admissionregistration.k8s.io/v1/${kind}/${name}`);
      expect(
        Buffer.from(configuration?.webhooks[0].clientConfig.caBundle, 'base64').toString('utf8'),
      ).toBe(set.caCert);
    }

    // Deploying again keeps the valid Secret (a running operator is not disturbed) ...
    await deploy({
      root,
      withoutCertManager: true,
      image: 'ghcr.io/acme/application-operator:0.1.0',
    });
    const again = await get(`/api/v1/namespaces/${namespace}/secrets/webhook-server-cert`);
    expect(again?.metadata.resourceVersion).toBe(secret?.metadata.resourceVersion);
    // ... and so does the manual step for kubectl apply -k config/default-no-certmanager.
    const manual = await script('webhook-certs.mjs', [], {
      ...process.env,
      KUBECONFIG: cluster.kubeconfigPath,
    });
    expect(manual.stderr).toBe('');
    expect(manual.stdout).toBe(
      'kept Secret webhook-server-cert; caBundle set on application-operator-mutating-webhook-configuration and application-operator-validating-webhook-configuration\n',
    );

    await undeploy({ root, withoutCertManager: true });
    await eventually(
      async () =>
        (await get(
          `/apis/apps/v1/namespaces/${namespace}/deployments/application-operator-controller-manager`,
        )) === undefined && (await get(crdPath)) === undefined,
      { description: 'operator removed' },
    );
    expect(
      await get(
        '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/application-operator-validating-webhook-configuration',
      ),
    ).toBeUndefined();
  }, 60_000);

  it('webhook-local explains its usage when --host-ip is missing', async () => {
    const result = await script('webhook-local.mjs');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'webhook-local.mjs: usage: node scripts/webhook-local.mjs --host-ip <ip',
    );
  });
});

describe('package.json verbs', () => {
  it('has kubebuilder Makefile verbs, and no `install` script (pnpm would run it on every install)', async () => {
    const scripts = JSON.parse(await readFile(join(operatorRoot, 'package.json'), 'utf8')).scripts;
    for (const verb of [
      'manifests',
      'install-crds',
      'uninstall-crds',
      'run',
      'deploy',
      'undeploy',
      'build-installer',
      'docker-build',
      'docker-buildx',
    ]) {
      expect(scripts[verb], verb).toEqual(expect.any(String));
    }
    expect(scripts.install).toBeUndefined();
    expect(scripts.preinstall).toBeUndefined();
    expect(scripts.postinstall).toBeUndefined();
  });
});
