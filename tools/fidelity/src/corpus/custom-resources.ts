import type { FidelityScenario } from '../scenario.js';
import { resourceVersionOf } from './object-fields.js';
import { useNamespace } from './use-namespace.js';
import { useWidgets, widget, widgetsPath } from './widget-crd.js';

const ns = 'fidelity-widgets';

/** Custom resources: CRUD with defaulting, pruning and structural-schema validation. */
export const customResources: FidelityScenario = {
  name: 'custom-resource/crud',
  description:
    'Widget create (defaults, pruning), get, list, update, validation errors, unknown fields, delete',
  async run(session) {
    await useWidgets(session);
    await useNamespace(session, ns);
    const collection = widgetsPath(ns);
    const created = await session.send('create with defaults', {
      method: 'POST',
      path: collection,
      body: widget('one', { size: 'small' }, { app: 'fidelity' }),
    });
    await session.send('get', { method: 'GET', path: `${collection}/one` });
    await session.send('list', { method: 'GET', path: collection });
    await session.send('update', {
      method: 'PUT',
      path: `${collection}/one`,
      body: {
        ...widget('one', { size: 'large', replicas: 3 }, { app: 'fidelity' }),
        metadata: {
          name: 'one',
          labels: { app: 'fidelity' },
          resourceVersion: resourceVersionOf(created),
        },
      },
    });
    await session.send('update status through the main resource', {
      method: 'PUT',
      path: `${collection}/one`,
      body: { ...widget('one', { size: 'large', replicas: 3 }), status: { phase: 'Ready' } },
    });
    await session.send('create with unknown fields (pruned)', {
      method: 'POST',
      path: collection,
      body: { ...widget('pruned', { size: 'small', extra: 'x' }), other: 1 },
    });
    await session.send('create with unknown fields, fieldValidation=Strict', {
      method: 'POST',
      path: `${collection}?fieldValidation=Strict`,
      body: widget('strict', { size: 'small', extra: 'x' }),
    });
    await session.send('create with unknown fields, fieldValidation=Warn', {
      method: 'POST',
      path: `${collection}?fieldValidation=Warn`,
      body: widget('warned', { size: 'small', extra: 'x' }),
    });
    await session.send('create missing a required field', {
      method: 'POST',
      path: collection,
      body: widget('missing', { replicas: 1 }),
    });
    await session.send('create with several invalid fields', {
      method: 'POST',
      path: collection,
      body: widget('invalid', { size: 'huge', replicas: 9, tags: ['a', 'b', 'c', 'd'], color: 7 }),
    });
    await session.send('create with the wrong kind', {
      method: 'POST',
      path: collection,
      body: { ...widget('wrong', { size: 'small' }), kind: 'Gadget' },
    });
    await session.send('create in a missing namespace', {
      method: 'POST',
      path: widgetsPath('fidelity-nowhere'),
      body: widget('lost', { size: 'small' }),
    });
    await session.send('delete', { method: 'DELETE', path: `${collection}/one` });
    await session.send('get after delete', { method: 'GET', path: `${collection}/one` });
  },
};
