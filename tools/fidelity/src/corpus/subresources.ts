import { deployment } from '@ops/envtest';
import type { Scenario } from '../scenario.js';
import { resourceVersionOf } from './object-fields.js';
import { useNamespace } from './use-namespace.js';
import { useWidgets, widget, widgetsPath } from './widget-crd.js';

const ns = 'fidelity-subresources';

/** The status and scale subresources of a Deployment and of a custom resource. */
export const subresources: Scenario = {
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
    await session.send('configmap has no status subresource', {
      method: 'GET',
      path: `/api/v1/namespaces/${ns}/configmaps/none/status`,
    });
  },
};
