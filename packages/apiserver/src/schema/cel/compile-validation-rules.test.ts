import type { JSONSchemaProps } from '@ops/api';
import { describe, expect, it } from 'vitest';
import { formatFieldError } from '../../api/field-error.js';
import {
  compileValidationRules,
  normalizeFieldPath,
  usesOldSelf,
} from './compile-validation-rules.js';

const schemaWith = (
  rules: unknown[],
  extra: Record<string, JSONSchemaProps> = {},
): JSONSchemaProps => ({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        a: { type: 'integer' },
        s: { type: 'string' },
        m: {
          type: 'object',
          additionalProperties: { type: 'object', properties: { x: { type: 'integer' } } },
        },
        l: { type: 'array', items: { type: 'string' } },
        ...extra,
      },
      'x-kubernetes-validations': rules as JSONSchemaProps['x-kubernetes-validations'],
    },
  },
});

const problems = (rules: unknown[], extra?: Record<string, JSONSchemaProps>) =>
  compileValidationRules(schemaWith(rules, extra)).problems.map(formatFieldError);

const at = 'properties[spec].x-kubernetes-validations[0]';

describe('compileValidationRules', () => {
  it('accepts rules that type-check to bool against the declared types', () => {
    expect(
      problems([
        { rule: 'self.a > 1 && self.s.startsWith("x")' },
        { rule: "self.m.all(k, self.m[k].x >= 0) && self.l.exists(i, i == 'a')" },
        { rule: 'self == oldSelf' },
        { rule: '[1, 2].sum() == 3 && self.s.find("[0-9]+") != "" && self.l.isSorted()' },
        { rule: 'self.?a.orValue(0) >= 0' },
        { rule: '!oldSelf.hasValue() || self.a >= oldSelf.value().a', optionalOldSelf: true },
        { rule: 'self.a > 1', messageExpression: "'a is ' + string(self.a)" },
        { rule: "quantity(self.s).isLessThan(quantity('1Gi')) && isQuantity(self.s)" },
      ]),
    ).toEqual([]);
  });

  it('words compile errors as cel-go does, with the rule as kube-apiserver prints it', () => {
    expect(problems([{ rule: 'self.nope > 1' }])).toEqual([
      `${at}.rule: Invalid value: {"Rule":"self.nope \\u003e 1","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: compilation failed: ERROR: <input>:1:5: undefined field 'nope'\n | self.nope > 1\n | ....^`,
    ]);
    expect(problems([{ rule: 'self.a == "x"' }])[0]).toContain(
      "ERROR: <input>:1:8: found no matching overload for '_==_' applied to '(int, string)'\n | self.a == \"x\"\n | .......^",
    );
    expect(problems([{ rule: 'self.s.foo()' }])[0]).toContain(
      "ERROR: <input>:1:11: undeclared reference to 'foo' (in container '')\n | self.s.foo()\n | ..........^",
    );
    expect(problems([{ rule: 'self.a >' }])[0]).toContain(
      'compilation failed: ERROR: <input>:1:9: Syntax error: ',
    );
    expect(problems([{ rule: 'self.a + 1' }])[0]).toMatch(
      /\.rule: Invalid value: \{.*\}: cel expression must evaluate to a bool$/,
    );
    expect(problems([{ rule: 'self.s.isSemver()' }])[0]).toContain(
      "undeclared reference to 'isSemver'",
    );
  });

  it('refuses has() of an undeclared field, as cel-go does', () => {
    expect(problems([{ rule: "self.s == 'has(self.x)' || has(self.zzz)" }])[0]).toContain(
      "compilation failed: ERROR: <input>:1:31: undefined field 'zzz'\n | self.s == 'has(self.x)' || has(self.zzz)\n | ..............................^",
    );
    expect(problems([{ rule: 'has(self.s) && self.l.all(i, has(i.x) || true)' }])).toEqual([]);
  });

  it('locates errors on later lines', () => {
    expect(problems([{ rule: 'self.a > 1 &&\n  self.zz', message: 'm' }])[0]).toContain(
      "ERROR: <input>:2:7: undefined field 'zz'\n |   self.zz\n | ......^",
    );
  });

  it('checks messageExpression, reason, fieldPath, optionalOldSelf and multi-line rules', () => {
    expect(problems([{ rule: 'self.a > 1', messageExpression: 'self.a' }])).toEqual([
      `${at}.messageExpression: Invalid value: {"Rule":"self.a \\u003e 1","Message":"","MessageExpression":"self.a","Reason":null,"FieldPath":"","OptionalOldSelf":null}: messageExpression must evaluate to a string`,
    ]);
    expect(problems([{ rule: 'true', messageExpression: 'self.b' }])[0]).toContain(
      "messageExpression compilation failed: ERROR: <input>:1:5: undefined field 'b'",
    );
    expect(problems([{ rule: 'self.a > 1', reason: 'Nope' }])).toEqual([
      `${at}.reason: Unsupported value: "Nope": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
    ]);
    expect(problems([{ rule: 'self.a > 1', fieldPath: '.nope' }])).toEqual([
      `${at}.fieldPath: Invalid value: ".nope": must be a valid path`,
    ]);
    expect(problems([{ rule: 'self.a > 1', optionalOldSelf: true }])).toEqual([
      `${at}.optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule`,
    ]);
    expect(problems([{ rule: 'self.a > 1\n|| true' }])).toEqual([
      `${at}.message: Required value: message must be specified if rule contains line breaks`,
    ]);
    expect(
      problems([
        {
          rule: 'self.a > 1',
          reason: 'FieldValueForbidden',
          fieldPath: ".m['k'].x",
          optionalOldSelf: false,
        },
      ]),
    ).toEqual([]);
  });

  it('checks messages: non-empty and on one line', () => {
    expect(problems([{ rule: 'true', message: '  ' }])).toEqual([
      `${at}.message: Invalid value: "  ": must be non-empty if specified`,
    ]);
    expect(problems([{ rule: 'true', message: 'a\nb' }])).toEqual([
      `${at}.message: Invalid value: "a\\nb": must not contain line breaks`,
    ]);
  });

  it('refuses oldSelf under the items of lists other than map lists', () => {
    const transition = {
      type: 'string',
      'x-kubernetes-validations': [{ rule: 'self == oldSelf' }],
    };
    expect(
      problems([], {
        l: { type: 'array', items: transition as JSONSchemaProps },
        keyed: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['k'],
          items: {
            type: 'object',
            properties: { k: { type: 'string' }, v: transition as JSONSchemaProps },
            'x-kubernetes-validations': [{ rule: 'self.v == oldSelf.v' }],
          },
        },
      }),
    ).toEqual([
      'properties[spec].properties[l].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within properties[spec].properties[l]',
    ]);
  });

  it('words field selection on a scalar as cel-go does', () => {
    expect(problems([{ rule: 'true', messageExpression: 'self.s.nope' }])[0]).toContain(
      "messageExpression compilation failed: ERROR: <input>:1:7: type 'string' does not support field selection\n | self.s.nope\n | ......^",
    );
  });

  it('finds rules under items, additionalProperties and nested properties', () => {
    const result = compileValidationRules(
      schemaWith([], {
        list: {
          type: 'array',
          items: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self.nope' }] },
        },
        map: {
          type: 'object',
          additionalProperties: {
            type: 'integer',
            'x-kubernetes-validations': [{ rule: 'self > 0' }],
          },
        },
      }),
    );
    expect(result.problems.map((p) => p.field)).toEqual([
      'properties[spec].properties[list].items.x-kubernetes-validations[0].rule',
    ]);
    expect(
      result.root?.properties.get('spec')?.properties.get('map')?.additionalProperties?.rules,
    ).toHaveLength(1);
  });

  it('returns no tree for a schema without rules', () => {
    expect(
      compileValidationRules({ type: 'object', properties: { spec: { type: 'object' } } }),
    ).toEqual({ problems: [] });
  });
});

describe('usesOldSelf', () => {
  it('finds oldSelf outside string literals only', () => {
    expect(usesOldSelf('self == oldSelf')).toBe(true);
    expect(usesOldSelf('oldSelf.hasValue()')).toBe(true);
    expect(usesOldSelf("self == 'oldSelf'")).toBe(false);
    expect(usesOldSelf('self.oldSelf == 1')).toBe(false);
  });
});

describe('normalizeFieldPath', () => {
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: {
      a: { type: 'object', properties: { b: { type: 'string' } } },
      m: { type: 'object', additionalProperties: { type: 'string' } },
      'x.y': { type: 'string' },
    },
  };
  it('follows properties and map keys as kube-apiserver does', () => {
    expect(normalizeFieldPath('.a.b', schema)).toBe('a.b');
    expect(normalizeFieldPath(".m['k.1']", schema)).toBe('m[k.1]');
    expect(normalizeFieldPath('.m.key', schema)).toBe('m[key]');
    expect(normalizeFieldPath("['x.y']", schema)).toBe('x.y');
  });
  it('refuses paths that name no field', () => {
    expect(normalizeFieldPath('.c', schema)).toBeUndefined();
    expect(normalizeFieldPath('.a.b.c', schema)).toBeUndefined();
    expect(normalizeFieldPath('a', schema)).toBeUndefined();
    expect(normalizeFieldPath('.a[0]', schema)).toBeUndefined();
  });
});
