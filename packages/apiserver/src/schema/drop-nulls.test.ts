import type { JSONSchemaProps } from '@ops/api';
import { describe, expect, it } from 'vitest';
import { applyDefaults } from './apply-defaults.js';
import { dropNullsForNonNullable } from './drop-nulls.js';
import { validateCustomResource } from './validate-custom-resource.js';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        image: { type: 'string' },
        enabled: { type: 'boolean', default: true },
        note: { type: 'string', nullable: true },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        items: {
          type: 'array',
          items: { type: 'object', properties: { name: { type: 'string' } } },
        },
        tags: { type: 'array', items: { type: 'string' } },
        open: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
  },
};

describe('dropNullsForNonNullable', () => {
  it('drops nulls of non-nullable fields without a default', () => {
    const object = {
      spec: {
        image: null,
        note: null,
        enabled: null,
        labels: { a: null, b: 'x' },
        items: [{ name: null }],
        open: { anything: null },
      },
    };
    dropNullsForNonNullable(schema, object);
    expect(object).toEqual({
      spec: {
        note: null,
        enabled: null,
        labels: { b: 'x' },
        items: [{}],
        open: { anything: null },
      },
    });
  });

  it('leaves nulls in arrays for validation to report', () => {
    const object = { spec: { tags: ['a', null] } };
    dropNullsForNonNullable(schema, object);
    expect(object.spec.tags).toEqual(['a', null]);
    expect(validateCustomResource(schema, object)).toEqual([
      {
        type: 'FieldValueTypeInvalid',
        field: 'spec.tags[1]',
        value: 'null',
        detail: 'spec.tags[1] in body must be of type string: "null"',
      },
    ]);
  });

  it('makes a null spec field valid, the way kube-apiserver reads it as unset', () => {
    const object = { spec: { image: null, enabled: null } };
    expect(validateCustomResource(schema, object)).toHaveLength(2);
    dropNullsForNonNullable(schema, object);
    applyDefaults(schema, object);
    expect(object).toEqual({ spec: { enabled: true } });
    expect(validateCustomResource(schema, object)).toEqual([]);
  });

  it('never throws on values of the wrong shape', () => {
    for (const value of ['text', 5, null, undefined, [null], { spec: null }, { spec: [null] }]) {
      expect(() => dropNullsForNonNullable(schema, value)).not.toThrow();
    }
    const object = { spec: null };
    dropNullsForNonNullable(schema, object);
    expect(object).toEqual({});
  });
});
