import type { FidelityScenario } from '../scenario.js';
import { useWidgets, widgetCrd, widgetGroup } from './widget-crd.js';

const crds = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/** The CRD itself: its create answer, its status once established, invalid CRDs. */
export const customResourceDefinitions: FidelityScenario = {
  name: 'custom-resource/definition',
  description:
    'CRD create answer, established CRD, duplicate, wrong name, missing and non-structural schemas',
  async run(session) {
    await session.send('create', { method: 'POST', path: crds, body: widgetCrd });
    await useWidgets(session);
    await session.send(
      'get once established',
      { method: 'GET', path: `${crds}/${widgetCrd.metadata.name}` },
      { unordered: ['body.status.conditions'] },
    );
    await session.send('create again', { method: 'POST', path: crds, body: widgetCrd });
    await session.send('create with a name not plural.group', {
      method: 'POST',
      path: crds,
      body: { ...widgetCrd, metadata: { name: 'gadgets.wrong.example' } },
    });
    await session.send('create without a schema', {
      method: 'POST',
      path: crds,
      body: {
        ...widgetCrd,
        metadata: { name: `things.${widgetGroup}` },
        spec: {
          ...widgetCrd.spec,
          names: { plural: 'things', singular: 'thing', kind: 'Thing', listKind: 'ThingList' },
          versions: [{ name: 'v1', served: true, storage: true }],
        },
      },
    });
    await session.send('create a non-structural schema', {
      method: 'POST',
      path: crds,
      body: {
        ...widgetCrd,
        metadata: { name: `blobs.${widgetGroup}` },
        spec: {
          ...widgetCrd.spec,
          names: { plural: 'blobs', singular: 'blob', kind: 'Blob', listKind: 'BlobList' },
          versions: [
            {
              name: 'v1',
              served: true,
              storage: true,
              schema: { openAPIV3Schema: { type: 'object', properties: { spec: {} } } },
            },
          ],
        },
      },
    });
  },
};
