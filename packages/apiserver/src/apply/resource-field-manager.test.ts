import { describe, expect, it } from 'vitest';
import { builtinResources } from '../registry/builtin-resources.js';
import { applyToObject, managedFieldsOnWrite } from './resource-field-manager.js';

const deployments = builtinResources().find((type) => type.plural === 'deployments');
const write = (manager: string, subresource = '') => ({
  manager,
  subresource,
  now: '2026-01-01T00:00:00Z',
});

describe('managed fields of a built-in resource', () => {
  if (deployments === undefined) throw new Error('deployments are built in');
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd', namespace: 'default' },
    spec: {
      replicas: 1,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%' } },
      template: {
        metadata: { labels: { app: 'd' } },
        spec: { containers: [{ name: 'c', image: 'x' }] },
      },
    },
  };

  it("on create, owns the zero value's structs only through their fields, as kube does", () => {
    const managed = managedFieldsOnWrite(
      deployments,
      undefined,
      deployment,
      undefined,
      write('kubectl-create'),
    );
    expect(managed).toEqual([
      {
        manager: 'kubectl-create',
        operation: 'Update',
        apiVersion: 'apps/v1',
        time: '2026-01-01T00:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:spec': {
            'f:replicas': {},
            'f:strategy': { 'f:rollingUpdate': { '.': {}, 'f:maxSurge': {} }, 'f:type': {} },
            'f:template': {
              'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
              'f:spec': {
                'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:image': {}, 'f:name': {} } },
              },
            },
          },
        },
      },
    ]);
  });

  it("keeps a writer's own managedFields on the main resource and `[{}]` clears them", () => {
    const live = {
      ...deployment,
      metadata: {
        ...deployment.metadata,
        managedFields: managedFieldsOnWrite(
          deployments,
          undefined,
          deployment,
          undefined,
          write('a'),
        ),
      },
    };
    expect(managedFieldsOnWrite(deployments, live, deployment, [{}], write('b'))).toEqual([]);
    expect(managedFieldsOnWrite(deployments, live, deployment, undefined, write('b'))).toEqual(
      live.metadata.managedFields,
    );
  });

  it('gives an object nobody recorded a before-first-apply owner, so apply conflicts with it', () => {
    expect(() =>
      applyToObject(
        deployments,
        deployment,
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'd' },
          spec: { replicas: 3 },
        },
        false,
        write('me'),
      ),
    ).toThrow(
      'Apply failed with 1 conflict: conflict with "before-first-apply" using apps/v1: .spec.replicas',
    );
  });
});
