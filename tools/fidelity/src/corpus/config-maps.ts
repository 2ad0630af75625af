import { configMap } from '@ops/envtest';
import type { FidelityScenario } from '../scenario.js';
import { nameOf, resourceVersionOf, withResourceVersion } from './object-fields.js';
import { useNamespace } from './use-namespace.js';

const ns = 'fidelity-configmap';
const collection = `/api/v1/namespaces/${ns}/configmaps`;

/** ConfigMaps: the whole life of a simple built-in object. */
export const configMaps: FidelityScenario = {
  name: 'crud/configmap',
  description:
    'ConfigMap create, get, update, no-op update, generateName, dry run, preconditions, immutable, delete',
  async run(session) {
    await useNamespace(session, ns);
    const created = await session.send('create', {
      method: 'POST',
      path: collection,
      body: configMap(ns, 'settings', { color: 'blue' }, { app: 'fidelity' }),
    });
    await session.send('get', { method: 'GET', path: `${collection}/settings` });
    const updated = await session.send('update', {
      method: 'PUT',
      path: `${collection}/settings`,
      body: withResourceVersion(
        configMap(ns, 'settings', { color: 'green' }, { app: 'fidelity' }),
        resourceVersionOf(created),
      ),
    });
    await session.send('no-op update', {
      method: 'PUT',
      path: `${collection}/settings`,
      body: withResourceVersion(
        configMap(ns, 'settings', { color: 'green' }, { app: 'fidelity' }),
        resourceVersionOf(updated),
      ),
    });
    await session.send('update without resourceVersion', {
      method: 'PUT',
      path: `${collection}/settings`,
      body: configMap(ns, 'settings', { color: 'red' }),
    });
    const generated = await session.send('create with generateName', {
      method: 'POST',
      path: collection,
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'gen-' }, data: {} },
    });
    await session.send('get the generated one', {
      method: 'GET',
      path: `${collection}/${nameOf(generated)}`,
    });
    await session.send('create, dry run', {
      method: 'POST',
      path: `${collection}?dryRun=All`,
      body: configMap(ns, 'dry', { a: '1' }),
    });
    await session.send('get the dry-run one', { method: 'GET', path: `${collection}/dry` });
    await session.send('create with binaryData', {
      method: 'POST',
      path: collection,
      body: { ...configMap(ns, 'binary', { text: 'x' }), binaryData: { blob: 'AAEC' } },
    });
    await session.send('create immutable', {
      method: 'POST',
      path: collection,
      body: { ...configMap(ns, 'frozen', { a: '1' }), immutable: true },
    });
    await session.send('update immutable data', {
      method: 'PUT',
      path: `${collection}/frozen`,
      body: { ...configMap(ns, 'frozen', { a: '2' }), immutable: true },
    });
    await session.send('delete with a stale uid precondition', {
      method: 'DELETE',
      path: `${collection}/settings`,
      body: {
        apiVersion: 'v1',
        kind: 'DeleteOptions',
        preconditions: { uid: '00000000-0000-0000-0000-000000000000' },
      },
    });
    await session.send('delete', { method: 'DELETE', path: `${collection}/settings` });
    await session.send('get after delete', { method: 'GET', path: `${collection}/settings` });
    await session.send('delete again', { method: 'DELETE', path: `${collection}/settings` });
    await session.send('delete collection by label', {
      method: 'DELETE',
      path: `${collection}?labelSelector=app%3Dnone`,
    });
  },
};
