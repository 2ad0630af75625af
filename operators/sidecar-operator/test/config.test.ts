// The kustomize tree under config/ as `kubectl apply -k` would send it (with cert-manager
// and without), the image's Dockerfile and CI workflow, and the bundle the image ships.
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { KubernetesObject } from '@ops/core';
import { operatorSpec, renderOperatorTemplates } from '@ops/operator-cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { rbac } from '../src/manifests.js';
import { mutatePodPath, podWebhookTimeoutSeconds } from '../src/webhook/pod-injector.js';
import { validateSidecarSetPath } from '../src/webhook/sidecar-set-validator.js';
import { operatorRoot } from './sidecar-harness.js';

const run = promisify(execFile);
type Rendered = KubernetesObject & Record<string, any>;

async function render(overlay: string): Promise<Rendered[]> {
  const { stdout } = await run(process.env.KUBECTL || 'kubectl', [
    'kustomize',
    join(operatorRoot, 'config', overlay),
  ]);
  return YAML.parseAllDocuments(stdout).map((doc) => doc.toJS() as Rendered);
}
const find = (objects: Rendered[], kind: string, name?: string) =>
  objects.filter((o) => o.kind === kind && (name === undefined || o.metadata?.name === name));

let withCertManager: Rendered[];
let withoutCertManager: Rendered[];
let failOpen: Rendered[];
beforeAll(async () => {
  withCertManager = await render('default');
  withoutCertManager = await render('default-no-certmanager');
  failOpen = await render('webhook-fail-open');
});

describe('config/ from the kit', () => {
  it('is what `ops-operator new --cluster --webhooks` writes, but the sample', async () => {
    // Scaffolded, not copied: every kustomize file the kit writes for this operator is the
    // same here, so a fix to the kit's config reaches this operator by scaffolding again.
    const spec = operatorSpec({
      name: 'sidecar-operator',
      group: 'apps.chinalhr.github.io',
      version: 'v1alpha1',
      kind: 'SidecarSet',
      cluster: true,
      webhooks: true,
    });
    const config = renderOperatorTemplates(spec, () => 'unused').filter(
      (file) => file.path.startsWith('config/') && !file.path.startsWith('config/samples/'),
    );
    expect(config.length).toBeGreaterThan(20);
    for (const file of config) {
      expect(await readFile(join(operatorRoot, file.path), 'utf8'), file.path).toBe(file.content);
    }
  });
});

describe('config/default (cert-manager)', () => {
  it('deploys the manager in sidecar-operator-system, serving webhooks on 9443 from the issued Secret', () => {
    expect(find(withCertManager, 'Namespace').map((o) => o.metadata?.name)).toEqual([
      'sidecar-operator-system',
    ]);
    const [deployment] = find(withCertManager, 'Deployment');
    const container = deployment?.spec.template.spec.containers[0];
    expect(container.image).toBe('sidecar-operator:latest');
    expect(container.args).not.toContain('--disable-webhooks');
    expect(container.ports).toContainEqual({
      containerPort: 9443,
      name: 'webhook-server',
      protocol: 'TCP',
    });
    expect(deployment?.spec.template.spec.volumes).toContainEqual({
      name: 'webhook-certs',
      secret: { secretName: 'webhook-server-cert' },
    });
    // cert-manager writes the Secret the manager mounts.
    const [certificate] = find(withCertManager, 'Certificate');
    expect(certificate?.spec.secretName).toBe('webhook-server-cert');
    expect(certificate?.spec.dnsNames).toEqual([
      'sidecar-operator-webhook-service.sidecar-operator-system.svc',
      'sidecar-operator-webhook-service.sidecar-operator-system.svc.cluster.local',
    ]);
  });

  it('renders mpod.kb.io failing closed but unable to lock up the cluster, and vsidecarset.kb.io, through the Service', () => {
    const [mutating] = find(withCertManager, 'MutatingWebhookConfiguration');
    expect(mutating?.metadata?.name).toBe('sidecar-operator-mutating-webhook-configuration');
    expect(mutating?.metadata?.annotations).toEqual({
      'cert-manager.io/inject-ca-from': 'sidecar-operator-system/sidecar-operator-serving-cert',
    });
    expect(mutating?.webhooks).toEqual([
      expect.objectContaining({
        name: 'mpod.kb.io',
        clientConfig: {
          service: {
            name: 'sidecar-operator-webhook-service',
            namespace: 'sidecar-operator-system',
            path: mutatePodPath,
          },
        },
        failurePolicy: 'Fail',
        timeoutSeconds: podWebhookTimeoutSeconds,
        namespaceSelector: {
          matchExpressions: [
            {
              key: 'kubernetes.io/metadata.name',
              operator: 'NotIn',
              values: ['kube-system', 'sidecar-operator-system'],
            },
          ],
        },
        rules: [
          { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] },
        ],
      }),
    ]);
    const [validating] = find(withCertManager, 'ValidatingWebhookConfiguration');
    expect(validating?.webhooks[0]).toMatchObject({
      name: 'vsidecarset.kb.io',
      failurePolicy: 'Fail',
      clientConfig: { service: { path: validateSidecarSetPath } },
    });
  });

  it('grants the manager exactly the generated rules, cluster-wide', () => {
    const [role] = find(withCertManager, 'ClusterRole', 'sidecar-operator-manager-role');
    expect(role?.rules).toEqual(
      expect.arrayContaining(rbac.rules.map((rule) => expect.objectContaining(rule))),
    );
    expect(role?.rules).toHaveLength(rbac.rules.length);
    const [binding] = find(
      withCertManager,
      'ClusterRoleBinding',
      'sidecar-operator-manager-rolebinding',
    );
    expect(binding?.subjects).toEqual([
      {
        kind: 'ServiceAccount',
        name: 'sidecar-operator-controller-manager',
        namespace: 'sidecar-operator-system',
      },
    ]);
  });
});

describe('config/webhook-fail-open', () => {
  it('is config/default with mpod.kb.io failing open (Ignore), and nothing else changed', () => {
    const [mutating] = find(failOpen, 'MutatingWebhookConfiguration');
    expect(mutating?.webhooks).toEqual([
      expect.objectContaining({ name: 'mpod.kb.io', failurePolicy: 'Ignore' }),
    ]);
    expect(find(failOpen, 'ValidatingWebhookConfiguration')[0]?.webhooks[0]).toMatchObject({
      name: 'vsidecarset.kb.io',
      failurePolicy: 'Fail',
    });
    const [closed] = find(withCertManager, 'MutatingWebhookConfiguration');
    const reopened = structuredClone(closed);
    if (reopened?.webhooks[0]) reopened.webhooks[0].failurePolicy = 'Ignore';
    expect(failOpen).toEqual(
      withCertManager.map((object) => (object === closed ? reopened : object)),
    );
  });
});

describe('config/default-no-certmanager', () => {
  it('has no cert-manager objects, runs the self-managed certificate mode and grants its RBAC', () => {
    expect(find(withoutCertManager, 'Certificate')).toEqual([]);
    expect(find(withoutCertManager, 'Issuer')).toEqual([]);
    for (const kind of ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'])
      expect(find(withoutCertManager, kind)[0]?.metadata?.annotations ?? {}).toEqual({});
    const container = find(withoutCertManager, 'Deployment')[0]?.spec.template.spec.containers[0];
    expect(container.args).toContain('--webhook-cert-mode=self-managed');
    expect(
      find(withoutCertManager, 'ClusterRole', 'sidecar-operator-self-managed-certs-role')[0]?.rules,
    ).toContainEqual(
      expect.objectContaining({
        resources: ['mutatingwebhookconfigurations'],
        resourceNames: ['sidecar-operator-mutating-webhook-configuration'],
      }),
    );
  });
});

describe('image, workflow and bundle', () => {
  let scratch: string;
  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'sidecar-operator-bundle-'));
  });
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it('is built from the shared operators/Dockerfile by the shared image pipeline, which the workflow calls with this operator', async () => {
    const dockerfile = await readFile(join(operatorRoot, '..', 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^ARG OPERATOR$/m);
    expect(dockerfile).toContain(`operators/\${OPERATOR}/dist/main.js`);
    const pipeline = YAML.parse(
      await readFile(
        join(operatorRoot, '..', '..', '.github', 'workflows', 'operator-image.yml'),
        'utf8',
      ),
    );
    const build = pipeline.jobs.image.steps.find(
      (step: { uses?: string }) => step.uses === 'docker/build-push-action@v6',
    );
    expect(build.with).toMatchObject({
      context: '.',
      file: 'operators/Dockerfile',
      'build-args': `OPERATOR=\${{ inputs.operator }}`,
    });
    const workflow = YAML.parse(
      await readFile(
        join(operatorRoot, '..', '..', '.github', 'workflows', 'sidecar-operator.yml'),
        'utf8',
      ),
    );
    expect(workflow.jobs.image.uses).toBe('./.github/workflows/operator-image.yml');
    expect(workflow.jobs.image.with.operator).toBe('sidecar-operator');
  });

  it('ships a bundle that runs alone: dist/main.js from an empty directory answers --help', async () => {
    await run(
      join(operatorRoot, 'node_modules', '.bin', 'tsup'),
      ['--out-dir', join(scratch, 'build')],
      {
        cwd: operatorRoot,
      },
    );
    await copyFile(join(scratch, 'build', 'main.js'), join(scratch, 'main.js'));
    const { stdout } = await run(process.execPath, [join(scratch, 'main.js'), '--help'], {
      cwd: scratch,
    });
    expect(stdout).toContain('sidecar-operator');
    expect(stdout).toContain('--webhook-port');
  }, 60_000);
});
