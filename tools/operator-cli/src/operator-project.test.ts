import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import {
  copyFixture,
  emptyDirectory,
  fixtureRoot,
  removeCopies,
} from '../test/fixture-operator.js';
import { kubectlCommand, parseYamlStream } from './kubectl.js';
import {
  findOperatorRoot,
  loadOperatorProject,
  readOperatorProject,
  requireWebhooks,
  webhookServiceDnsNames,
} from './operator-project.js';

afterAll(removeCopies);

describe('readOperatorProject', () => {
  it('derives every per-operator value from package.json and config/', () => {
    const root = copyFixture();
    expect(readOperatorProject(root)).toEqual({
      root,
      packageName: '@acme/sample-operator',
      name: 'sample-operator',
      version: '1.2.3',
      buildContext: root,
      dockerfile: join(root, 'Dockerfile'),
      dockerBuildArgs: {},
      defaultImage: 'sample-operator:latest',
      namespace: 'sample-system',
      namePrefix: 'sample-',
      webhooks: {
        service: 'sample-webhook-service',
        secret: 'sample-serving-cert',
        validatingConfiguration: 'sample-validating-webhook-configuration',
        conversionCrds: [],
      },
      localCertDir: join(root, '.cache', 'k8s-webhook-server', 'serving-certs'),
    });
  });

  it('derives the names kustomize renders', () => {
    const rendered = parseYamlStream(
      execFileSync(kubectlCommand(), ['kustomize', join(fixtureRoot, 'config/default')], {
        encoding: 'utf8',
      }),
    );
    const project = readOperatorProject(fixtureRoot);
    const of = (kind: string) => rendered.filter((object) => object.kind === kind);
    expect(of('Namespace').map((object) => object.metadata.name)).toEqual([project.namespace]);
    expect(of('Service').map((object) => object.metadata.name)).toEqual([
      project.webhooks?.service,
    ]);
    expect(of('ValidatingWebhookConfiguration')[0]?.metadata.name).toBe(
      project.webhooks?.validatingConfiguration,
    );
    expect(of('ValidatingWebhookConfiguration')[0]?.webhooks[0].clientConfig.service).toEqual({
      name: project.webhooks?.service,
      namespace: project.namespace,
      path: '/validate-example-com-v1-widget',
    });
    expect(of('MutatingWebhookConfiguration')).toEqual([]);
  });

  it('uses the workspace root as the Docker build context inside a pnpm workspace', () => {
    const root = copyFixture({ workspace: true });
    expect(readOperatorProject(root).buildContext).toBe(dirname(dirname(root)));
  });

  it('builds an operator of a workspace without its own Dockerfile from the shared operators/Dockerfile, with its directory as OPERATOR; its own one wins', () => {
    const root = copyFixture({ workspace: true });
    const workspace = dirname(dirname(root));
    writeFileSync(join(workspace, 'operators', 'Dockerfile'), 'FROM scratch\n');
    expect(readOperatorProject(root)).toMatchObject({
      dockerfile: join(root, 'Dockerfile'),
      dockerBuildArgs: {},
    });
    rmSync(join(root, 'Dockerfile'));
    expect(readOperatorProject(root)).toMatchObject({
      buildContext: workspace,
      dockerfile: join(workspace, 'operators', 'Dockerfile'),
      dockerBuildArgs: { OPERATOR: 'sample-operator' },
    });
    // Without the shared one, the operator's own path, which docker reports missing.
    rmSync(join(workspace, 'operators', 'Dockerfile'));
    expect(readOperatorProject(root)).toMatchObject({
      dockerfile: join(root, 'Dockerfile'),
      dockerBuildArgs: {},
    });
  });

  it('does not take a shared Dockerfile for a project outside a workspace', () => {
    const root = copyFixture();
    rmSync(join(root, 'Dockerfile'));
    writeFileSync(join(dirname(root), 'Dockerfile'), 'FROM scratch\n');
    expect(readOperatorProject(root)).toMatchObject({
      buildContext: root,
      dockerfile: join(root, 'Dockerfile'),
      dockerBuildArgs: {},
    });
  });

  it('has no webhooks when config/webhook/manifests.yaml is absent or declares none', () => {
    const root = copyFixture();
    writeFileSync(join(root, 'config/webhook/manifests.yaml'), '# none yet\n');
    const project = readOperatorProject(root);
    expect(project.webhooks).toBeUndefined();
    expect(() => requireWebhooks(project)).toThrow(
      `sample-operator declares no admission webhooks (no webhook configuration in ${join(root, 'config/webhook/manifests.yaml')})`,
    );
  });

  it("without admission webhooks, has the webhook Service when a CRD's conversion calls a webhook, and names the CRD with them or without", () => {
    const root = copyFixture();
    const crd = join(root, 'config/crd/bases/example.com_widgets.yaml');
    const converting = parseYamlStream(readFileSync(crd, 'utf8'))[0] ?? {};
    converting.spec.conversion = {
      strategy: 'Webhook',
      webhook: {
        clientConfig: {
          service: { name: 'webhook-service', namespace: 'system', path: '/convert' },
        },
        conversionReviewVersions: ['v1'],
      },
    };
    writeFileSync(crd, YAML.stringify(converting));
    expect(readOperatorProject(root).webhooks).toEqual({
      service: 'sample-webhook-service',
      secret: 'sample-serving-cert',
      validatingConfiguration: 'sample-validating-webhook-configuration',
      conversionCrds: ['widgets.example.com'],
    });
    writeFileSync(join(root, 'config/webhook/manifests.yaml'), '# none yet\n');
    expect(readOperatorProject(root).webhooks).toEqual({
      service: 'sample-webhook-service',
      secret: 'sample-serving-cert',
      conversionCrds: ['widgets.example.com'],
    });
  });

  it('takes the only Secret volume when none is mounted at the cert dir', () => {
    const root = copyFixture();
    const path = join(root, 'config/manager/manager.yaml');
    const text = readFileSync(path, 'utf8')
      .replace(/ {12}- mountPath: \/etc\/sample\/settings\n {14}name: settings\n/, '')
      .replace(/ {8}- name: settings\n {10}secret:\n {12}secretName: sample-settings\n/, '')
      .replace('/tmp/k8s-webhook-server/serving-certs', '/certs');
    writeFileSync(path, text);
    expect(readOperatorProject(root).webhooks?.secret).toBe('sample-serving-cert');
  });

  it('says what to add when something cannot be derived', () => {
    const noNamespace = copyFixture();
    writeFileSync(
      join(noNamespace, 'config/default/kustomization.yaml'),
      'resources:\n  - ../manager\n',
    );
    expect(() => readOperatorProject(noNamespace)).toThrow(
      'config/default/kustomization.yaml sets no `namespace`: add `namespace: sample-operator-system`',
    );

    const noSecret = copyFixture();
    writeFileSync(
      join(noSecret, 'config/manager/manager.yaml'),
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: controller-manager\n',
    );
    expect(() => readOperatorProject(noSecret)).toThrow(
      'the operator declares webhooks but its Deployment mounts no Secret at the webhook cert dir',
    );

    const noVersion = copyFixture();
    writeFileSync(join(noVersion, 'package.json'), '{ "name": "x-operator" }');
    expect(() => readOperatorProject(noVersion)).toThrow('package.json has no "version": add one.');
  });
});

describe('findOperatorRoot', () => {
  it('finds the operator from any directory inside it', () => {
    const root = copyFixture();
    expect(findOperatorRoot(join(root, 'config', 'crd', 'bases'))).toBe(root);
    expect(loadOperatorProject(join(root, 'config')).name).toBe('sample-operator');
  });

  it('says where to run from when there is no operator', () => {
    const directory = emptyDirectory();
    mkdirSync(join(directory, 'sub'));
    expect(() => findOperatorRoot(join(directory, 'sub'))).toThrow(
      `${join(directory, 'sub')} is not in an operator directory (none of it or its parents has package.json and config/default/kustomization.yaml). Run ops-operator from the operator's directory`,
    );
  });
});

it('names the webhook Service as the API server dials it', () => {
  expect(webhookServiceDnsNames('s', 'ns')).toEqual(['s.ns.svc', 's.ns.svc.cluster.local']);
});
