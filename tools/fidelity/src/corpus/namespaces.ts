import { namespace } from '@ops/envtest';
import type { FidelityScenario } from '../scenario.js';
import { resourceVersionOf } from './object-fields.js';

const name = 'fidelity-namespace';
const path = `/api/v1/namespaces/${name}`;

/** Namespaces: create, read, relabel, delete (no namespace controller on either server). */
export const namespaces: FidelityScenario = {
  name: 'crud/namespace',
  description: 'Namespace create, get, list by label, update, delete, get while terminating',
  async run(session) {
    await session.send('create', {
      method: 'POST',
      path: '/api/v1/namespaces',
      body: namespace(name, { team: 'fidelity' }),
    });
    const got = await session.send('get', { method: 'GET', path });
    await session.send('get kube-system', {
      method: 'GET',
      path: '/api/v1/namespaces/kube-system',
    });
    await session.send('list by label', {
      method: 'GET',
      path: '/api/v1/namespaces?labelSelector=team%3Dfidelity',
    });
    await session.send('update labels', {
      method: 'PUT',
      path,
      body: {
        ...namespace(name, { team: 'fidelity', tier: 'test' }),
        metadata: {
          name,
          labels: { team: 'fidelity', tier: 'test' },
          resourceVersion: resourceVersionOf(got),
        },
      },
    });
    await session.send('delete', { method: 'DELETE', path });
    await session.send('get while terminating', { method: 'GET', path });
    await session.send('create in a terminating namespace', {
      method: 'POST',
      path: `${path}/configmaps`,
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'late' } },
    });
  },
};
