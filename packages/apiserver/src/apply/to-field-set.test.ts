import { describe, expect, it } from 'vitest';
import { strategicSchemaFor } from '../patch/builtin-schemas.js';
import { customResourceType, fieldTypeFromStrategicSchema } from './field-type.js';
import { toFieldSet } from './to-field-set.js';

describe('toFieldSet', () => {
  it('gives what kube-apiserver records for an applied Deployment', () => {
    const type = fieldTypeFromStrategicSchema(strategicSchemaFor('apps/v1', 'Deployment'));
    const config = {
      metadata: { labels: { app: 'd1' } },
      spec: {
        selector: { matchLabels: { app: 'd1' } },
        template: {
          metadata: { labels: { app: 'd1' } },
          spec: {
            containers: [
              {
                name: 'c',
                image: 'nginx',
                ports: [{ containerPort: 80 }],
                env: [{ name: 'A', value: 'b' }],
              },
            ],
          },
        },
      },
    };
    // As kube-apiserver 1.37 recorded the same apply (fieldManager "me").
    expect(toFieldSet(config, type).toFieldsV1()).toEqual({
      'f:metadata': { 'f:labels': { 'f:app': {} } },
      'f:spec': {
        'f:selector': {},
        'f:template': {
          'f:metadata': { 'f:labels': { 'f:app': {} } },
          'f:spec': {
            'f:containers': {
              'k:{"name":"c"}': {
                '.': {},
                'f:env': { 'k:{"name":"A"}': { '.': {}, 'f:name': {}, 'f:value': {} } },
                'f:image': {},
                'f:name': {},
                'f:ports': {
                  'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} },
                },
              },
            },
          },
        },
      },
    });
  });

  it('makes map entries and kept unknown objects members, empty maps leaves', () => {
    const type = customResourceType({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            extra: { type: 'object', additionalProperties: { type: 'object', properties: {} } },
            free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
            empty: { type: 'object' },
            tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
          },
        },
      },
    });
    const set = toFieldSet(
      { spec: { extra: { k: { x: 'y' } }, free: { q: { r: 1 }, l: [1] }, empty: {}, tags: ['a'] } },
      type,
    );
    expect(set.toFieldsV1()).toEqual({
      'f:spec': {
        'f:empty': {},
        'f:extra': { 'f:k': { '.': {}, 'f:x': {} } },
        'f:free': { 'f:l': {}, 'f:q': { '.': {}, 'f:r': {} } },
        'f:tags': { 'v:"a"': {} },
      },
    });
  });

  it('refuses two items with the same key, naming the list', () => {
    const type = fieldTypeFromStrategicSchema(strategicSchemaFor('v1', 'Pod'));
    expect(() =>
      toFieldSet({ spec: { containers: [{ name: 'a' }, { name: 'a' }] } }, type),
    ).toThrow('.spec.containers: duplicate entries for key [name="a"]');
  });
});
