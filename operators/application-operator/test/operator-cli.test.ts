// The lifecycle verbs (`ops-operator`, @ops/operator-cli) on this operator: the names it derives
// from the operator's config, image handling, build-installer, docker-build(x) command lines
// and errors, local certificates, and install-crds / deploy / undeploy / webhook-certs against a
// local API server. The CLI's own unit tests are in tools/operator-cli.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eventually } from '@ops/envtest';
import {
  buildInstaller,
  certificatesUsable,
  deploy,
  dockerBuild,
  dockerBuildx,
  ensureLocalCertificates,
  installCrds,
  localWebhookHosts,
  operatorVerbs,
  readOperatorProject,
  setManagerImage,
  undeploy,
  uninstallCrds,
} from '@ops/operator-cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

/** Runs `ops-operator ...args` (the operator's devDependency bin) from the operator directory. */
function cli(
  args: string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      join(operatorRoot, 'node_modules', '.bin', 'ops-operator'),
      args,
      { cwd: operatorRoot, env },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The operator as the CLI sees it. */
const project = readOperatorProject(operatorRoot);

describe('what the CLI derives from the operator', () => {
  it('takes the names config/default gives the objects from package.json and config/', () => {
    expect(project).toMatchObject({
      name: 'application-operator',
      packageName: 'application-operator',
      defaultImage: 'application-operator:latest',
      namespace: 'application-operator-system',
      namePrefix: 'application-operator-',
      buildContext: join(operatorRoot, '..', '..'),
      dockerfile: join(operatorRoot, '..', 'Dockerfile'),
      dockerBuildArgs: { OPERATOR: 'application-operator' },
      webhooks: {
        service: 'application-operator-webhook-service',
        secret: 'webhook-server-cert',
        mutatingConfiguration: 'application-operator-mutating-webhook-configuration',
        validatingConfiguration: 'application-operator-validating-webhook-configuration',
      },
    });
  });

  it('derives the very names kustomize renders (config/default-no-certmanager)', () => {
    const objects = render('config/default-no-certmanager');
    const names = (kind: string) =>
      objects.filter((object) => object.kind === kind).map((object) => object.metadata.name);
    expect(names('Namespace')).toEqual([project.namespace]);
    expect(names('MutatingWebhookConfiguration')).toEqual([
      project.webhooks?.mutatingConfiguration,
    ]);
    expect(names('ValidatingWebhookConfiguration')).toEqual([
      project.webhooks?.validatingConfiguration,
    ]);
    const service = find(objects, 'Service', project.webhooks?.service ?? '');
    expect(service.metadata.namespace).toBe(project.namespace);
    // Without cert-manager the operator makes its own certificates: no Secret volume there.
    const manager = find(objects, 'Deployment', 'application-operator-controller-manager');
    expect(manager.spec.template.spec.containers[0].args).toContain(
      '--webhook-cert-mode=self-managed',
    );
    expect(
      manager.spec.template.spec.volumes.map((volume: K8sObject) => volume.secret?.secretName),
    ).not.toContain(project.webhooks?.secret);
    // With cert-manager (config/default) the Secret it issues is mounted.
    const managed = find(
      render('config/default'),
      'Deployment',
      'application-operator-controller-manager',
    );
    expect(
      managed.spec.template.spec.volumes.map((volume: K8sObject) => volume.secret?.secretName),
    ).toContain(project.webhooks?.secret);
  });
});

describe('IMG handling (kustomize edit set image; parseImage is unit-tested in tools/operator-cli)', () => {
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
    const out = await buildInstaller(readOperatorProject(root), {
      image: 'ghcr.io/acme/application-operator:0.1.0',
    });
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

  it('runs as a command: ops-operator build-installer writes dist/install.yaml', async () => {
    const { IMG: _ignored, ...env } = process.env;
    const result = await cli(['build-installer'], env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      'wrote dist/install.yaml (image application-operator:latest); install with: kubectl apply -f dist/install.yaml\n',
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

  it('docker-build builds the shared operators/Dockerfile for this operator with the repository root as context', async () => {
    await writeFile(log, '');
    expect(await dockerBuild(project, { env: env('docker-ok') })).toBe('ghcr.io/acme/app:1.0.0');
    const repositoryRoot = join(operatorRoot, '..', '..');
    expect(await calls()).toEqual([
      '--version',
      'info --format {{.ServerVersion}}',
      `build --tag ghcr.io/acme/app:1.0.0 --file ${join(repositoryRoot, 'operators/Dockerfile')} --build-arg OPERATOR=application-operator ${repositoryRoot}`,
    ]);
  });

  it('docker-buildx builds linux/amd64 and linux/arm64 and pushes, with its own builder', async () => {
    await writeFile(log, '');
    expect(await dockerBuildx(project, { env: env('docker-ok') })).toBe('ghcr.io/acme/app:1.0.0');
    const recorded = await calls();
    expect(recorded.slice(0, 4)).toEqual([
      '--version',
      'info --format {{.ServerVersion}}',
      'buildx version',
      'buildx inspect application-operator-builder',
    ]);
    expect(recorded[4]).toMatch(
      /^buildx build --builder application-operator-builder --platform linux\/amd64,linux\/arm64 --tag ghcr\.io\/acme\/app:1\.0\.0 --push --file \S+\/operators\/Dockerfile --build-arg OPERATOR=application-operator \S+$/,
    );
  });

  it('says clearly when docker is missing, its daemon is down, or buildx is absent', async () => {
    const missing = await cli(['docker-build'], env('no-such-docker'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(
      `ops-operator docker-build: ${join(tools, 'no-such-docker')} not found: "${join(tools, 'no-such-docker')}" is not on PATH. Install Docker (https://docs.docker.com/get-docker/)`,
    );
    const noDaemon = await cli(['docker-build'], env('docker-no-daemon'));
    expect(noDaemon.code).toBe(1);
    expect(noDaemon.stderr).toContain('is installed but cannot reach its daemon; start Docker');
    expect(noDaemon.stderr).toContain('Cannot connect to the Docker daemon');
    const noBuildx = await cli(['docker-buildx'], env('docker-no-buildx'));
    expect(noBuildx.code).toBe(1);
    expect(noBuildx.stderr).toContain('buildx is not available: install the buildx plugin');
    const usage = await cli(['docker-login']);
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain(
      'ops-operator: unknown verb "docker-login"\n\nUsage: ops-operator',
    );
    expect(usage.stderr).toContain('  docker-buildx    build IMG for linux/amd64 and linux/arm64');
  });
});

describe('local serving certificates (pnpm run run)', () => {
  it('are generated once for localhost, 127.0.0.1 and the webhook Service, then reused', async () => {
    const dir = join(await temporaryDirectory('certs'), 'serving-certs');
    const first = await ensureLocalCertificates(project, { dir });
    expect(first.created).toBe(true);
    expect(certificatesUsable(first, localWebhookHosts(project))).toBe(true);
    expect(localWebhookHosts(project)).toEqual([
      'localhost',
      '127.0.0.1',
      '::1',
      'application-operator-webhook-service.application-operator-system.svc',
      'application-operator-webhook-service.application-operator-system.svc.cluster.local',
    ]);
    const again = await ensureLocalCertificates(project, { dir });
    expect(again.created).toBe(false);
    expect(again.cert).toBe(first.cert);
    // A host the certificate does not cover, or an expiry in under 30 days: new ones.
    expect(certificatesUsable(first, ['192.0.2.10'])).toBe(false);
    expect(
      certificatesUsable(first, localWebhookHosts(project), Date.now() + 340 * 24 * 3600 * 1000),
    ).toBe(false);
    const widened = await ensureLocalCertificates(project, {
      dir,
      hosts: localWebhookHosts(project, ['192.0.2.10']),
    });
    expect(widened.created).toBe(true);
    expect(certificatesUsable(widened, localWebhookHosts(project, ['192.0.2.10']))).toBe(true);
    // A certificate from another CA is not usable.
    expect(
      certificatesUsable({ ...widened, caCert: first.caCert }, localWebhookHosts(project)),
    ).toBe(false);
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
    await installCrds(project);
    expect((await get(crdPath))?.spec.names.kind).toBe('Application');
    await uninstallCrds(project);
    await eventually(async () => (await get(crdPath)) === undefined, {
      description: 'CRD deleted',
    });
    // Absent already: still fine.
    await uninstallCrds(project);
  });

  it('deploy refuses to go on without cert-manager, and says what to do', async () => {
    const root = await copyOfConfig();
    await expect(deploy(readOperatorProject(root))).rejects.toThrow(
      'cert-manager is not installed in this cluster (no CRD certificates.cert-manager.io)',
    );
  });

  it('deploy --without-cert-manager installs config/default-no-certmanager as it is (the operator makes its own certificates); undeploy removes it', async () => {
    const copy = readOperatorProject(await copyOfConfig());
    const lines: string[] = [];
    await deploy(copy, {
      withoutCertManager: true,
      image: 'ghcr.io/acme/application-operator:0.1.0',
      log: (line) => lines.push(line),
    });
    expect(lines).toEqual([
      'webhook certificate: made by the operator (--webhook-cert-mode=self-managed)',
    ]);
    const namespace = 'application-operator-system';
    const deployment = await get(
      `/apis/apps/v1/namespaces/${namespace}/deployments/application-operator-controller-manager`,
    );
    expect(deployment?.spec.template.spec.containers[0].image).toBe(
      'ghcr.io/acme/application-operator:0.1.0',
    );
    expect(deployment?.spec.template.spec.containers[0].args).toContain(
      '--webhook-cert-mode=self-managed',
    );
    expect(await get(crdPath)).toBeDefined();
    // Nothing the operator would not read: no Secret from the CLI, no caBundle set by it.
    expect(
      await get(`/api/v1/namespaces/${namespace}/secrets/webhook-server-cert`),
    ).toBeUndefined();
    for (const kind of ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations']) {
      const name = kind.startsWith('mutating')
        ? 'application-operator-mutating-webhook-configuration'
        : 'application-operator-validating-webhook-configuration';
      const configuration = await get(`/apis/admissionregistration.k8s.io/v1/${kind}/${name}`);
      expect(configuration?.webhooks[0].clientConfig.caBundle).toBeUndefined();
    }
    // The manual step says there is nothing for it to do, and does nothing.
    const manual = await cli(['webhook-certs'], {
      ...process.env,
      KUBECONFIG: cluster.kubeconfigPath,
    });
    expect(manual.code).toBe(1);
    expect(manual.stderr).toContain(
      'application-operator makes its own webhook certificates (config/default-no-certmanager runs it with --webhook-cert-mode=self-managed)',
    );
    expect(
      await get(`/api/v1/namespaces/${namespace}/secrets/webhook-server-cert`),
    ).toBeUndefined();

    await undeploy(copy, { withoutCertManager: true });
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
    const result = await cli(['webhook-local']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'ops-operator webhook-local: webhook-local: --host-ip is missing\nUsage: ops-operator webhook-local --host-ip <ip',
    );
  });
});

describe('package.json verbs', () => {
  it('has kubebuilder Makefile verbs calling ops-operator, and no `install` script (pnpm would run it on every install)', async () => {
    const manifest = JSON.parse(await readFile(join(operatorRoot, 'package.json'), 'utf8'));
    const scripts = manifest.scripts;
    expect(manifest.devDependencies['@ops/operator-cli']).toBe('workspace:*');
    // Every operator verb of the CLI, each through a script of the same name.
    for (const { name: verb } of operatorVerbs) {
      expect(scripts[verb], verb).toMatch(new RegExp(`(^|&& )ops-operator ${verb}$`));
    }
    // Verbs that use the generated YAML regenerate it first, as kubebuilder's Makefile.
    for (const verb of ['install-crds', 'run', 'deploy', 'build-installer']) {
      expect(scripts[verb], verb).toBe(`ops-operator manifests && ops-operator ${verb}`);
    }
    expect(existsSync(join(operatorRoot, 'scripts'))).toBe(false);
    expect(scripts.install).toBeUndefined();
    expect(scripts.preinstall).toBeUndefined();
    expect(scripts.postinstall).toBeUndefined();
  });
});
