import type { JSONSchemaProps } from '@ops/api';
import { describe, expect, it } from 'vitest';
import { pruneUnknownFields } from './prune-unknown-fields.js';

const balancer: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        backends: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              selector: { type: 'object', additionalProperties: { type: 'string' } },
              options: {
                type: 'object',
                additionalProperties: {
                  type: 'object',
                  properties: { value: { type: 'string' } },
                },
              },
            },
          },
        },
        targetPort: { 'x-kubernetes-int-or-string': true },
        extra: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: { known: { type: 'object', properties: { a: { type: 'string' } } } },
        },
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: { spec: { type: 'object', properties: { replicas: { type: 'integer' } } } },
        },
        raw: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-preserve-unknown-fields': true,
        },
      },
    },
    status: { type: 'object', properties: { ready: { type: 'boolean' } } },
  },
};

describe('pruneUnknownFields', () => {
  it('keeps the root apiVersion, kind and metadata and drops unknown root fields', () => {
    const object: Record<string, unknown> = {
      apiVersion: 'net.example.com/v1',
      kind: 'Balancer',
      metadata: { name: 'x', unknownMeta: 1 },
      spec: {},
      extraTop: true,
    };
    expect(pruneUnknownFields(balancer, object)).toEqual(['extraTop']);
    expect(object).toEqual({
      apiVersion: 'net.example.com/v1',
      kind: 'Balancer',
      metadata: { name: 'x', unknownMeta: 1 },
      spec: {},
    });
  });

  it('drops unknown nested fields and reports their paths', () => {
    const object = {
      spec: {
        foo: 1,
        backends: [
          { name: 'a', weight: 3 },
          { name: 'b', selector: { app: 'web' }, options: { x: { value: 'v', junk: 1 } } },
        ],
      },
      status: { ready: true, phase: 'Up' },
    };
    expect(pruneUnknownFields(balancer, object)).toEqual([
      'spec.foo',
      'spec.backends[0].weight',
      'spec.backends[1].options.x.junk',
      'status.phase',
    ]);
    expect(object).toEqual({
      spec: {
        backends: [
          { name: 'a' },
          { name: 'b', selector: { app: 'web' }, options: { x: { value: 'v' } } },
        ],
      },
      status: { ready: true },
    });
  });

  it('keeps unknown fields under x-kubernetes-preserve-unknown-fields, pruning known ones inside', () => {
    const object = {
      spec: { extra: { anything: { deep: [1, { x: 2 }] }, known: { a: 'x', b: 'y' } } },
    };
    expect(pruneUnknownFields(balancer, object)).toEqual(['spec.extra.known.b']);
    expect(object.spec.extra).toEqual({ anything: { deep: [1, { x: 2 }] }, known: { a: 'x' } });
  });

  it('keeps apiVersion, kind and metadata of embedded resources', () => {
    const object = {
      spec: {
        template: {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'web', labels: { app: 'web' } },
          spec: { replicas: 2, paused: false },
          status: {},
        },
        raw: { apiVersion: 'v1', kind: 'ConfigMap', data: { a: 'b' } },
      },
    };
    expect(pruneUnknownFields(balancer, object)).toEqual([
      'spec.template.spec.paused',
      'spec.template.status',
    ]);
    expect(object.spec.template).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', labels: { app: 'web' } },
      spec: { replicas: 2 },
    });
    expect(object.spec.raw).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', data: { a: 'b' } });
  });

  it('leaves scalars and int-or-string values alone, but prunes objects where scalars belong', () => {
    const object = { spec: { targetPort: 'http', backends: [{ name: { first: 'a' } }] } };
    expect(pruneUnknownFields(balancer, object)).toEqual(['spec.backends[0].name.first']);
    expect(object.spec).toEqual({ targetPort: 'http', backends: [{ name: {} }] });
  });

  it('keeps every key of a map and prunes objects inside additionalProperties: true', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: { labels: { type: 'object', additionalProperties: true } },
    };
    const object = { labels: { a: 'x', b: { c: 1 } } };
    expect(pruneUnknownFields(schema, object)).toEqual(['labels.b.c']);
    expect(object).toEqual({ labels: { a: 'x', b: {} } });
  });

  it('keeps everything under a root with x-kubernetes-preserve-unknown-fields', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
    };
    const object = { kind: 'K', spec: { anything: true } };
    expect(pruneUnknownFields(schema, object)).toEqual([]);
    expect(object).toEqual({ kind: 'K', spec: { anything: true } });
  });

  it('never throws on values of the wrong shape', () => {
    for (const value of ['text', 5, null, undefined, [1, { a: 1 }]]) {
      expect(() => pruneUnknownFields(balancer, value)).not.toThrow();
    }
    expect(pruneUnknownFields(balancer, [{ a: 1 }])).toEqual(['[0].a']);
    const wrong = { spec: { backends: { name: 'a' }, extra: 'scalar' } };
    expect(pruneUnknownFields(balancer, wrong)).toEqual(['spec.backends.name']);
    expect(wrong).toEqual({ spec: { backends: {}, extra: 'scalar' } });
    const object = { spec: { a: 1 } };
    expect(pruneUnknownFields('nonsense' as unknown as JSONSchemaProps, object)).toEqual(['spec']);
  });
});
