import type { Session } from '../scenario.js';

/** The group of the corpus's own CustomResourceDefinition. */
export const widgetGroup = 'fidelity.ops.dev';

/**
 * The Widget CRD the custom-resource scenarios use: namespaced, with a structural schema
 * (required, enum, minimum/maximum, maxItems, defaults), status and scale subresources,
 * printer columns, a short name, a category and a selectable field.
 */
export const widgetCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `widgets.${widgetGroup}` },
  spec: {
    group: widgetGroup,
    scope: 'Namespaced',
    names: {
      plural: 'widgets',
      singular: 'widget',
      kind: 'Widget',
      listKind: 'WidgetList',
      shortNames: ['wd'],
      categories: ['fidelity'],
    },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: {
          status: {},
          scale: {
            specReplicasPath: '.spec.replicas',
            statusReplicasPath: '.status.replicas',
            labelSelectorPath: '.status.selector',
          },
        },
        additionalPrinterColumns: [
          { name: 'Size', type: 'string', jsonPath: '.spec.size' },
          { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
          { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
        ],
        selectableFields: [{ jsonPath: '.spec.size' }],
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              apiVersion: { type: 'string' },
              kind: { type: 'string' },
              metadata: { type: 'object' },
              spec: {
                type: 'object',
                required: ['size'],
                properties: {
                  size: { type: 'string', enum: ['small', 'large'] },
                  replicas: { type: 'integer', minimum: 0, maximum: 5, default: 1 },
                  color: { type: 'string', default: 'blue' },
                  tags: { type: 'array', maxItems: 3, items: { type: 'string' } },
                },
              },
              status: {
                type: 'object',
                properties: {
                  replicas: { type: 'integer' },
                  selector: { type: 'string' },
                  phase: { type: 'string' },
                },
              },
            },
          },
        },
      },
    ],
  },
};

/** The collection path of Widgets in `namespace`. */
export function widgetsPath(namespace: string): string {
  return `/apis/${widgetGroup}/v1/namespaces/${namespace}/widgets`;
}

/** A Widget with `spec`. */
export function widget(
  name: string,
  spec: Record<string, unknown>,
  labels?: Record<string, string>,
) {
  return {
    apiVersion: `${widgetGroup}/v1`,
    kind: 'Widget',
    metadata: { name, ...(labels ? { labels } : {}) },
    spec,
  };
}

/**
 * Installs the Widget CRD when it is not there yet and waits, without recording, until the
 * server serves widgets (kube-apiserver establishes a CRD moments after answering its create).
 *
 * @throws {Error} when the CRD is refused, or not served within 30 s.
 */
export async function useWidgets(session: Session): Promise<void> {
  await useCustomResourceDefinition(session, widgetCrd, widgetsPath('default'));
}

/**
 * Installs `crd` when it is not there yet and waits, without recording, until `listPath`
 * (a collection of its resource) answers 200.
 *
 * @throws {Error} when the CRD is refused, or not served within 30 s.
 */
export async function useCustomResourceDefinition(
  session: Session,
  crd: { metadata: { name: string } },
  listPath: string,
): Promise<void> {
  const created = await session.probe({
    method: 'POST',
    path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
    body: crd,
  });
  if (created.status !== 201 && created.status !== 409)
    throw new Error(
      `the CRD ${crd.metadata.name} was refused: ${created.status} ${JSON.stringify(created.body)}`,
    );
  const deadline = Date.now() + 30_000;
  for (;;) {
    const list = await session.probe({ method: 'GET', path: listPath });
    if (list.status === 200) return;
    if (Date.now() > deadline)
      throw new Error(
        `${listPath} was not served within 30 s: ${list.status} ${JSON.stringify(list.body)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
