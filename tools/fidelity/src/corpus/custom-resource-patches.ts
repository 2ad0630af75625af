import type { FidelityScenario } from '../scenario.js';
import { useNamespace } from './use-namespace.js';
import { useWidgets, widget, widgetGroup, widgetsPath } from './widget-crd.js';

const ns = 'fidelity-widget-patch';

/** Every patch type on a custom resource. */
export const customResourcePatches: FidelityScenario = {
  name: 'custom-resource/patch',
  description:
    'Widget JSON patch, merge patch, strategic merge patch (unsupported on CRs), apply, invalid result',
  async run(session) {
    await useWidgets(session);
    await useNamespace(session, ns);
    const path = `${widgetsPath(ns)}/target`;
    await session.send('create', {
      method: 'POST',
      path: widgetsPath(ns),
      body: widget('target', { size: 'small', tags: ['a'] }),
    });
    const patch = (label: string, contentType: string, body: unknown, query = '') =>
      session.send(label, { method: 'PATCH', path: `${path}${query}`, body, contentType });
    await patch('json patch', 'application/json-patch+json', [
      { op: 'add', path: '/spec/tags/-', value: 'b' },
      { op: 'replace', path: '/spec/size', value: 'large' },
    ]);
    await patch('merge patch', 'application/merge-patch+json', {
      spec: { color: 'red', tags: ['z'] },
    });
    await patch('merge patch to an invalid object', 'application/merge-patch+json', {
      spec: { replicas: 99 },
    });
    await patch('merge patch removing a defaulted field', 'application/merge-patch+json', {
      spec: { color: null },
    });
    await patch('strategic merge patch', 'application/strategic-merge-patch+json', {
      spec: { color: 'green' },
    });
    await patch(
      'apply',
      'application/apply-patch+yaml',
      `apiVersion: ${widgetGroup}/v1\nkind: Widget\nmetadata:\n  name: target\nspec:\n  size: small\n`,
      '?fieldManager=fidelity',
    );
    await patch('json patch with a failing test', 'application/json-patch+json', [
      { op: 'test', path: '/spec/size', value: 'medium' },
    ]);
  },
};
