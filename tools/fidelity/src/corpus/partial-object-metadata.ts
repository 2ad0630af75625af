import type { FidelityScenario } from '../scenario.js';
import { resourceVersionOf } from './object-fields.js';
import { seedConfigMaps } from './seed-config-maps.js';
import { useNamespace } from './use-namespace.js';
import { useWidgets, widget, widgetsPath } from './widget-crd.js';

const ns = 'fidelity-metadata';
const collection = `/api/v1/namespaces/${ns}/configmaps`;
/** What client-go's metadata client asks for one object, and for a watch. */
const asObject = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';
/** What client-go's metadata client asks for a list. */
const asList = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
/** The same with the plain JSON fallback, as client-go sends it. */
const asObjectOrJson = `${asObject},application/json`;

/**
 * Metadata-only reads (`metav1.PartialObjectMetadata`), as controller-runtime's
 * `OnlyMetadata` watches and client-go's metadata client send them: get, list and watch
 * with `Accept: application/json;as=PartialObjectMetadata[List];g=meta.k8s.io;v=v1`, the
 * wrong form for the verb (406), and a custom resource.
 */
export const partialObjectMetadata: FidelityScenario = {
  name: 'metadata/partial-object-metadata',
  description:
    'as=PartialObjectMetadata and as=PartialObjectMetadataList (g=meta.k8s.io, v=v1) on get, list (paged) and watch of ConfigMaps and Widgets; the wrong form for the verb',
  async run(session) {
    await useNamespace(session, ns);
    await useWidgets(session);
    await seedConfigMaps(session, ns, { one: { tier: 'a' }, two: { tier: 'b' } });
    const created = await session.probe({
      method: 'POST',
      path: widgetsPath(ns),
      body: widget('w', { size: 'small' }),
    });
    if (created.status !== 201)
      throw new Error(
        `metadata scenario: could not create a Widget: ${created.status} ${JSON.stringify(created.body)}`,
      );
    const get = (label: string, path: string, accept: string) =>
      session.send(label, { method: 'GET', path, accept });
    await get('get a configmap as metadata', `${collection}/one`, asObject);
    await get('get a configmap as metadata, JSON fallback', `${collection}/one`, asObjectOrJson);
    await get('get a missing configmap as metadata', `${collection}/missing`, asObject);
    await get('get a configmap as a metadata list (406)', `${collection}/one`, asList);
    await get('list configmaps as metadata', collection, asList);
    await get(
      'list configmaps as metadata, by label',
      `${collection}?labelSelector=tier%3Da`,
      asList,
    );
    await get('list configmaps as metadata, limit=1', `${collection}?limit=1`, asList);
    await get('list configmaps as metadata objects (406)', collection, asObject);
    await get('get a widget as metadata', `${widgetsPath(ns)}/w`, asObject);
    await get('list widgets as metadata', widgetsPath(ns), asList);
    const before = await session.probe({ method: 'GET', path: collection });
    for (const step of [
      { method: 'PUT', path: `${collection}/one`, body: configMapBody('one', '2') },
      { method: 'DELETE', path: `${collection}/two` },
    ] as const) {
      const answer = await session.probe(step);
      if (answer.status >= 300)
        throw new Error(
          `metadata scenario: ${step.method} ${step.path} answered ${answer.status} ${JSON.stringify(answer.body)}`,
        );
    }
    const stream = (label: string, query: string, accept: string) =>
      session.send(label, {
        method: 'GET',
        path: `${collection}?watch=true&timeoutSeconds=1&${query}`,
        accept,
        stream: true,
      });
    await stream(
      'watch as metadata, replay',
      `resourceVersion=${resourceVersionOf(before)}`,
      asObject,
    );
    await stream('watch as metadata, current state', '', asObject);
    await stream(
      'watch as metadata, initial events and bookmark',
      'sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan',
      asObject,
    );
    await stream(
      'watch as a metadata list',
      `resourceVersion=${resourceVersionOf(before)}`,
      asList,
    );
  },
};

function configMapBody(name: string, value: string) {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: ns, labels: { tier: 'a' } },
    data: { key: value },
  };
}
