import { deployment } from '@ops/envtest';
import type { FidelityScenario } from '../scenario.js';
import { resourceVersionOf, withResourceVersion } from './object-fields.js';
import { useNamespace } from './use-namespace.js';

const ns = 'fidelity-deployment';
const collection = `/apis/apps/v1/namespaces/${ns}/deployments`;

/** Deployments: defaulting of a rich built-in kind, and generation on spec changes. */
export const deployments: FidelityScenario = {
  name: 'crud/deployment',
  description:
    'Deployment create (defaults), get, spec and metadata updates (generation), delete with Orphan',
  async run(session) {
    await useNamespace(session, ns);
    const created = await session.send('create', {
      method: 'POST',
      path: collection,
      body: deployment(ns, 'web', 'nginx:1.27', 2),
    });
    await session.send('get', { method: 'GET', path: `${collection}/web` });
    const scaled = await session.send('update spec', {
      method: 'PUT',
      path: `${collection}/web`,
      body: withResourceVersion(deployment(ns, 'web', 'nginx:1.27', 3), resourceVersionOf(created)),
    });
    await session.send('update metadata only', {
      method: 'PUT',
      path: `${collection}/web`,
      body: withResourceVersion(
        {
          ...deployment(ns, 'web', 'nginx:1.27', 3),
          metadata: { name: 'web', namespace: ns, labels: { app: 'web', tier: 'front' } },
        },
        resourceVersionOf(scaled),
      ),
    });
    await session.send('update with a changed selector', {
      method: 'PUT',
      path: `${collection}/web`,
      body: {
        ...deployment(ns, 'web', 'nginx:1.27', 3),
        spec: {
          replicas: 3,
          selector: { matchLabels: { app: 'other' } },
          template: {
            metadata: { labels: { app: 'other' } },
            spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] },
          },
        },
      },
    });
    await session.send('delete with Orphan', {
      method: 'DELETE',
      path: `${collection}/web`,
      body: { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: 'Orphan' },
    });
    await session.send('get after delete', { method: 'GET', path: `${collection}/web` });
  },
};
