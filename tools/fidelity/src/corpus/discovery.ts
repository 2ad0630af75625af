import type { FidelityScenario } from '../scenario.js';
import { useWidgets, widgetGroup } from './widget-crd.js';

const aggregated =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';

/** Discovery documents, plain and aggregated, with the CRD's group among them. */
export const discovery: FidelityScenario = {
  name: 'discovery/documents',
  description:
    '/version (fields only), /api, /apis, group and group-version documents, the CRD group, aggregated discovery, health',
  async run(session) {
    await useWidgets(session);
    await session.send('/version', { method: 'GET', path: '/version' }, { mask: ['body.*'] });
    // The address clients reach the server at is its port on this machine.
    const address = { mask: ['body.serverAddressByClientCIDRs.*.serverAddress'] };
    await session.send('/api', { method: 'GET', path: '/api' }, address);
    for (const path of [
      '/apis',
      '/api/v1',
      '/apis/apps',
      '/apis/apps/v1',
      '/apis/rbac.authorization.k8s.io/v1',
      '/apis/apiextensions.k8s.io/v1',
      `/apis/${widgetGroup}`,
      `/apis/${widgetGroup}/v1`,
    ]) {
      await session.send(path, { method: 'GET', path });
    }
    await session.send(
      '/api aggregated',
      { method: 'GET', path: '/api', accept: aggregated },
      address,
    );
    await session.send('/apis aggregated', { method: 'GET', path: '/apis', accept: aggregated });
    for (const path of ['/healthz', '/readyz', '/livez']) {
      await session.send(path, { method: 'GET', path, accept: '*/*' });
    }
  },
};
