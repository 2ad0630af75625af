import type { KubernetesObject } from '@ops/api';
import { describe, expect, it } from 'vitest';
import { StatusError } from '../../api/status-error.js';
import { builtinResources } from '../../registry/builtin-resources.js';
import type { ResourceType } from '../../registry/resource-type.js';
import { scaleOf } from './scale-subresource.js';

const deployments = builtinResources().find((t) => t.plural === 'deployments') as ResourceType;
const pools: ResourceType = {
  ...deployments,
  group: 'example.com',
  kind: 'Pool',
  plural: 'pools',
  custom: true,
  scalePaths: {
    specReplicasPath: '.spec.size',
    statusReplicasPath: '.status.ready',
    labelSelectorPath: '.status.labels',
  },
};
const pool = (fields: Record<string, unknown>): KubernetesObject => ({
  apiVersion: 'example.com/v1',
  kind: 'Pool',
  metadata: { name: 'p', namespace: 'default', resourceVersion: '7' },
  ...fields,
});

/** The Status a call throws. */
function statusOf(call: () => unknown) {
  try {
    call();
  } catch (error) {
    if (StatusError.isInstance(error)) return { code: error.code, ...error.toStatus() };
    throw error;
  }
  throw new Error('expected a StatusError');
}

describe('scaleOf', () => {
  it("reads a custom resource's Scale from its CRD's paths", () => {
    expect(
      scaleOf(pools, pool({ spec: { size: 3, replicas: 8 }, status: { ready: 2, labels: 'a=b' } })),
    ).toEqual({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: { name: 'p', namespace: 'default', resourceVersion: '7' },
      spec: { replicas: 3 },
      status: { replicas: 2, selector: 'a=b' },
    });
  });

  it('reads a missing status path as 0 and leaves a missing selector out (omitempty)', () => {
    expect(scaleOf(pools, pool({ spec: { size: 1 } }))).toMatchObject({
      spec: { replicas: 1 },
      status: { replicas: 0 },
    });
    expect(scaleOf(pools, pool({ spec: { size: 1 } })).status).toEqual({ replicas: 0 });
  });

  it('reads a built-in from spec.replicas, status.replicas and spec.selector', () => {
    const scale = scaleOf(deployments, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: { replicas: 2, size: 9, selector: { matchLabels: { app: 'd' } } },
      status: { replicas: 1 },
    });
    expect(scale).toMatchObject({
      spec: { replicas: 2 },
      status: { replicas: 1, selector: 'app=d' },
    });
  });

  it('answers 500 InternalError when the spec replicas path holds nothing', () => {
    expect(statusOf(() => scaleOf(pools, pool({ spec: {} })))).toMatchObject({
      code: 500,
      reason: 'InternalError',
      message: 'Internal error occurred: the spec replicas field ".spec.size" does not exist',
    });
  });

  it("passes on apimachinery's accessor errors for values of the wrong type, without a reason", () => {
    const wrongType = statusOf(() => scaleOf(pools, pool({ spec: { size: 'big' } })));
    expect(wrongType).toEqual({
      code: 500,
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: '.spec.size accessor error: big is of the type string, expected int64',
    });
    expect(statusOf(() => scaleOf(pools, pool({ spec: { size: 1.5 } }))).message).toBe(
      '.spec.size accessor error: 1.5 is of the type float64, expected int64',
    );
    expect(statusOf(() => scaleOf(pools, pool({ spec: 'x' }))).message).toBe(
      '.spec.size accessor error: x is of the type string, expected map[string]interface{}',
    );
    expect(
      statusOf(() => scaleOf(pools, pool({ spec: { size: 1 }, status: { labels: { a: 'b' } } })))
        .message,
    ).toBe(
      '.status.labels accessor error: map[a:b] is of the type map[string]interface {}, expected string',
    );
  });
});
