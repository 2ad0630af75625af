import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type TestCluster } from '../cluster.js';
import { kubectlMatrix } from '../kubectl-matrix.js';
import { applicationCrd } from './application-crd.js';

let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startCluster();
});
afterAll(async () => {
  await cluster.stop();
});

/** A CRD whose printer columns use what real operators print: condition filters, types. */
const widgetCrd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.walk.ops-ts.github.io}
spec:
  group: walk.ops-ts.github.io
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    additionalPrinterColumns:
    - {name: Ready, type: string, jsonPath: '.status.conditions[?(@.type=="Ready")].status'}
    - {name: Reason, type: string, jsonPath: ".status.conditions[?(@.type=='Ready')].reason"}
    - {name: Size, type: integer, jsonPath: .spec.size}
    - {name: Last, type: string, jsonPath: '.spec.tags[-1]'}
    - {name: Shop, type: string, jsonPath: '.metadata.labels.app\\.kubernetes\\.io/name'}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer}
              tags: {type: array, items: {type: string}}
          status:
            type: object
            properties:
              conditions:
                type: array
                items: {type: object, x-kubernetes-preserve-unknown-fields: true}
`;
const widgets = (namespace: string) => `apiVersion: walk.ops-ts.github.io/v1
kind: Widget
metadata: {name: big, namespace: ${namespace}, labels: {app.kubernetes.io/name: shop}}
spec: {size: 30, tags: [red, blue]}
---
apiVersion: walk.ops-ts.github.io/v1
kind: Widget
metadata: {name: small, namespace: ${namespace}}
spec: {size: 1}
---
apiVersion: walk.ops-ts.github.io/v1
kind: Widget
metadata: {name: mid, namespace: ${namespace}}
spec: {size: 7}
`;

// Each kubectl from 1.27 to 1.35 (OPS_KUBECTL_MATRIX, see scripts/ensure-kubectl-matrix.sh)
// walks the same steps against one cluster, each in its own namespace.
for (const { binary, version } of kubectlMatrix()) {
  describe(`the real kubectl ${version}`, () => {
    const namespace = `walk-${version
      .replace(/^v/, '')
      .split(/[^0-9]/)
      .slice(0, 2)
      .join('-')}`;
    const kubectl = (args: string[], options: { input?: string } = {}) =>
      cluster.kubectl(['--namespace', namespace, ...args], { ...options, binary });
    const sample = `apiVersion: core.crd.lixueduan.com/v1
kind: Application
metadata: {name: demo, namespace: ${namespace}}
spec: {enabled: true, image: 'nginx:1.22'}
`;

    it('applies a CRD and a custom resource, then gets them with printer columns', async () => {
      expect(await kubectl(['create', 'namespace', namespace])).toContain('created');
      expect(
        await kubectl(['apply', '-f', '-'], { input: JSON.stringify(applicationCrd) }),
      ).toMatch(
        /customresourcedefinition.apiextensions.k8s.io\/applications.core.crd.lixueduan.com (created|unchanged)/,
      );
      expect(await kubectl(['apply', '-f', '-'], { input: sample })).toContain(
        'application.core.crd.lixueduan.com/demo created',
      );
      const table = await kubectl(['get', 'applications']);
      // The CRD declares no Age column, and the Application has no status yet.
      expect(table).toMatch(/^NAME\s+IMAGE\s+READY\n/);
      expect(table).toMatch(/^demo\s+nginx:1\.22\s*$/m);
      expect(await kubectl(['get', 'app', 'demo', '-o', 'jsonpath={.spec.enabled}'])).toBe('true');
    });

    it('re-applies a changed manifest as a patch', async () => {
      const changed = sample.replace('nginx:1.22', 'nginx:1.23');
      expect(await kubectl(['apply', '-f', '-'], { input: changed })).toContain('configured');
      expect(await kubectl(['get', 'application', 'demo', '-o', 'jsonpath={.spec.image}'])).toBe(
        'nginx:1.23',
      );
      expect(await kubectl(['apply', '-f', '-'], { input: changed })).toContain('unchanged');
    });

    it('creates, describes and deletes built-in objects', async () => {
      expect(await kubectl(['create', 'configmap', 'settings', '--from-literal=a=b'])).toContain(
        'configmap/settings created',
      );
      expect(await kubectl(['create', 'deployment', 'web', '--image=nginx:1.25'])).toContain(
        'deployment.apps/web created',
      );
      const described = await kubectl(['describe', 'configmap', 'settings']);
      expect(described).toMatch(/Name:\s+settings/);
      expect(await kubectl(['get', 'deployments'])).toMatch(
        /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\n/,
      );
      expect(await kubectl(['label', 'configmap', 'settings', 'tier=front'])).toContain('labeled');
      expect(await kubectl(['get', 'cm', '-l', 'tier=front', '-o', 'name'])).toBe(
        'configmap/settings\n',
      );
      expect(await kubectl(['delete', 'configmap', 'settings'])).toContain('deleted');
    });

    it('edits through KUBE_EDITOR-free patching and waits for conditions', async () => {
      await kubectl([
        'patch',
        'application',
        'demo',
        '--type=merge',
        '--subresource=status',
        '-p',
        '{"status":{"ready":true}}',
      ]);
      expect(
        await kubectl([
          'wait',
          '--for=jsonpath={.status.ready}=true',
          'application/demo',
          '--timeout=5s',
        ]),
      ).toContain('condition met');
    });

    it('shows kube-apiserver error messages', async () => {
      await expect(kubectl(['get', 'configmap', 'missing'])).rejects.toThrow(
        'Error from server (NotFound): configmaps "missing" not found',
      );
      await expect(
        kubectl(['apply', '-f', '-'], {
          input: sample.replace("image: 'nginx:1.22'", 'replicas: 1'),
        }),
      ).rejects.toThrow(/spec.image: Required value/);
    });

    it('prints printer columns with JSONPath filters, and sorts by any field', async () => {
      expect(await kubectl(['apply', '-f', '-'], { input: widgetCrd })).toMatch(
        /widgets.walk.ops-ts.github.io (created|unchanged)/,
      );
      await kubectl(['wait', '--for=condition=Established', 'crd/widgets.walk.ops-ts.github.io']);
      expect(await kubectl(['apply', '-f', '-'], { input: widgets(namespace) })).toContain(
        'widget.walk.ops-ts.github.io/small created',
      );
      await kubectl([
        'patch',
        'widget',
        'big',
        '--type=merge',
        '--subresource=status',
        '-p',
        '{"status":{"conditions":[{"type":"Synced","status":"True"},{"type":"Ready","status":"False","reason":"Waiting"}]}}',
      ]);
      const table = await kubectl(['get', 'widgets']);
      expect(table).toMatch(/^NAME\s+READY\s+REASON\s+SIZE\s+LAST\s+SHOP\n/);
      expect(table).toMatch(/^big\s+False\s+Waiting\s+30\s+blue\s+shop\n/m);
      // --sort-by reads the objects the Table rows carry (includeObject=Object).
      const sorted = await kubectl(['get', 'widgets', '--sort-by=.spec.size', '-o', 'name']);
      expect(sorted.split('\n').filter(Boolean)).toEqual([
        'widget.walk.ops-ts.github.io/small',
        'widget.walk.ops-ts.github.io/mid',
        'widget.walk.ops-ts.github.io/big',
      ]);
      const bySize = await kubectl(['get', 'widgets', '--sort-by=.spec.size', '--no-headers']);
      expect(bySize.split('\n').map((line) => line.split(/\s+/)[0])).toEqual([
        'small',
        'mid',
        'big',
        '',
      ]);
      const columns = await kubectl([
        'get',
        'widgets',
        '--sort-by=.metadata.name',
        '-o',
        'custom-columns=NAME:.metadata.name,READY:.status.conditions[?(@.type=="Ready")].status,SIZE:.spec.size',
      ]);
      expect(columns.split('\n').map((line) => line.trim().split(/\s+/))).toEqual([
        ['NAME', 'READY', 'SIZE'],
        ['big', 'False', '30'],
        ['mid', '<none>', '7'],
        ['small', '<none>', '1'],
        [''],
      ]);
    });

    it('watches custom resources as Tables (get -w)', async () => {
      const watcher = spawn(binary, [
        '--kubeconfig',
        cluster.env.kubeconfigPath,
        '--namespace',
        namespace,
        'get',
        'widgets',
        '--watch',
      ]);
      let output = '';
      watcher.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      watcher.stderr.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      const waitFor = async (pattern: RegExp) => {
        for (let i = 0; i < 200 && !pattern.test(output); i++)
          await new Promise((resolve) => setTimeout(resolve, 50));
        expect(output).toMatch(pattern);
      };
      try {
        await waitFor(/^small\s+1\s+/m);
        await kubectl([
          'patch',
          'widget',
          'small',
          '--type=merge',
          '--subresource=status',
          '-p',
          '{"status":{"conditions":[{"type":"Ready","status":"True","reason":"Done"}]}}',
        ]);
        await waitFor(/^small\s+True\s+Done\s+1\s+/m);
      } finally {
        watcher.kill();
      }
      // One header line only: later events carry no column definitions.
      expect(output.match(/^NAME\s/gm)).toHaveLength(1);
    });

    it('deletes the custom resources and the CRDs', async () => {
      expect(await kubectl(['delete', 'application', 'demo'])).toContain('deleted');
      expect(await kubectl(['delete', 'widgets', '--all'])).toContain('deleted');
      expect(
        await kubectl([
          'delete',
          'crd',
          'applications.core.crd.lixueduan.com',
          'widgets.walk.ops-ts.github.io',
        ]),
      ).toContain('deleted');
    });
  });
}
