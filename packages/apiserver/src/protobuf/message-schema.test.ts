import { describe, expect, it } from 'vitest';
import { knownKinds, messageSchemas, rootMessageOf } from './kind-registry.js';
import { buildSchemas, parseFieldSpec } from './message-schema.js';

describe('schema tables', () => {
  it('parse, and every referenced message is defined', () => {
    const schemas = messageSchemas();
    expect(schemas.size).toBeGreaterThan(200);
    expect(schemas.get('core.Container')?.fields.get(1)).toMatchObject({
      json: 'name',
      keepEmpty: true,
    });
  });

  it('resolve every known kind to a root message', () => {
    for (const { apiVersion, kind } of knownKinds()) {
      expect(rootMessageOf(apiVersion, kind), `${apiVersion} ${kind}`).toBeDefined();
    }
    expect(rootMessageOf('v1', 'Nope')).toBeUndefined();
    expect(rootMessageOf('v1', 'constructor')).toBeUndefined();
    expect(rootMessageOf('__proto__', 'ConfigMap')).toBeUndefined();
  });

  it('carry the Go json tags that matter', () => {
    const field = (message: string, number: number) =>
      messageSchemas().get(message)?.fields.get(number);
    expect(field('apps.DeploymentSpec', 1)).toMatchObject({ json: 'replicas', keepEmpty: true });
    expect(field('meta.ObjectMeta', 7)).toMatchObject({ json: 'generation', keepEmpty: false });
    expect(field('core.ConfigMapKeySelector', 1)).toMatchObject({ inline: true });
    expect(field('authentication.BoundObjectReference', 4)).toMatchObject({ json: 'uid' });
    expect(field('core.Secret', 2)).toMatchObject({
      map: true,
      value: { kind: 'scalar', scalar: 'bytes' },
    });
  });
});

describe('parseFieldSpec / buildSchemas', () => {
  it('parses each notation', () => {
    expect(parseFieldSpec(3, 'ports []core.ContainerPort', 'x')).toMatchObject({
      repeated: true,
      map: false,
    });
    expect(parseFieldSpec(3, 'limits map:Quantity', 'x')).toMatchObject({
      map: true,
      value: { kind: 'wellKnown', wellKnown: 'Quantity' },
    });
    expect(parseFieldSpec(3, 'replicas int32 keep', 'x')).toMatchObject({
      keepEmpty: true,
      inline: false,
    });
  });

  it('rejects malformed tables', () => {
    expect(() => parseFieldSpec(1, 'name', 'x')).toThrow(/malformed/);
    expect(() => parseFieldSpec(1, 'name strin', 'x')).toThrow(/unknown type/);
    expect(() => parseFieldSpec(1, 'name string sometimes', 'x')).toThrow(/unknown flag/);
    expect(() => parseFieldSpec(1, 'name string inline', 'x')).toThrow(/inline/);
    expect(() => buildSchemas([{ 'a.B': { 1: 'c a.Missing' } }])).toThrow(
      /a.Missing is not defined/,
    );
    expect(() => buildSchemas([{ 'a.B': {} }, { 'a.B': {} }])).toThrow(/defined twice/);
  });
});
