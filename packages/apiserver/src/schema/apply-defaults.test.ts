import type { JSONSchemaProps } from '@ops/api';
import { describe, expect, it } from 'vitest';
import { applyDefaults } from './apply-defaults.js';

const application: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['image'],
      properties: {
        enabled: { type: 'boolean', default: true },
        image: { type: 'string' },
        note: { type: 'string', nullable: true, default: 'none' },
      },
    },
  },
};

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
              weight: { type: 'integer', default: 1 },
              selector: {
                type: 'object',
                additionalProperties: { type: 'string', default: 'any' },
              },
            },
          },
        },
        ports: {
          type: 'array',
          default: [{ port: 80 }],
          items: {
            type: 'object',
            properties: {
              port: { type: 'integer' },
              protocol: { type: 'string', default: 'TCP' },
            },
          },
        },
        limits: {
          type: 'object',
          default: {},
          properties: {
            cpu: { type: 'string', default: '100m' },
            memory: { type: 'string' },
          },
        },
        tuning: {
          type: 'object',
          properties: { retries: { type: 'integer', default: 3 } },
        },
      },
    },
  },
};

describe('applyDefaults', () => {
  it('fills absent fields of an existing object', () => {
    const object: Record<string, unknown> = { kind: 'Application', spec: { image: 'nginx' } };
    applyDefaults(application, object);
    expect(object).toEqual({
      kind: 'Application',
      spec: { image: 'nginx', enabled: true, note: 'none' },
    });
  });

  it('leaves present values alone, including false and a nullable null', () => {
    const object = { spec: { image: 'nginx', enabled: false, note: null } };
    applyDefaults(application, object);
    expect(object.spec).toEqual({ image: 'nginx', enabled: false, note: null });
  });

  it('replaces a non-nullable null that has a default', () => {
    const object = { spec: { image: 'nginx', enabled: null } };
    applyDefaults(application, object);
    expect(object.spec.enabled).toBe(true);
  });

  it('does not create a missing parent without a default', () => {
    const object: Record<string, unknown> = { kind: 'Application' };
    applyDefaults(application, object);
    expect(object).toEqual({ kind: 'Application' });
    const balancerObject: Record<string, unknown> = { spec: {} };
    applyDefaults(balancer, balancerObject);
    expect(balancerObject.spec).not.toHaveProperty('tuning');
    expect(balancerObject.spec).not.toHaveProperty('backends');
  });

  it('defaults a parent with a default and then its own nested defaults', () => {
    const object: { spec: Record<string, unknown> } = { spec: {} };
    applyDefaults(balancer, object);
    expect(object.spec.limits).toEqual({ cpu: '100m' });
    expect(object.spec.ports).toEqual([{ port: 80, protocol: 'TCP' }]);
  });

  it('defaults inside array items and map values', () => {
    const object = {
      spec: {
        backends: [{ name: 'a' }, { name: 'b', weight: 7, selector: { app: 'web', tier: null } }],
        tuning: {},
      },
    };
    applyDefaults(balancer, object);
    expect(object.spec.backends).toEqual([
      { name: 'a', weight: 1 },
      { name: 'b', weight: 7, selector: { app: 'web', tier: 'any' } },
    ]);
    expect(object.spec.tuning).toEqual({ retries: 3 });
  });

  it('replaces null array items with the items default', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: {
        list: { type: 'array', items: { type: 'string', default: 'x' } },
        nullable: { type: 'array', items: { type: 'string', nullable: true, default: 'x' } },
      },
    };
    const object = { list: ['a', null], nullable: ['a', null] };
    applyDefaults(schema, object);
    expect(object).toEqual({ list: ['a', 'x'], nullable: ['a', null] });
  });

  it('deep-copies default values', () => {
    const first: { spec: Record<string, unknown> } = { spec: {} };
    const second: { spec: Record<string, unknown> } = { spec: {} };
    applyDefaults(balancer, first);
    applyDefaults(balancer, second);
    (first.spec.ports as { port: number }[])[0] = { port: 1 };
    (first.spec.limits as Record<string, string>).cpu = '1';
    expect(second.spec.ports).toEqual([{ port: 80, protocol: 'TCP' }]);
    expect(second.spec.limits).toEqual({ cpu: '100m' });
    const spec = balancer.properties?.spec?.properties;
    expect(spec?.ports?.default).toEqual([{ port: 80 }]);
    expect(spec?.limits?.default).toEqual({});
  });

  it('treats default: null as no default and ignores defaults under junctors', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: { a: { type: 'string', default: null }, b: { type: 'string' } },
      anyOf: [{ properties: { b: { default: 'x' } } }],
    };
    const object = {};
    applyDefaults(schema, object);
    expect(object).toEqual({});
  });

  it('never throws on values of the wrong shape', () => {
    for (const value of ['text', 5, null, undefined, [1, 2], { spec: 'x' }, { spec: [1] }]) {
      expect(() => applyDefaults(balancer, value)).not.toThrow();
    }
    const wrong = { spec: { backends: { name: 'a' }, limits: 'big' } };
    applyDefaults(balancer, wrong);
    expect(wrong.spec).toMatchObject({ backends: { name: 'a' }, limits: 'big' });
    expect(() => applyDefaults({ properties: [] } as unknown as JSONSchemaProps, {})).not.toThrow();
  });
});
