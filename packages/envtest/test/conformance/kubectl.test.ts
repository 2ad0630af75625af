import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type TestCluster } from '../cluster.js';
import { applicationCrd } from './application-crd.js';

let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startCluster();
});
afterAll(async () => {
  await cluster.stop();
});

const sample = `apiVersion: core.crd.lixueduan.com/v1
kind: Application
metadata: {name: demo, namespace: default}
spec: {enabled: true, image: 'nginx:1.22'}
`;

describe('the real kubectl', () => {
  it('applies a CRD and a custom resource, then gets them with printer columns', async () => {
    expect(
      await cluster.kubectl(['apply', '-f', '-'], { input: JSON.stringify(applicationCrd) }),
    ).toContain(
      'customresourcedefinition.apiextensions.k8s.io/applications.core.crd.lixueduan.com created',
    );
    expect(await cluster.kubectl(['apply', '-f', '-'], { input: sample })).toContain(
      'application.core.crd.lixueduan.com/demo created',
    );
    const table = await cluster.kubectl(['get', 'applications']);
    // The CRD declares no Age column, and the Application has no status yet.
    expect(table).toMatch(/^NAME\s+IMAGE\s+READY\n/);
    expect(table).toMatch(/^demo\s+nginx:1\.22\s*$/m);
    expect(await cluster.kubectl(['get', 'app', 'demo', '-o', 'jsonpath={.spec.enabled}'])).toBe(
      'true',
    );
  });

  it('re-applies a changed manifest as a patch', async () => {
    expect(
      await cluster.kubectl(['apply', '-f', '-'], {
        input: sample.replace('nginx:1.22', 'nginx:1.23'),
      }),
    ).toContain('configured');
    expect(
      await cluster.kubectl(['get', 'application', 'demo', '-o', 'jsonpath={.spec.image}']),
    ).toBe('nginx:1.23');
    expect(
      await cluster.kubectl(['apply', '-f', '-'], {
        input: sample.replace('nginx:1.22', 'nginx:1.23'),
      }),
    ).toContain('unchanged');
  });

  it('creates, describes and deletes built-in objects', async () => {
    expect(
      await cluster.kubectl(['create', 'configmap', 'settings', '--from-literal=a=b']),
    ).toContain('configmap/settings created');
    expect(await cluster.kubectl(['create', 'deployment', 'web', '--image=nginx:1.25'])).toContain(
      'deployment.apps/web created',
    );
    const described = await cluster.kubectl(['describe', 'configmap', 'settings']);
    expect(described).toMatch(/Name:\s+settings/);
    expect(await cluster.kubectl(['get', 'deployments'])).toMatch(
      /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\n/,
    );
    expect(await cluster.kubectl(['label', 'configmap', 'settings', 'tier=front'])).toContain(
      'labeled',
    );
    expect(await cluster.kubectl(['get', 'cm', '-l', 'tier=front', '-o', 'name'])).toBe(
      'configmap/settings\n',
    );
    expect(await cluster.kubectl(['delete', 'configmap', 'settings'])).toContain('deleted');
  });

  it('edits through KUBE_EDITOR-free patching and waits for conditions', async () => {
    await cluster.kubectl([
      'patch',
      'application',
      'demo',
      '--type=merge',
      '--subresource=status',
      '-p',
      '{"status":{"ready":true}}',
    ]);
    expect(
      await cluster.kubectl([
        'wait',
        '--for=jsonpath={.status.ready}=true',
        'application/demo',
        '--timeout=5s',
      ]),
    ).toContain('condition met');
  });

  it('shows kube-apiserver error messages', async () => {
    await expect(cluster.kubectl(['get', 'configmap', 'missing'])).rejects.toThrow(
      'Error from server (NotFound): configmaps "missing" not found',
    );
    await expect(
      cluster.kubectl(['apply', '-f', '-'], {
        input: sample.replace("image: 'nginx:1.22'", 'replicas: 1'),
      }),
    ).rejects.toThrow(/spec.image: Required value/);
  });

  it('deletes the custom resource and the CRD', async () => {
    expect(await cluster.kubectl(['delete', 'application', 'demo'])).toContain('deleted');
    expect(
      await cluster.kubectl(['delete', 'crd', 'applications.core.crd.lixueduan.com']),
    ).toContain('deleted');
  });
});
