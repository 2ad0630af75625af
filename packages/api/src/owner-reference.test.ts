import { describe, expect, it } from 'vitest';
import { OwnerReferenceError } from './errors/owner-reference-error.js';
import type { KubernetesObject } from './kubernetes-object.js';
import {
  getControllerOf,
  groupOf,
  hasOwnerReference,
  isControlledBy,
  removeOwnerReference,
  setControllerReference,
  setOwnerReference,
} from './owner-reference.js';

const app = (uid = 'uid-1', namespace = 'default'): KubernetesObject => ({
  apiVersion: 'core.crd.lixueduan.com/v1',
  kind: 'Application',
  metadata: { name: 'demo', uid, ...(namespace ? { namespace } : {}) },
});
const deployment = (namespace = 'default'): KubernetesObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'app-demo', ...(namespace ? { namespace } : {}) },
});

function reasonOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (OwnerReferenceError.isInstance(error)) return error.reason;
    throw error;
  }
  return undefined;
}

describe('setControllerReference', () => {
  it('adds a controlling, blocking reference', () => {
    const child = setControllerReference(app(), deployment());
    expect(child.metadata?.ownerReferences).toEqual([
      {
        apiVersion: 'core.crd.lixueduan.com/v1',
        kind: 'Application',
        name: 'demo',
        uid: 'uid-1',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(isControlledBy(child, app())).toBe(true);
    expect(getControllerOf(child)?.name).toBe('demo');
  });

  it('is idempotent and keeps other owners', () => {
    const child = deployment();
    child.metadata = {
      ...child.metadata,
      ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'other', uid: 'cm' }],
    };
    setControllerReference(app(), child);
    setControllerReference(app(), child);
    expect(child.metadata?.ownerReferences).toHaveLength(2);
    expect(child.metadata?.ownerReferences?.[0]?.name).toBe('other');
  });

  it('updates the reference to a recreated owner of the same name in place', () => {
    const child = setControllerReference(app('old'), deployment());
    setControllerReference({ ...app('new'), apiVersion: 'core.crd.lixueduan.com/v2' }, child);
    expect(child.metadata?.ownerReferences).toHaveLength(1);
    expect(child.metadata?.ownerReferences?.[0]?.uid).toBe('new');
  });

  it('refuses a second controller and leaves the object unchanged', () => {
    const child = setControllerReference(app(), deployment());
    const before = structuredClone(child);
    const other = {
      ...app('uid-2'),
      metadata: { name: 'other', namespace: 'default', uid: 'uid-2' },
    };
    expect(reasonOf(() => setControllerReference(other, child))).toBe('AlreadyOwned');
    expect(child).toEqual(before);
    expect(() => setControllerReference(other, child)).toThrowError(
      /already owned by another Application controller "demo"/,
    );
  });

  it('refuses cross-namespace and namespaced-owner-of-cluster-scoped references', () => {
    expect(reasonOf(() => setControllerReference(app(), deployment('other')))).toBe(
      'CrossNamespace',
    );
    expect(reasonOf(() => setControllerReference(app(), deployment('')))).toBe('CrossNamespace');
    expect(() => setControllerReference(app(), deployment('other'))).toThrowError(
      /namespace "default".*"other"/,
    );
  });

  it('allows a cluster-scoped owner of anything', () => {
    const owner = app('uid-c', '');
    expect(isControlledBy(setControllerReference(owner, deployment('ns')), owner)).toBe(true);
    expect(isControlledBy(setControllerReference(owner, deployment('')), owner)).toBe(true);
  });

  it('refuses an owner that was never stored', () => {
    const owner: KubernetesObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'x', namespace: 'default' },
    };
    expect(reasonOf(() => setControllerReference(owner, deployment()))).toBe('InvalidOwner');
    expect(() => setControllerReference(owner, deployment())).toThrowError(/metadata\.uid/);
    expect(reasonOf(() => setControllerReference({}, deployment()))).toBe('InvalidOwner');
  });
});

describe('setOwnerReference', () => {
  it('adds a non-controlling reference and keeps an existing controller flag', () => {
    const child = setOwnerReference(app(), deployment());
    expect(child.metadata?.ownerReferences?.[0]?.controller).toBeUndefined();
    expect(isControlledBy(child, app())).toBe(false);
    expect(hasOwnerReference(child, app())).toBe(true);

    const controlled = setControllerReference(app(), deployment());
    setOwnerReference(app(), controlled);
    expect(isControlledBy(controlled, app())).toBe(true);
  });

  it('lets an object have several owners but still one controller', () => {
    const child = setOwnerReference(app('a'), deployment());
    setOwnerReference(
      { ...app('b'), metadata: { name: 'second', namespace: 'default', uid: 'b' } },
      child,
    );
    expect(child.metadata?.ownerReferences).toHaveLength(2);
    expect(getControllerOf(child)).toBeUndefined();
  });
});

describe('removeOwnerReference', () => {
  it('removes only the given owner', () => {
    const child = setOwnerReference(app(), deployment());
    setOwnerReference(
      { ...app('b'), metadata: { name: 'second', namespace: 'default', uid: 'b' } },
      child,
    );
    expect(removeOwnerReference(app(), child)).toBe(true);
    expect(child.metadata?.ownerReferences?.map((ref) => ref.name)).toEqual(['second']);
    expect(removeOwnerReference(app(), child)).toBe(false);
    expect(removeOwnerReference(app(), deployment())).toBe(false);
  });
});

describe('isControlledBy', () => {
  it('compares uids, so a recreated owner is not the old one', () => {
    const child = setControllerReference(app('old'), deployment());
    expect(isControlledBy(child, app('new'))).toBe(false);
    expect(isControlledBy(deployment(), app())).toBe(false);
  });
});

describe('groupOf', () => {
  it('splits the group off the version', () => {
    expect(groupOf('apps/v1')).toBe('apps');
    expect(groupOf('v1')).toBe('');
  });
});
