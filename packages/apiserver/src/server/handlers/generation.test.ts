import type { KubernetesObject, ObjectMeta } from '@ops/api';
import { describe, expect, it } from 'vitest';
import { builtinResources } from '../../registry/builtin-resources.js';
import type { ResourceType } from '../../registry/resource-type.js';
import {
  bumpGenerationOnDeletion,
  generationOnCreate,
  generationOnUpdate,
  hasGeneration,
} from './generation.js';

const builtin = (group: string, plural: string): ResourceType => {
  const type = builtinResources().find((t) => t.group === group && t.plural === plural);
  if (type === undefined) throw new Error(`no ${group}/${plural}`);
  return type;
};
const custom = (status: boolean): ResourceType => ({
  ...builtin('apps', 'deployments'),
  group: 'example.com',
  plural: 'widgets',
  custom: true,
  subresources: { status, scale: false },
});
const object = (fields: Record<string, unknown>, meta: ObjectMeta = {}): KubernetesObject => ({
  apiVersion: 'v1',
  kind: 'Thing',
  metadata: { name: 'x', generation: 3, ...meta },
  ...fields,
});

describe('generation', () => {
  it('belongs to the kinds whose kube strategy sets it, and to every custom resource', () => {
    expect(hasGeneration(builtin('apps', 'deployments'))).toBe(true);
    expect(hasGeneration(builtin('', 'pods'))).toBe(true);
    expect(hasGeneration(builtin('discovery.k8s.io', 'endpointslices'))).toBe(true);
    expect(hasGeneration(builtin('', 'configmaps'))).toBe(false);
    expect(hasGeneration(builtin('', 'services'))).toBe(false);
    expect(hasGeneration(builtin('rbac.authorization.k8s.io', 'roles'))).toBe(false);
    expect(hasGeneration(custom(false))).toBe(true);
  });

  it('starts at 1 where kept, and keeps what the client sent elsewhere', () => {
    expect(generationOnCreate(builtin('apps', 'deployments'), 7)).toBe(1);
    expect(generationOnCreate(builtin('', 'configmaps'), 7)).toBe(7);
    expect(generationOnCreate(builtin('', 'configmaps'), undefined)).toBeUndefined();
  });

  it('bumps on spec changes by kind, and never takes the client value', () => {
    const deployments = builtin('apps', 'deployments');
    const old = object({ spec: { replicas: 1 } });
    const sent = (fields: Record<string, unknown>, meta: ObjectMeta = {}) =>
      object(fields, { generation: 99, ...meta });
    expect(generationOnUpdate(deployments, old, sent({ spec: { replicas: 1 } }))).toBe(3);
    expect(generationOnUpdate(deployments, old, sent({ spec: { replicas: 2 } }))).toBe(4);
    expect(
      generationOnUpdate(
        deployments,
        old,
        sent({ spec: { replicas: 1 } }, { annotations: { a: 'b' } }),
      ),
    ).toBe(4);
    const replicaSets = builtin('apps', 'replicasets');
    expect(
      generationOnUpdate(
        replicaSets,
        old,
        sent({ spec: { replicas: 1 } }, { annotations: { a: 'b' } }),
      ),
    ).toBe(3);
    expect(
      generationOnUpdate(replicaSets, old, sent({ spec: { replicas: 1 }, status: { x: 1 } })),
    ).toBe(3);
    expect(
      generationOnUpdate(custom(false), old, sent({ spec: { replicas: 1 }, status: { x: 1 } })),
    ).toBe(4);
    expect(
      generationOnUpdate(custom(true), old, sent({ spec: { replicas: 1 }, status: { x: 1 } })),
    ).toBe(3);
    expect(generationOnUpdate(deployments, old, sent({ spec: { replicas: 2 } }), 'status')).toBe(3);
    const configMaps = builtin('', 'configmaps');
    expect(
      generationOnUpdate(
        configMaps,
        object({ data: {} }, { generation: undefined }),
        sent({ data: { a: 'b' } }),
      ),
    ).toBeUndefined();
    expect(generationOnUpdate(configMaps, object({ data: {} }), sent({ data: { a: 'b' } }))).toBe(
      3,
    );
  });

  it('bumps once when deletion starts, only where there is a generation', () => {
    const meta: ObjectMeta = { generation: 2 };
    bumpGenerationOnDeletion(meta);
    expect(meta.generation).toBe(3);
    const deleting: ObjectMeta = { generation: 3, deletionTimestamp: '2026-01-01T00:00:00Z' };
    bumpGenerationOnDeletion(deleting);
    expect(deleting.generation).toBe(3);
    const none: ObjectMeta = {};
    bumpGenerationOnDeletion(none);
    expect(none.generation).toBeUndefined();
  });
});
