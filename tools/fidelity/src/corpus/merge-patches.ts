import { configMap, deployment } from '@ops/envtest';
import type { FidelityScenario } from '../scenario.js';
import { useNamespace } from './use-namespace.js';

const ns = 'fidelity-merge-patch';
const contentType = 'application/merge-patch+json';

/** RFC 7386 merge patches on built-in kinds. */
export const mergePatches: FidelityScenario = {
  name: 'patch/merge-patch',
  description:
    'Merge patch: add, null removes, lists replaced whole, resourceVersion precondition, malformed body',
  async run(session) {
    await useNamespace(session, ns);
    const cm = `/api/v1/namespaces/${ns}/configmaps/target`;
    await session.send('create configmap', {
      method: 'POST',
      path: `/api/v1/namespaces/${ns}/configmaps`,
      body: configMap(ns, 'target', { a: '1', b: '2' }, { app: 'fidelity' }),
    });
    const patch = (label: string, path: string, body: unknown) =>
      session.send(label, { method: 'PATCH', path, body, contentType });
    await patch('add and change', cm, { data: { a: 'one', c: '3' } });
    await patch('null removes', cm, { data: { b: null }, metadata: { labels: { app: null } } });
    await patch('stale resourceVersion', cm, {
      metadata: { resourceVersion: '1' },
      data: { d: '4' },
    });
    await patch('change the name', cm, { metadata: { name: 'renamed' } });
    await patch('malformed body', cm, '{"data": ');
    const deploy = `/apis/apps/v1/namespaces/${ns}/deployments/web`;
    await session.send('create deployment', {
      method: 'POST',
      path: `/apis/apps/v1/namespaces/${ns}/deployments`,
      body: deployment(ns, 'web', 'nginx:1.27'),
    });
    await patch('deployment: containers replaced whole', deploy, {
      spec: { template: { spec: { containers: [{ name: 'other', image: 'busybox:1.36' }] } } },
    });
    await patch('deployment: replicas', deploy, { spec: { replicas: 5 } });
    await patch('deployment: invalid replicas', deploy, { spec: { replicas: -1 } });
  },
};
