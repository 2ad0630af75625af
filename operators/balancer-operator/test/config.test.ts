// The kustomize tree under config/ as `kubectl apply -k` would send it, the image's Dockerfile
// and CI workflow, and the bundle the image ships (dist/main.js, alone).
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { KubernetesObject } from '@ops/core';
import { beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { rbac } from '../src/manifests.js';

const run = promisify(execFile);
const operatorRoot = fileURLToPath(new URL('..', import.meta.url));
type Rendered = KubernetesObject & Record<string, any>;

async function render(dir: string): Promise<Rendered[]> {
  const { stdout } = await run(process.env.KUBECTL || 'kubectl', [
    'kustomize',
    join(operatorRoot, 'config', dir),
  ]);
  return YAML.parseAllDocuments(stdout).map((doc) => doc.toJS() as Rendered);
}

let installed: Rendered[];
beforeAll(async () => {
  installed = await render('default');
});

describe('config/', () => {
  it('deploys the manager in balancer-operator-system without webhooks', () => {
    const deployment = installed.find((o) => o.kind === 'Deployment');
    expect(deployment?.metadata?.namespace).toBe('balancer-operator-system');
    const container = deployment?.spec.template.spec.containers[0];
    expect(container.image).toBe('balancer-operator:latest');
    expect(container.args).toContain('--disable-webhooks');
    expect(installed.some((o) => o.kind === 'ValidatingWebhookConfiguration')).toBe(false);
  });

  it('grants the manager exactly the generated rules, cluster-wide', () => {
    const role = installed.find(
      (o) => o.kind === 'ClusterRole' && o.metadata?.name === 'balancer-operator-manager-role',
    );
    // ops-manifests sorts the rules and their verbs, as controller-gen does.
    const normal = (rules: Array<Record<string, string[]>>) =>
      rules
        .map((rule) =>
          JSON.stringify(
            Object.fromEntries(Object.entries(rule).map(([k, v]) => [k, [...v].sort()])),
          ),
        )
        .sort();
    // The declared rules, and the one ops-manifests derives from owns(): the controller owner
    // references the Balancer's children carry (blockOwnerDeletion) need update on its
    // finalizers where OwnerReferencesPermissionEnforcement is on.
    const derived = {
      apiGroups: ['exposer.hliangzhao.io'],
      resources: ['balancers/finalizers'],
      verbs: ['update'],
    };
    expect(normal(role?.rules)).toEqual(
      normal([...(rbac.rules as unknown as Array<Record<string, string[]>>), derived]),
    );
    const binding = installed.find(
      (o) =>
        o.kind === 'ClusterRoleBinding' && o.roleRef?.name === 'balancer-operator-manager-role',
    );
    expect(binding?.subjects).toEqual([
      {
        kind: 'ServiceAccount',
        name: 'balancer-operator-controller-manager',
        namespace: 'balancer-operator-system',
      },
    ]);
  });

  it('has samples: the Balancer of OPERATORS.md and its three echo Pods', async () => {
    const samples = await render('samples');
    expect(samples.map((o) => `${o.kind} ${o.metadata?.name}`).sort()).toEqual([
      'Balancer balancer-sample',
      'Pod echo-v1',
      'Pod echo-v2',
      'Pod echo-v3',
    ]);
  });
});

describe('the image', () => {
  it('is built from the shared operators/Dockerfile by the shared image pipeline, which the workflow calls with this operator', async () => {
    const dockerfile = await readFile(join(operatorRoot, '..', 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^ARG OPERATOR$/m);
    expect(dockerfile).toContain(`operators/\${OPERATOR}/dist/main.js`);
    const workflow = YAML.parse(
      await readFile(join(operatorRoot, '../../.github/workflows/balancer-operator.yml'), 'utf8'),
    );
    expect(workflow.on.push.paths).toContain('operators/Dockerfile');
    expect(workflow.jobs.image.uses).toBe('./.github/workflows/operator-image.yml');
    expect(workflow.jobs.image.with).toEqual({
      operator: 'balancer-operator',
      'tag-prefix': 'balancer-operator-v',
    });
  });

  it('ships a bundle that runs alone: dist/main.js from an empty directory answers --help', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'balancer-bundle-'));
    try {
      await copyFile(join(operatorRoot, 'dist', 'main.js'), join(dir, 'main.js'));
      const { stdout } = await run(process.execPath, [join(dir, 'main.js'), '--help'], {
        cwd: dir,
      });
      expect(stdout).toContain('--metrics-bind-address');
      expect(stdout).toContain('--leader-elect');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
