import { describe, expect, it } from 'vitest';
import type { ResourceKind } from '../crd/object-kind.js';
import { apiVersionOfDescriptor } from '../kinds/resource-descriptor.js';
import * as module from './built-in-kinds.js';
import { builtInKinds } from './built-in-kinds.js';

// What discovery serves for each kind is checked against the local API server and the real
// kube-apiserver by @ops/envtest's conformance suite (test/conformance/built-in-kinds.test.ts);
// this file checks the list itself.

/** The exported descriptors, by export name. */
const exported: Array<[string, ResourceKind]> = Object.entries(module).flatMap(([name, value]) =>
  'descriptor' in value ? [[name, value] as [string, ResourceKind]] : [],
);

describe('built-in kinds', () => {
  it('lists every exported descriptor once, in builtInKinds', () => {
    expect(exported.length).toBe(31);
    expect(new Set(builtInKinds).size).toBe(builtInKinds.length);
    expect([...builtInKinds].sort((a, b) => a.kind.localeCompare(b.kind))).toEqual(
      exported.map(([, kind]) => kind).sort((a, b) => a.kind.localeCompare(b.kind)),
    );
    expect(Object.isFrozen(builtInKinds)).toBe(true);
  });

  it('names each descriptor after its plural, in lower camelCase', () => {
    for (const [name, kind] of exported) {
      expect(name.toLowerCase(), name).toBe(kind.descriptor.plural);
      expect(name[0], name).toBe(name[0]?.toLowerCase());
    }
  });

  it("agrees with itself: the descriptor's group, version and kind are the apiVersion and kind", () => {
    for (const kind of builtInKinds) {
      expect(apiVersionOfDescriptor(kind.descriptor)).toBe(kind.apiVersion);
      expect(kind.descriptor.kind).toBe(kind.kind);
      expect(Object.isFrozen(kind)).toBe(true);
    }
    const keys = builtInKinds.map((kind) => `${kind.kind}.${kind.descriptor.group}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('gives the REST mapping kubectl api-resources shows for a few well-known kinds', () => {
    expect(module.deployments.descriptor).toEqual({
      group: 'apps',
      version: 'v1',
      kind: 'Deployment',
      plural: 'deployments',
      namespaced: true,
    });
    expect(module.namespaces.descriptor).toEqual({
      group: '',
      version: 'v1',
      kind: 'Namespace',
      plural: 'namespaces',
      namespaced: false,
    });
    expect(module.events.apiVersion).toBe('v1');
    expect(module.horizontalPodAutoscalers.apiVersion).toBe('autoscaling/v2');
    expect(module.clusterRoleBindings.descriptor.namespaced).toBe(false);
  });
});
