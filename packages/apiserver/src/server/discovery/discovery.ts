import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { sortVersions } from '../../registry/resource-registry.js';
import type { ResourceType } from '../../registry/resource-type.js';

/**
 * The Kubernetes version the local server reports (`/version`, and the OpenAPI documents'
 * `info.version`): 1.35, the first release whose contract its resourceVersions follow. Every
 * write takes the next integer of one cluster-wide counter (see `ObjectStore`), so they are
 * comparable as KEP-5504 guarantees from kube-apiserver 1.35 on; clients that read `/version`
 * for that guarantee (`@ops/core`'s read-your-writes) may then compare them, as on
 * kube-apiserver 1.35 and later. What else differs from kube-apiserver 1.37 is measured by
 * tools/fidelity and listed in the README's fidelity section.
 */
export const serverVersion = { major: '1', minor: '35', gitVersion: 'v1.35.0-ops.0' };

/** `info.version` of the OpenAPI documents: the release of {@link serverVersion}. */
export const openApiInfoVersion = serverVersion.gitVersion.replace(/-.*$/, '');

/** `/version`. */
export function versionInfo(): Record<string, string> {
  return {
    ...serverVersion,
    gitCommit: '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    buildDate: '2026-01-01T00:00:00Z',
    goVersion: 'go1.24.0',
    compiler: 'gc',
    platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
  };
}

/** `/api`. */
export function coreVersions(serverAddress: string): Record<string, unknown> {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

/** One group of `/apis`, or `/apis/GROUP`. */
export function groupDocument(name: string, versions: string[]): Record<string, unknown> {
  const sorted = sortVersions(versions);
  const entries = sorted.map((version) => ({ groupVersion: `${name}/${version}`, version }));
  return {
    kind: 'APIGroup',
    apiVersion: 'v1',
    name,
    versions: entries,
    preferredVersion: entries[0],
  };
}

/** `/apis`. */
export function groupList(registry: ResourceRegistry): Record<string, unknown> {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: registry.groups().map((g) => {
      const { kind: _k, apiVersion: _a, ...group } = groupDocument(g.name, g.versions);
      return group;
    }),
  };
}

/** `/api/v1` or `/apis/GROUP/VERSION`: the resources, with their subresources. */
export function resourceList(
  types: readonly ResourceType[],
  groupVersion: string,
): Record<string, unknown> {
  const resources: Array<Record<string, unknown>> = [];
  for (const type of types) {
    resources.push({
      name: type.plural,
      singularName: type.singular,
      namespaced: type.namespaced,
      kind: type.kind,
      verbs: type.verbs,
      ...(type.shortNames.length > 0 ? { shortNames: type.shortNames } : {}),
      ...(type.categories.length > 0 ? { categories: type.categories } : {}),
    });
    if (type.subresources.status) {
      resources.push({
        name: `${type.plural}/status`,
        singularName: '',
        namespaced: type.namespaced,
        kind: type.kind,
        verbs: ['get', 'patch', 'update'],
      });
    }
    if (type.subresources.scale) {
      resources.push({
        name: `${type.plural}/scale`,
        singularName: '',
        namespaced: type.namespaced,
        group: 'autoscaling',
        version: 'v1',
        kind: 'Scale',
        verbs: ['get', 'patch', 'update'],
      });
    }
    if (type.group === '' && type.plural === 'serviceaccounts') {
      resources.push({
        name: 'serviceaccounts/token',
        singularName: '',
        namespaced: true,
        group: 'authentication.k8s.io',
        version: 'v1',
        kind: 'TokenRequest',
        verbs: ['create'],
      });
    }
    if (type.group === '' && type.plural === 'namespaces') {
      resources.push({
        name: 'namespaces/finalize',
        singularName: '',
        namespaced: false,
        kind: 'Namespace',
        verbs: ['update'],
      });
    }
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion, resources };
}
