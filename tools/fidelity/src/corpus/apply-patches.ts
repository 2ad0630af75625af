import type { FidelityScenario } from '../scenario.js';
import { useNamespace } from './use-namespace.js';

const ns = 'fidelity-apply';
const contentType = 'application/apply-patch+yaml';

/** Server-side apply: a ConfigMap applied by two managers, with a conflict and force. */
export const applyPatches: FidelityScenario = {
  name: 'patch/apply',
  description:
    'Server-side apply: create, update, conflict between managers, force, missing fieldManager',
  async run(session) {
    await useNamespace(session, ns);
    const cm = `/api/v1/namespaces/${ns}/configmaps/applied`;
    const manifest = (data: Record<string, string>) =>
      [
        'apiVersion: v1',
        'kind: ConfigMap',
        'metadata:',
        '  name: applied',
        'data:',
        ...Object.entries(data).map(([key, value]) => `  ${key}: "${value}"`),
        '',
      ].join('\n');
    const apply = (label: string, query: string, data: Record<string, string>) =>
      session.send(label, {
        method: 'PATCH',
        path: `${cm}?${query}`,
        body: manifest(data),
        contentType,
      });
    await apply('create', 'fieldManager=alice', { color: 'blue' });
    await apply('update as the same manager', 'fieldManager=alice', {
      color: 'green',
      size: 'big',
    });
    await apply('conflict with another manager', 'fieldManager=bob', { color: 'red' });
    await apply('force the conflict', 'fieldManager=bob&force=true', { color: 'red' });
    await session.send('get', { method: 'GET', path: cm });
    await apply('without fieldManager', '', { color: 'blue' });
    await session.send('apply as JSON', {
      method: 'PATCH',
      path: `${cm}?fieldManager=carol`,
      body: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'applied' },
        data: { extra: 'x' },
      },
      contentType,
    });
  },
};
