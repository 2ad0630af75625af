import type { KubernetesObject } from '@ops/api';
import { describe, expect, it } from 'vitest';
import { objectKind } from './object-kind.js';

describe('objectKind', () => {
  it('gives a frozen kind of apiVersion and kind, without a descriptor', () => {
    const widgets = objectKind<KubernetesObject>('example.com/v1', 'Widget');
    expect(widgets).toEqual({ apiVersion: 'example.com/v1', kind: 'Widget' });
    expect(Object.isFrozen(widgets)).toBe(true);
    expect('descriptor' in widgets).toBe(false);
  });

  it('with a resource, carries the descriptor: group and version from the apiVersion', () => {
    const classes = objectKind('storage.k8s.io/v1', 'StorageClass', {
      plural: 'storageclasses',
      namespaced: false,
    });
    expect(classes).toEqual({
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      descriptor: {
        group: 'storage.k8s.io',
        version: 'v1',
        kind: 'StorageClass',
        plural: 'storageclasses',
        namespaced: false,
      },
    });
    expect(Object.isFrozen(classes)).toBe(true);
    expect(Object.isFrozen(classes.descriptor)).toBe(true);
    // The core group is the empty group.
    const templates = objectKind('v1', 'PodTemplate', { plural: 'podtemplates', namespaced: true });
    expect(templates.descriptor).toMatchObject({ group: '', version: 'v1', namespaced: true });
  });

  it('refuses an empty apiVersion or kind, saying what to write', () => {
    expect(() => objectKind('', 'Pod')).toThrow(
      new TypeError(
        `objectKind needs an apiVersion and a kind, got {"apiVersion":"","kind":"Pod"}; write objectKind<Deployment>('apps/v1', 'Deployment')`,
      ),
    );
    expect(() => objectKind('v1', '', { plural: 'pods', namespaced: true })).toThrow(
      /objectKind needs an apiVersion and a kind/,
    );
  });

  it('refuses a plural that is not a resource name, and a scope that is not a boolean', () => {
    for (const plural of ['', 'Deployments', 'deployments/status', '-x']) {
      expect(() => objectKind('apps/v1', 'Deployment', { plural, namespaced: true })).toThrow(
        new TypeError(
          `objectKind("apps/v1", "Deployment") got the plural ${JSON.stringify(plural)}; give the lower-case resource name of the URL, as \`kubectl api-resources\` lists it (e.g. 'deployments')`,
        ),
      );
    }
    const loose = { plural: 'deployments', namespaced: 'yes' } as unknown as {
      plural: string;
      namespaced: boolean;
    };
    expect(() => objectKind('apps/v1', 'Deployment', loose)).toThrow(
      new TypeError(
        `objectKind("apps/v1", "Deployment") got namespaced "yes"; give true for a namespaced kind, false for a cluster-scoped one`,
      ),
    );
  });
});
