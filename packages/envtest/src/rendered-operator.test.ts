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
