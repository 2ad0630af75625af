import { deployment, pod } from '@ops/envtest';
import type { FidelityScenario } from '../scenario.js';
import { useNamespace } from './use-namespace.js';

const ns = 'fidelity-strategic';
const contentType = 'application/strategic-merge-patch+json';

/** Strategic merge patches: lists merged by their merge keys, and the directives. */
export const strategicMergePatches: FidelityScenario = {
  name: 'patch/strategic-merge-patch',
  description:
    'Strategic merge patch: containers merged by name, $patch delete/replace, $setElementOrder, env by name, unknown directive',
  async run(session) {
    await useNamespace(session, ns);
    const deploy = `/apis/apps/v1/namespaces/${ns}/deployments/web`;
    const base = deployment(ns, 'web', 'nginx:1.27') as {
      spec: { template: { spec: { containers: Array<Record<string, unknown>> } } };
    };
    base.spec.template.spec.containers.push({
      name: 'sidecar',
      image: 'busybox:1.36',
      env: [{ name: 'A', value: '1' }],
    });
    await session.send('create deployment', {
      method: 'POST',
      path: `/apis/apps/v1/namespaces/${ns}/deployments`,
      body: base,
    });
    const patch = (label: string, path: string, body: unknown) =>
      session.send(label, { method: 'PATCH', path, body, contentType });
    await patch('merge a container by name', deploy, {
      spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.28' }] } } },
    });
    await patch('add a container', deploy, {
      spec: { template: { spec: { containers: [{ name: 'extra', image: 'busybox:1.36' }] } } },
    });
    await patch('merge env by name', deploy, {
      spec: {
        template: {
          spec: { containers: [{ name: 'sidecar', env: [{ name: 'B', value: '2' }] }] },
        },
      },
    });
    await patch('$patch delete a container', deploy, {
      spec: { template: { spec: { containers: [{ name: 'extra', $patch: 'delete' }] } } },
    });
    await patch('$setElementOrder', deploy, {
      spec: {
        template: {
          spec: {
            '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'web' }],
            containers: [{ name: 'web', image: 'nginx:1.29' }],
          },
        },
      },
    });
    await patch('$patch replace a map', deploy, {
      metadata: { labels: { $patch: 'replace', app: 'web', fresh: 'yes' } },
    });
    await patch('labels merged as a map', deploy, { metadata: { labels: { more: 'yes' } } });
    await patch('unknown directive', deploy, {
      spec: { template: { spec: { containers: [{ name: 'web', $patch: 'explode' }] } } },
    });
    const pods = `/api/v1/namespaces/${ns}/pods`;
    await session.send('create pod', {
      method: 'POST',
      path: pods,
      body: pod(ns, 'p', 'busybox:1.36'),
    });
    await patch('pod: tolerations (no merge key) replaced', `${pods}/p`, {
      spec: { tolerations: [{ key: 'k', operator: 'Exists' }] },
    });
    await patch('pod: change an immutable field', `${pods}/p`, {
      spec: { containers: [{ name: 'main', command: ['sleep', '1'] }] },
    });
  },
};
