import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { kubeRequest } from './kube-request.js';
import { startOperatorEnvironment } from './operator-environment.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, listKind: WidgetList, plural: widgets, singular: widget}
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
`;
const manager = `apiVersion: v1
kind: ServiceAccount
metadata: {name: controller-manager, namespace: system}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: controller-manager, namespace: system}
spec:
  selector: {matchLabels: {app: widgets}}
  template:
    metadata: {labels: {app: widgets}}
    spec:
      serviceAccountName: controller-manager
      containers: [{name: manager, image: widgets:latest}]
`;
const rbac = `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: manager-role}
rules: [{apiGroups: [example.com], resources: [widgets], verbs: [get, list, watch]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: manager-rolebinding}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: manager-role}
subjects: [{kind: ServiceAccount, name: controller-manager, namespace: system}]
`;

/** An operator directory laid out as kubebuilder does, with `files` in config/default. */
async function operatorDir(files: Record<string, string>): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), 'envtest-operator-'));
  await mkdir(join(dir, 'config', 'crd', 'bases'), { recursive: true });
  await mkdir(join(dir, 'config', 'default'), { recursive: true });
  await writeFile(join(dir, 'config', 'crd', 'bases', 'example.com_widgets.yaml'), crd);
  const resources = Object.keys(files).map((name) => `  - ${name}\n`);
  await writeFile(
    join(dir, 'config', 'default', 'kustomization.yaml'),
    `namespace: widgets-system\nnamePrefix: widgets-\nresources:\n${resources.join('')}`,
  );
  for (const [name, text] of Object.entries(files)) {
    await writeFile(join(dir, 'config', 'default', name), text);
  }
  return dir;
}

describe('startOperatorEnvironment', () => {
  it("installs the operator's CRDs and gives its ServiceAccount, under its rendered RBAC only", {
    timeout: 30_000,
  }, async () => {
    const { env, identity, rendered } = await startOperatorEnvironment(
      await operatorDir({ 'manager.yaml': manager, 'rbac.yaml': rbac }),
    );
    try {
      expect(identity.username).toBe(
        'system:serviceaccount:widgets-system:widgets-controller-manager',
      );
      expect(rendered.map((object) => `${object.kind}/${object.metadata?.name}`)).toContain(
        'ClusterRole/widgets-manager-role',
      );
      const widgets = await kubeRequest(identity.kubeConfig, 'GET', '/apis/example.com/v1/widgets');
      expect(widgets.status).toBe(200);
      const secrets = await kubeRequest(identity.kubeConfig, 'GET', '/api/v1/secrets');
      expect(secrets.status).toBe(403);
      // The manager's namespace enforces the "restricted" Pod Security Standard.
      const namespace = await kubeRequest(
        env.kubeConfig,
        'GET',
        '/api/v1/namespaces/widgets-system',
      );
      expect(
        (namespace.body as { metadata: { labels: Record<string, string> } }).metadata.labels,
      ).toMatchObject({ 'pod-security.kubernetes.io/enforce': 'restricted' });
    } finally {
      await env.stop();
    }
  });

  it('fails, saying why, when config/default runs no manager Deployment', {
    timeout: 30_000,
  }, async () => {
    await expect(
      startOperatorEnvironment(await operatorDir({ 'rbac.yaml': rbac })),
    ).rejects.toThrow('renders 0 Deployments with a serviceAccountName and a namespace');
  });
});
