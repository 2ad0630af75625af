/**
 * A custom resource type for the tests of this directory: `spec` with a scalar, an atomic
 * list, a set, an atomic map and a `map` list keyed by `name`.
 */
import { type ApplyMapType, customResourceType } from './field-type.js';

/** The type of `Widget` objects in the tests. */
export const widgetType: ApplyMapType = customResourceType({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        size: { type: 'integer' },
        color: { type: 'string' },
        args: { type: 'array', items: { type: 'string' } },
        tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
        sel: { type: 'object', 'x-kubernetes-map-type': 'atomic' },
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: {
            type: 'object',
            properties: { name: { type: 'string' }, port: { type: 'integer' } },
          },
        },
      },
    },
  },
});
