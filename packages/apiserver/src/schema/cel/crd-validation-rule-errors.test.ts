import { describe, expect, it } from 'vitest';
import { crdValidationRuleErrors } from './crd-validation-rule-errors.js';

const version = (name: string, rule: string) => ({
  name,
  served: true,
  storage: name === 'v1',
  schema: {
    openAPIV3Schema: {
      type: 'object',
      properties: { spec: { type: 'object', 'x-kubernetes-validations': [{ rule }] } },
    },
  },
});

const field = 'properties[spec].x-kubernetes-validations[0].rule';

describe('crdValidationRuleErrors', () => {
  it('reports a schema shared by every version once, under spec.validation', () => {
    const errors = crdValidationRuleErrors([version('v1', 'self.x'), version('v2', 'self.x')]);
    expect(errors.map((e) => e.field)).toEqual([`spec.validation.openAPIV3Schema.${field}`]);
  });

  it('reports differing schemas under each version', () => {
    const errors = crdValidationRuleErrors([version('v1', 'self.x'), version('v2', 'self.y')]);
    expect(errors.map((e) => e.field)).toEqual([
      `spec.versions[0].schema.openAPIV3Schema.${field}`,
      `spec.versions[1].schema.openAPIV3Schema.${field}`,
    ]);
  });

  it('accepts valid rules and ignores malformed versions', () => {
    expect(crdValidationRuleErrors([version('v1', 'self == oldSelf')])).toEqual([]);
    expect(crdValidationRuleErrors([null, { name: 'v1' }])).toEqual([]);
  });

  it('names the uncorrelatable list by its full path', () => {
    const errors = crdValidationRuleErrors([
      {
        name: 'v1',
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              l: {
                type: 'array',
                items: {
                  type: 'string',
                  'x-kubernetes-validations': [{ rule: 'self == oldSelf' }],
                },
              },
            },
          },
        },
      },
    ]);
    expect(errors).toEqual([
      {
        type: 'FieldValueInvalid',
        field:
          'spec.validation.openAPIV3Schema.properties[l].items.x-kubernetes-validations[0].rule',
        value: 'self == oldSelf',
        detail:
          'oldSelf cannot be used on the uncorrelatable portion of the schema within spec.validation.openAPIV3Schema.properties[l]',
      },
    ]);
  });
});
