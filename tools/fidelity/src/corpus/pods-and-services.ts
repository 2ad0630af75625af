import { pod } from '@ops/envtest';
import type { FidelityScenario } from '../scenario.js';
import { useNamespace } from './use-namespace.js';

const ns = 'fidelity-pod';

/** Pods and Services: the defaults and allocations of the two kinds with the most of them. */
export const podsAndServices: FidelityScenario = {
  name: 'crud/pod-service',
  description:
    'Pod create (defaults), graceful delete; Service create (ClusterIP masked), NodePort, headless',
  async run(session) {
    await useNamespace(session, ns);
    const pods = `/api/v1/namespaces/${ns}/pods`;
    await session.send('create pod', {
      method: 'POST',
      path: pods,
      body: pod(ns, 'worker', 'busybox:1.36', { app: 'worker' }),
    });
    await session.send('get pod', { method: 'GET', path: `${pods}/worker` });
    await session.send('create pod without containers', {
      method: 'POST',
      path: pods,
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'empty' },
        spec: { containers: [] },
      },
    });
    await session.send('delete pod', { method: 'DELETE', path: `${pods}/worker` });
    const services = `/api/v1/namespaces/${ns}/services`;
    const allocated = { mask: ['body.spec.clusterIP', 'body.spec.clusterIPs'] };
    await session.send(
      'create ClusterIP service',
      {
        method: 'POST',
        path: services,
        body: {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: 'web' },
          spec: { selector: { app: 'worker' }, ports: [{ port: 80, targetPort: 8080 }] },
        },
      },
      allocated,
    );
    await session.send(
      'create NodePort service',
      {
        method: 'POST',
        path: services,
        body: {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: 'node' },
          spec: { type: 'NodePort', selector: { app: 'worker' }, ports: [{ port: 80 }] },
        },
      },
      { mask: [...allocated.mask, 'body.spec.ports.*.nodePort'] },
    );
    await session.send('create headless service', {
      method: 'POST',
      path: services,
      body: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'headless' },
        spec: { clusterIP: 'None', selector: { app: 'worker' }, ports: [{ port: 80 }] },
      },
    });
    await session.send('create service without ports', {
      method: 'POST',
      path: services,
      body: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'bad' },
        spec: { selector: { app: 'worker' } },
      },
    });
  },
};
