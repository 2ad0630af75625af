import { defineCustomResource, permission } from '@ops/core/crd';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import {
  generatedHeader,
  renderManifests,
  toManifestStream,
  toManifestYaml,
} from './render-manifests.js';

const widget = defineCustomResource({
  group: 'b.example.com',
  kind: 'Widget',
  plural: 'widgets',
  scope: 'Namespaced',
  versions: [
    {
      name: 'v1',
      spec: Type.Object({
        note: Type.String({
          description: `A long description that goes on and on: ${'word '.repeat(40)}end.`,
        }),
        labels: Type.Optional(Type.Record(Type.String(), Type.String())),
      }),
    },
  ],
});
const gadget = defineCustomResource({
  group: 'a.example.com',
  kind: 'Gadget',
  plural: 'gadgets',
  scope: 'Cluster',
  versions: [{ name: 'v1', spec: Type.Object({ on: Type.Boolean(), empty: Type.Literal('') }) }],
});

describe('renderManifests', () => {
  const files = renderManifests({
    customResources: [widget, gadget],
    rbac: { rules: [permission({ group: 'apps', resources: 'deployments', verbs: ['get'] })] },
  });

  it('names CRD files <group>_<plural>.yaml, sorted, then the role', () => {
    expect(files.map((file) => file.path)).toEqual([
      'config/crd/bases/a.example.com_gadgets.yaml',
      'config/crd/bases/b.example.com_widgets.yaml',
      'config/rbac/role.yaml',
      'config/rbac/metrics_auth_role.yaml',
      'config/rbac/metrics_auth_role_binding.yaml',
      'config/rbac/metrics_reader_role.yaml',
    ]);
  });

  it('writes YAML that round-trips, quoting what YAML would misread', () => {
    const [gadgetFile, widgetFile] = files;
    for (const version of ['1.1', '1.2'] as const) {
      expect(parse(gadgetFile?.content ?? '', { version })).toEqual(gadget.crd());
      expect(parse(widgetFile?.content ?? '', { version })).toEqual(widget.crd());
    }
    // Unquoted, "" would read as null and "on" (YAML 1.1, as Go reads it) as true.
    expect(gadgetFile?.content).toContain('- ""\n');
    expect(gadgetFile?.content).toContain('              "on":\n');
    expect(toManifestYaml({ answers: ['yes', 'n', 'off', '2024-01-01'] })).toContain(
      '- "yes"\n- "n"\n- "off"\n- "2024-01-01"\n',
    );
    // Long descriptions stay on one line, so diffs show whole sentences.
    expect(widgetFile?.content).toMatch(/^ {16}description: "A long description .* end\."$/m);
  });

  it('gives the same text for the same objects, whatever their key order', () => {
    expect(toManifestYaml({ b: 1, a: { d: [2, { z: 1, x: 2 }], c: 3 } })).toBe(
      `${generatedHeader}\n---\na:\n  c: 3\n  d:\n  - 2\n  - x: 2\n    z: 1\nb: 1\n`,
    );
  });

  it('names the ClusterRole manager-role unless told otherwise', () => {
    const role = files[2]?.content ?? '';
    expect(parse(role)).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'manager-role' },
      rules: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get'] }],
    });
    const named = renderManifests({ customResources: [], rbac: { roleName: 'other', rules: [] } });
    expect(named).toHaveLength(4);
    expect(parse(named[0]?.content ?? '').metadata.name).toBe('other');
  });

  it('adds the secured metrics roles: auth-delegator rules bound to the manager, metrics-reader', () => {
    const byPath = new Map(files.map((file) => [file.path, parse(file.content)]));
    expect(byPath.get('config/rbac/metrics_auth_role.yaml')).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'metrics-auth-role' },
      rules: [
        { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
        {
          apiGroups: ['authorization.k8s.io'],
          resources: ['subjectaccessreviews'],
          verbs: ['create'],
        },
      ],
    });
    expect(byPath.get('config/rbac/metrics_auth_role_binding.yaml')).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'metrics-auth-rolebinding' },
      roleRef: {
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'ClusterRole',
        name: 'metrics-auth-role',
      },
      subjects: [{ kind: 'ServiceAccount', name: 'controller-manager', namespace: 'system' }],
    });
    expect(byPath.get('config/rbac/metrics_reader_role.yaml')).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'metrics-reader' },
      rules: [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }],
    });
  });
});

describe('renderManifests of a sharded controller', () => {
  const sharded = {
    name: 'widget',
    for: { apiVersion: 'b.example.com/v1', kind: 'Widget' },
    owns: [{ kind: { apiVersion: 'apps/v1', kind: 'Deployment' }, onlyController: true }],
    sharding: { ring: 'widget' },
  };
  const files = renderManifests({ customResources: [widget], rbac: { rules: [] } }, [sharded]);
  const byPath = new Map(files.map((file) => [file.path, file.content]));

  it('grants patch on its for() and owned kinds in the ClusterRole (the shard labels)', () => {
    expect(parse(byPath.get('config/rbac/role.yaml') ?? '').rules).toEqual([
      { apiGroups: ['apps'], resources: ['deployments'], verbs: ['patch'] },
      { apiGroups: ['b.example.com'], resources: ['widgets'], verbs: ['patch'] },
      {
        apiGroups: ['b.example.com'],
        resources: ['widgets/finalizers'],
        verbs: ['update'],
      },
    ]);
  });

  it("writes the ring Leases' Role and its binding to the manager, in the operator's namespace", () => {
    const content = byPath.get('config/rbac/sharding_role.yaml') ?? '';
    expect(content.startsWith(`${generatedHeader}\n`)).toBe(true);
    expect(parseAllDocuments(content).map((document) => document.toJS())).toEqual([
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { name: 'sharding-role', namespace: 'system' },
        rules: [
          {
            apiGroups: ['coordination.k8s.io'],
            resources: ['leases'],
            verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
          },
        ],
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'sharding-rolebinding', namespace: 'system' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'sharding-role' },
        subjects: [{ kind: 'ServiceAccount', name: 'controller-manager', namespace: 'system' }],
      },
    ]);
  });

  it('writes no sharding Role when no controller is sharded', () => {
    const { sharding: _ring, ...plain } = sharded;
    const unsharded = renderManifests({ customResources: [widget], rbac: { rules: [] } }, [plain]);
    expect(unsharded.map((file) => file.path)).not.toContain('config/rbac/sharding_role.yaml');
  });
});

describe('toManifestStream', () => {
  it('writes one header, then each object after a document start', () => {
    expect(toManifestStream([{ b: 1 }, { a: [1] }])).toBe(
      `${generatedHeader}\n---\nb: 1\n---\na:\n- 1\n`,
    );
  });
});
