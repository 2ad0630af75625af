import { describe, expect, it } from 'vitest';
import { strategicSchemaFor } from '../patch/builtin-schemas.js';
import {
  type ApplyMapType,
  customResourceType,
  type FieldType,
  fieldTypeFromSchema,
  fieldTypeFromStrategicSchema,
  resolveType,
} from './field-type.js';

const field = (type: FieldType, ...names: string[]): FieldType => {
  let current = type;
  for (const name of names) {
    const resolved = resolveType(current, {});
    if (resolved.kind === 'list') current = resolved.item;
    else if (resolved.kind === 'map') current = resolved.field(name).type;
    else throw new Error(`no field ${name}`);
  }
  return current;
};

describe('fieldTypeFromSchema', () => {
  const type = fieldTypeFromSchema({
    type: 'object',
    properties: {
      ports: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name', 'protocol'],
        items: {
          type: 'object',
          properties: { name: { type: 'string' }, protocol: { type: 'string', default: 'TCP' } },
        },
      },
      tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
      args: { type: 'array', items: { type: 'string' } },
      selector: { type: 'object', 'x-kubernetes-map-type': 'atomic' },
      extra: { type: 'object', additionalProperties: { type: 'string' } },
      free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      size: { 'x-kubernetes-int-or-string': true },
    },
  }) as ApplyMapType;

  it('reads list types, map keys and their defaults', () => {
    expect(field(type, 'ports')).toMatchObject({
      kind: 'list',
      listType: 'map',
      keys: ['name', 'protocol'],
      keyDefaults: { protocol: 'TCP' },
    });
    expect(field(type, 'tags')).toMatchObject({ kind: 'list', listType: 'set' });
    expect(field(type, 'args')).toMatchObject({ kind: 'list', listType: 'atomic' });
    expect(field(type, 'size')).toEqual({ kind: 'scalar' });
  });

  it('tells declared properties from map entries and kept unknown fields', () => {
    expect(type.field('ports').declared).toBe(true);
    expect((field(type, 'selector') as ApplyMapType).atomic).toBe(true);
    expect((field(type, 'extra') as ApplyMapType).field('k')).toEqual({
      type: { kind: 'scalar' },
      declared: false,
    });
    expect((field(type, 'free') as ApplyMapType).field('anything').declared).toBe(false);
  });

  it('gives custom resources ObjectMeta and scalar apiVersion and kind', () => {
    const resource = customResourceType({ type: 'object', properties: {} });
    expect(field(resource, 'metadata', 'finalizers')).toMatchObject({ listType: 'set' });
    expect(field(resource, 'metadata', 'ownerReferences')).toMatchObject({ keys: ['uid'] });
    expect(resource.field('kind').type).toEqual({ kind: 'scalar' });
  });
});

describe('fieldTypeFromStrategicSchema', () => {
  const deployment = fieldTypeFromStrategicSchema(strategicSchemaFor('apps/v1', 'Deployment'));
  const containers = field(deployment, 'spec', 'template', 'spec', 'containers');

  it("makes merge-keyed lists map lists, with kube's extra keys for ports", () => {
    expect(containers).toMatchObject({ listType: 'map', keys: ['name'] });
    expect(field(containers, 'x', 'ports')).toMatchObject({
      listType: 'map',
      keys: ['containerPort', 'protocol'],
      keyDefaults: { protocol: 'TCP' },
    });
    expect(field(deployment, 'metadata', 'finalizers')).toMatchObject({ listType: 'set' });
  });

  it('treats label selectors as atomic and other structs as granular with declared fields', () => {
    expect((field(deployment, 'spec', 'selector') as ApplyMapType).atomic).toBe(true);
    const spec = resolveType(field(deployment, 'spec'), {}) as ApplyMapType;
    expect(spec.atomic).toBe(false);
    expect(spec.field('replicas').declared).toBe(true);
    expect(
      resolveType(field(deployment, 'spec', 'template', 'spec', 'tolerations'), []),
    ).toMatchObject({ listType: 'atomic' });
  });
});
