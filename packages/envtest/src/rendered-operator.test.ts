import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { renderOperator } from './rendered-operator.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function kustomization(resources: string): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), 'envtest-render-'));
  await writeFile(join(dir, 'resources.yaml'), resources);
  await writeFile(
    join(dir, 'kustomization.yaml'),
    'namespace: shop-system\nnamePrefix: shop-\nresources:\n  - resources.yaml\n',
  );
  return dir;
}

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata: {name: controller-manager}
spec:
  selector: {matchLabels: {app: shop}}
  template:
    metadata: {labels: {app: shop}}
    spec:
      serviceAccountName: controller-manager
      containers: [{name: manager, image: shop:latest}]
`;
const serviceAccount = `apiVersion: v1
kind: ServiceAccount
metadata: {name: controller-manager}
`;

describe('renderOperator', () => {
  it('renders the config and finds the ServiceAccount the manager runs as, as kustomize names it', async () => {
    const rendered = await renderOperator(
      await kustomization(`${serviceAccount}---\n${deployment}`),
    );
    expect(rendered.serviceAccount).toEqual({
      namespace: 'shop-system',
      name: 'shop-controller-manager',
    });
    expect(rendered.objects.map((object) => object.kind)).toEqual(['ServiceAccount', 'Deployment']);
    // No Namespace in the install: the one the test creates enforces "restricted".
    expect(rendered.namespace).toEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name: 'shop-system',
        labels: { 'pod-security.kubernetes.io/enforce': 'restricted' },
      },
    });
    expect(rendered.managerPod).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'shop-controller-manager-admission-check',
        namespace: 'shop-system',
        labels: { app: 'shop' },
      },
      spec: {
        serviceAccountName: 'shop-controller-manager',
        containers: [{ name: 'manager', image: 'shop:latest' }],
      },
    });
  });

  it("keeps the rendered Namespace's labels, and an enforce level it names", async () => {
    const namespaceYaml = (labels: string) =>
      `apiVersion: v1\nkind: Namespace\nmetadata: {name: system, labels: {${labels}}}\n---\n`;
    const rendered = await renderOperator(
      await kustomization(`${namespaceYaml('team: shop')}${serviceAccount}---\n${deployment}`),
    );
    expect(rendered.namespace.metadata?.labels).toEqual({
      team: 'shop',
      'pod-security.kubernetes.io/enforce': 'restricted',
    });
    const baseline = await renderOperator(
      await kustomization(
        `${namespaceYaml('pod-security.kubernetes.io/enforce: baseline')}${serviceAccount}---\n${deployment}`,
      ),
    );
    expect(baseline.namespace.metadata?.labels).toEqual({
      'pod-security.kubernetes.io/enforce': 'baseline',
    });
  });

  it('refuses a config without exactly one manager Deployment, naming the directory', async () => {
    const config = await kustomization(serviceAccount);
    await expect(renderOperator(config)).rejects.toThrow(
      `kubectl kustomize ${config} renders 0 Deployments with a serviceAccountName and a namespace`,
    );
  });

  it('says what kubectl said when the config does not render', async () => {
    await expect(renderOperator('/nonexistent/config')).rejects.toThrow(
      /^kubectl kustomize \/nonexistent\/config failed: .+/,
    );
  });
});
