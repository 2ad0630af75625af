import type { FidelityScenario } from '../scenario.js';
import { continueOf, resourceVersionOf } from './object-fields.js';
import { seedConfigMaps } from './seed-config-maps.js';
import { useNamespace } from './use-namespace.js';

const ns = 'fidelity-list';

/** Lists: paging, resourceVersion semantics, cluster-wide lists. */
export const lists: FidelityScenario = {
  name: 'list/paging-resource-version',
  description:
    'List, limit/continue pages, remainingItemCount, resourceVersion 0/Exact/NotOlderThan, bad continue, cluster-wide',
  async run(session) {
    await useNamespace(session, ns);
    await seedConfigMaps(session, ns, {
      alpha: { 'fidelity-list': 'yes' },
      bravo: { 'fidelity-list': 'yes' },
      charlie: { 'fidelity-list': 'yes' },
      delta: { 'fidelity-list': 'yes' },
      echo: {},
    });
    const collection = `/api/v1/namespaces/${ns}/configmaps`;
    const all = await session.send('list', { method: 'GET', path: collection });
    const first = await session.send('page 1 of limit=2', {
      method: 'GET',
      path: `${collection}?limit=2`,
    });
    const second = await session.send('page 2', {
      method: 'GET',
      path: `${collection}?limit=2&continue=${encodeURIComponent(continueOf(first))}`,
    });
    await session.send('page 3', {
      method: 'GET',
      path: `${collection}?limit=2&continue=${encodeURIComponent(continueOf(second))}`,
    });
    await session.send('limit with a label selector', {
      method: 'GET',
      path: `${collection}?limit=3&labelSelector=fidelity-list%3Dyes`,
    });
    await session.send('resourceVersion=0', {
      method: 'GET',
      path: `${collection}?resourceVersion=0`,
    });
    await session.send('resourceVersion=0 with limit', {
      method: 'GET',
      path: `${collection}?resourceVersion=0&limit=1`,
    });
    const version = resourceVersionOf(all);
    await session.send('resourceVersionMatch=Exact', {
      method: 'GET',
      path: `${collection}?resourceVersion=${version}&resourceVersionMatch=Exact`,
    });
    await session.send('resourceVersionMatch=NotOlderThan', {
      method: 'GET',
      path: `${collection}?resourceVersion=${version}&resourceVersionMatch=NotOlderThan`,
    });
    await session.send('resourceVersionMatch without resourceVersion', {
      method: 'GET',
      path: `${collection}?resourceVersionMatch=Exact`,
    });
    await session.send('resourceVersion not a number', {
      method: 'GET',
      path: `${collection}?resourceVersion=abc&resourceVersionMatch=Exact`,
    });
    await session.send('a malformed continue token', {
      method: 'GET',
      path: `${collection}?limit=2&continue=not-a-token`,
    });
    await session.send('cluster-wide with a label selector', {
      method: 'GET',
      path: '/api/v1/configmaps?labelSelector=fidelity-list%3Dyes',
    });
    await session.send('cluster-wide with limit', {
      method: 'GET',
      path: '/api/v1/configmaps?labelSelector=fidelity-list%3Dyes&limit=1',
    });
  },
};
