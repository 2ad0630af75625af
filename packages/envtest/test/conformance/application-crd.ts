/** The Application CRD of the application-operator tutorial, as the suites install it. */
export const applicationCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'applications.core.crd.lixueduan.com' },
  spec: {
    group: 'core.crd.lixueduan.com',
    scope: 'Namespaced',
    names: {
      plural: 'applications',
      singular: 'application',
      kind: 'Application',
      listKind: 'ApplicationList',
      shortNames: ['app'],
    },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        additionalPrinterColumns: [
          { name: 'Image', type: 'string', jsonPath: '.spec.image' },
          { name: 'Ready', type: 'boolean', jsonPath: '.status.ready' },
        ],
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              apiVersion: { type: 'string' },
              kind: { type: 'string' },
              metadata: { type: 'object' },
              spec: {
                type: 'object',
                required: ['image'],
                properties: {
                  enabled: { type: 'boolean', default: true },
                  image: { type: 'string' },
                  replicas: { type: 'integer', minimum: 0, maximum: 10 },
                },
              },
              status: { type: 'object', properties: { ready: { type: 'boolean' } } },
            },
          },
        },
      },
    ],
  },
};
