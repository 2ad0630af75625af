import { deployment } from '@ops/envtest';
import type { FidelityScenario } from '../scenario.js';
import { resourceVersionOf } from './object-fields.js';
import { useNamespace } from './use-namespace.js';
import {
  useCustomResourceDefinition,
  useWidgets,
  widget,
  widgetGroup,
  widgetsPath,
} from './widget-crd.js';

const ns = 'fidelity-subresources';

/**
 * A CRD whose `/scale` reads and writes other paths than `.spec.replicas`: the replicas at
 * `.spec.size`, the observed ones at `.status.ready`, the selector at `.status.labels`.
 */
const poolCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `pools.${widgetGroup}` },
  spec: {
    group: widgetGroup,
    scope: 'Namespaced',
    names: { plural: 'pools', singular: 'pool', kind: 'Pool', listKind: 'PoolList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: {
          status: {},
          scale: {
            specReplicasPath: '.spec.size',
            statusReplicasPath: '.status.ready',
            labelSelectorPath: '.status.labels',
          },
        },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: { size: { type: 'integer' }, replicas: { type: 'integer' } },
              },
              status: {
                type: 'object',
                properties: { ready: { type: 'integer' }, labels: { type: 'string' } },
              },
            },
          },
        },
      },
    ],
  },
};

/** The status and scale subresources of a Deployment and of a custom resource. */
export const subresources: FidelityScenario = {
  name: 'subresource/status-scale',
  description:
    'Deployment and Widget /status (writes only status) and /scale (get, update, patch, invalid)',
  async run(session) {
    await useNamespace(session, ns);
    await useWidgets(session);
    const deploy = `/apis/apps/v1/namespaces/${ns}/deployments/web`;
    const created = await session.send('create deployment', {
      method: 'POST',
      path: `/apis/apps/v1/namespaces/${ns}/deployments`,
      body: deployment(ns, 'web', 'nginx:1.27'),
    });
    const withStatus = {
      ...(created.body as Record<string, unknown>),
      spec: { ...(created.body as { spec?: object }).spec, replicas: 7 },
      status: { replicas: 1, readyReplicas: 1, observedGeneration: 1 },
    };
    await session.send('deployment: update status', {
      method: 'PUT',
      path: `${deploy}/status`,
      body: withStatus,
    });
    await session.send('deployment: get status', { method: 'GET', path: `${deploy}/status` });
    await session.send('deployment: merge-patch status', {
      method: 'PATCH',
      path: `${deploy}/status`,
      body: { status: { availableReplicas: 1 } },
      contentType: 'application/merge-patch+json',
    });
    const scale = await session.send('deployment: get scale', {
      method: 'GET',
      path: `${deploy}/scale`,
    });
    await session.send('deployment: update scale', {
      method: 'PUT',
      path: `${deploy}/scale`,
      body: {
        apiVersion: 'autoscaling/v1',
        kind: 'Scale',
        metadata: { name: 'web', namespace: ns, resourceVersion: resourceVersionOf(scale) },
        spec: { replicas: 4 },
      },
    });
    await session.send('deployment: merge-patch scale', {
      method: 'PATCH',
      path: `${deploy}/scale`,
      body: { spec: { replicas: 2 } },
      contentType: 'application/merge-patch+json',
    });
    await session.send('deployment: negative scale', {
      method: 'PATCH',
      path: `${deploy}/scale`,
      body: { spec: { replicas: -2 } },
      contentType: 'application/merge-patch+json',
    });
    await session.send('deployment: get after status and scale writes', {
      method: 'GET',
      path: deploy,
    });
    const widgets = widgetsPath(ns);
    const made = await session.send('widget: create', {
      method: 'POST',
      path: widgets,
      body: widget('w', { size: 'small', replicas: 1 }),
    });
    await session.send('widget: update status', {
      method: 'PUT',
      path: `${widgets}/w/status`,
      body: {
        ...(made.body as Record<string, unknown>),
        spec: { size: 'large', replicas: 1 },
        status: { phase: 'Ready', replicas: 1, selector: 'app=w' },
      },
    });
    await session.send('widget: invalid status', {
      method: 'PATCH',
      path: `${widgets}/w/status`,
      body: { status: { replicas: 'many' } },
      contentType: 'application/merge-patch+json',
    });
    await session.send('widget: get scale', { method: 'GET', path: `${widgets}/w/scale` });
    await session.send('widget: merge-patch scale', {
      method: 'PATCH',
      path: `${widgets}/w/scale`,
      body: { spec: { replicas: 3 } },
      contentType: 'application/merge-patch+json',
    });
    await session.send('widget: scale beyond the schema maximum', {
      method: 'PATCH',
      path: `${widgets}/w/scale`,
      body: { spec: { replicas: 50 } },
      contentType: 'application/merge-patch+json',
    });
    await session.send('widget: get after', { method: 'GET', path: `${widgets}/w` });
    const pools = `/apis/${widgetGroup}/v1/namespaces/${ns}/pools`;
    await useCustomResourceDefinition(session, poolCrd, pools);
    const pool = (name: string, spec: Record<string, unknown>) => ({
      apiVersion: `${widgetGroup}/v1`,
      kind: 'Pool',
      metadata: { name },
      spec,
    });
    await session.send('pool: create', {
      method: 'POST',
      path: pools,
      body: pool('p', { size: 2, replicas: 9 }),
    });
    await session.send('pool: get scale (specReplicasPath .spec.size, no status)', {
      method: 'GET',
      path: `${pools}/p/scale`,
    });
    await session.send('pool: merge-patch status', {
      method: 'PATCH',
      path: `${pools}/p/status`,
      body: { status: { ready: 1, labels: 'app=p' } },
      contentType: 'application/merge-patch+json',
    });
    const poolScale = await session.send('pool: get scale after status', {
      method: 'GET',
      path: `${pools}/p/scale`,
    });
    await session.send('pool: update scale', {
      method: 'PUT',
      path: `${pools}/p/scale`,
      body: { ...(poolScale.body as Record<string, unknown>), spec: { replicas: 4 } },
    });
    await session.send('pool: merge-patch scale', {
      method: 'PATCH',
      path: `${pools}/p/scale`,
      body: { spec: { replicas: 5 } },
      contentType: 'application/merge-patch+json',
    });
    await session.send('pool: get after scale writes', { method: 'GET', path: `${pools}/p` });
    await session.send('pool: create without size', {
      method: 'POST',
      path: pools,
      body: pool('empty', { replicas: 1 }),
    });
    await session.send('pool: get scale without size', {
      method: 'GET',
      path: `${pools}/empty/scale`,
    });
    await session.send('pool: patch scale leaving replicas unset', {
      method: 'PATCH',
      path: `${pools}/empty/scale`,
      body: { metadata: { labels: { a: 'b' } } },
      contentType: 'application/merge-patch+json',
    });
    await session.send('configmap has no status subresource', {
      method: 'GET',
      path: `/api/v1/namespaces/${ns}/configmaps/none/status`,
    });
  },
};
