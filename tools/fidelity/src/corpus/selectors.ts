import { pod } from '@ops/envtest';
import type { FidelityScenario } from '../scenario.js';
import { seedConfigMaps } from './seed-config-maps.js';
import { useNamespace } from './use-namespace.js';
import { useWidgets, widget, widgetsPath } from './widget-crd.js';

const ns = 'fidelity-selector';

/** Label and field selectors on lists. */
export const selectors: FidelityScenario = {
  name: 'list/selectors',
  description:
    'Label selectors (=, ==, !=, in, notin, exists, !exists, several), field selectors (name, namespace, Pod fields, CRD selectable fields), invalid ones',
  async run(session) {
    await useNamespace(session, ns);
    await useWidgets(session);
    await seedConfigMaps(session, ns, {
      a: { env: 'prod', tier: 'web' },
      b: { env: 'dev', tier: 'web' },
      c: { env: 'prod' },
      d: {},
    });
    for (const [path, body] of [
      [`/api/v1/namespaces/${ns}/pods`, pod(ns, 'worker', 'busybox:1.36')],
      [widgetsPath(ns), widget('small', { size: 'small' })],
      [widgetsPath(ns), widget('large', { size: 'large' })],
    ] as const) {
      const answer = await session.probe({ method: 'POST', path, body });
      if (answer.status !== 201)
        throw new Error(
          `selector scenario: could not create at ${path}: ${answer.status} ${JSON.stringify(answer.body)}`,
        );
    }
    const configMaps = `/api/v1/namespaces/${ns}/configmaps`;
    const list = (label: string, path: string, query: Record<string, string>) =>
      session.send(label, { method: 'GET', path: `${path}?${new URLSearchParams(query)}` });
    for (const selector of [
      'env=prod',
      'env==prod',
      'env!=prod',
      'env in (prod,dev)',
      'env notin (prod)',
      'tier',
      '!tier',
      'env=prod,tier=web',
      'env in (prod),!tier',
    ]) {
      await list(`labelSelector ${selector}`, configMaps, { labelSelector: selector });
    }
    await list('labelSelector invalid', configMaps, { labelSelector: 'env in prod' });
    await list('labelSelector invalid value', configMaps, { labelSelector: 'env=not valid' });
    await list('fieldSelector metadata.name', configMaps, { fieldSelector: 'metadata.name=a' });
    await list('fieldSelector metadata.name!=', configMaps, { fieldSelector: 'metadata.name!=a' });
    await list('fieldSelector metadata.namespace, cluster-wide', '/api/v1/configmaps', {
      fieldSelector: `metadata.namespace=${ns}`,
      labelSelector: 'env',
    });
    await list('fieldSelector and labelSelector', configMaps, {
      fieldSelector: 'metadata.name!=a',
      labelSelector: 'env=prod',
    });
    await list('fieldSelector unknown field', configMaps, { fieldSelector: 'data.key=a' });
    for (const [label, fieldSelector] of [
      ['without an operator', 'metadata.name'],
      ['with an invalid escape', 'metadata.name=a\\b'],
      ['with an escaped !', 'metadata.name!=a\\!b'],
      ['ending in a backslash', 'metadata.name=a\\'],
      ['with an unescaped =', 'metadata.name=a=b'],
      ['with an escaped comma', 'metadata.name=a\\,b'],
      ['with empty terms', ',metadata.name=a,'],
      ['with spaces around the operator', ' metadata.name = a'],
    ] as const) {
      await list(`fieldSelector ${label}`, configMaps, { fieldSelector });
    }
    const pods = `/api/v1/namespaces/${ns}/pods`;
    await list('pods by status.phase', pods, { fieldSelector: 'status.phase=Pending' });
    await list('pods by spec.nodeName', pods, { fieldSelector: 'spec.nodeName=' });
    await list('pods by spec.restartPolicy', pods, { fieldSelector: 'spec.restartPolicy=Always' });
    await list('widgets by a selectable field', widgetsPath(ns), {
      fieldSelector: 'spec.size=small',
    });
    await list('widgets by metadata.name', widgetsPath(ns), {
      fieldSelector: 'metadata.name=large',
    });
    await list('widgets by an unselectable field', widgetsPath(ns), {
      fieldSelector: 'spec.color=blue',
    });
  },
};
