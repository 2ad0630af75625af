import { deployment, pod } from '@ops/envtest';
import type { FidelityScenario } from '../scenario.js';
import { seedConfigMaps } from './seed-config-maps.js';
import { useNamespace } from './use-namespace.js';
import { useWidgets, widget, widgetsPath } from './widget-crd.js';

const ns = 'fidelity-table';
const table = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';

/** Table output as kubectl asks for it, with built-in and CRD printer columns. */
export const tables: FidelityScenario = {
  name: 'table/printer-columns',
  description:
    'Tables of ConfigMaps, Deployments, Pods, Namespaces and Widgets (printer columns); includeObject; one object',
  async run(session) {
    await useNamespace(session, ns);
    await useWidgets(session);
    await seedConfigMaps(session, ns, { one: { tier: 'a' }, two: {} });
    for (const [path, body] of [
      [`/apis/apps/v1/namespaces/${ns}/deployments`, deployment(ns, 'web', 'nginx:1.27')],
      [`/api/v1/namespaces/${ns}/pods`, pod(ns, 'worker', 'busybox:1.36')],
      [widgetsPath(ns), widget('w', { size: 'small' })],
    ] as const) {
      const answer = await session.probe({ method: 'POST', path, body });
      if (answer.status !== 201)
        throw new Error(
          `table scenario: could not create at ${path}: ${answer.status} ${JSON.stringify(answer.body)}`,
        );
    }
    const get = (label: string, path: string) =>
      session.send(label, { method: 'GET', path, accept: table });
    await get('configmaps', `/api/v1/namespaces/${ns}/configmaps`);
    await get('one configmap', `/api/v1/namespaces/${ns}/configmaps/one`);
    await get(
      'configmaps, includeObject=Object',
      `/api/v1/namespaces/${ns}/configmaps?includeObject=Object`,
    );
    await get(
      'configmaps, includeObject=None',
      `/api/v1/namespaces/${ns}/configmaps?includeObject=None`,
    );
    await get('configmaps, limit=1', `/api/v1/namespaces/${ns}/configmaps?limit=1`);
    await get('deployments', `/apis/apps/v1/namespaces/${ns}/deployments`);
    await get('pods', `/api/v1/namespaces/${ns}/pods`);
    await get('the namespace', `/api/v1/namespaces/${ns}`);
    await get('widgets', widgetsPath(ns));
    await get('one widget', `${widgetsPath(ns)}/w`);
    await get('missing object', `/api/v1/namespaces/${ns}/configmaps/missing`);
  },
};
