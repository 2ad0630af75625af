import type { JSONSchemaProps } from '@ops/api';
import { describe, expect, it } from 'vitest';
import { formatFieldError } from '../../api/field-error.js';
import { compileValidationRules } from './compile-validation-rules.js';
import { validateCelRules } from './validate-cel-rules.js';

function check(schema: JSONSchemaProps, object: unknown, old?: unknown) {
  const compiled = compileValidationRules(schema);
  expect(compiled.problems).toEqual([]);
  const result = validateCelRules(compiled.root, object, old);
  return { errors: result.errors.map(formatFieldError), warnings: result.warnings };
}

const spec = (properties: Record<string, JSONSchemaProps>, rules?: unknown[]): JSONSchemaProps => ({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties,
      ...(rules
        ? { 'x-kubernetes-validations': rules as JSONSchemaProps['x-kubernetes-validations'] }
        : {}),
    },
  },
});

describe('validateCelRules', () => {
  it('reports a false rule on its node with the message, or the default one', () => {
    const schema = spec({ a: { type: 'integer' }, b: { type: 'integer' } }, [
      { rule: 'self.a < self.b', message: 'a must be less than b' },
      { rule: 'self.a != 7' },
    ]);
    expect(check(schema, { spec: { a: 7, b: 2 } }).errors).toEqual([
      'spec: Invalid value: a must be less than b',
      'spec: Invalid value: failed rule: self.a != 7',
    ]);
    expect(check(schema, { spec: { a: 1, b: 2 } }).errors).toEqual([]);
  });

  it('prints scalar values, uses messageExpression, reason and fieldPath', () => {
    const schema = spec(
      {
        name: {
          type: 'string',
          'x-kubernetes-validations': [
            { rule: 'self.size() < 4', messageExpression: "'too long: ' + self" },
          ],
        },
        ready: { type: 'boolean' },
        when: { type: 'string' },
      },
      [
        {
          rule: '!self.ready || has(self.when)',
          reason: 'FieldValueRequired',
          fieldPath: '.when',
          message: 'when is required',
        },
        { rule: 'self.ready', reason: 'FieldValueForbidden', message: 'must be ready' },
      ],
    );
    expect(check(schema, { spec: { name: 'abcdef', ready: true } }).errors).toEqual([
      'spec.when: Required value: when is required',
      'spec.name: Invalid value: "abcdef": too long: abcdef',
    ]);
    expect(check(schema, { spec: { ready: false } }).errors).toEqual([
      'spec: Forbidden: must be ready',
    ]);
  });

  it('falls back to the message when messageExpression fails or yields nothing', () => {
    const schema = spec({
      n: {
        type: 'integer',
        'x-kubernetes-validations': [
          { rule: 'self > 0', message: 'must be positive', messageExpression: "''" },
          { rule: 'self > 1', messageExpression: 'string(1 / (self - self))' },
        ],
      },
    });
    expect(check(schema, { spec: { n: 0 } }).errors).toEqual([
      'spec.n: Invalid value: 0: must be positive',
      'spec.n: Invalid value: 0: failed rule: self > 1',
    ]);
  });

  it('names the root <nil> and sees apiVersion, kind and metadata.name only', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      'x-kubernetes-validations': [
        {
          rule: "self.kind == 'Widget' && self.metadata.name.startsWith('w-')",
          message: 'bad name',
        },
        { rule: "self.metadata.uid != ''", message: 'uid is visible' },
      ],
      properties: { spec: { type: 'object' } },
    };
    const object = {
      apiVersion: 'x/v1',
      kind: 'Widget',
      metadata: { name: 'v', labels: { a: 'b' } },
    };
    expect(compileValidationRules(schema).problems.map(formatFieldError)[0]).toContain(
      "undefined field 'uid'",
    );
    const rules = compileValidationRules({
      ...schema,
      'x-kubernetes-validations': [schema['x-kubernetes-validations']?.[0] as never],
    });
    expect(validateCelRules(rules.root, object).errors.map(formatFieldError)).toEqual([
      '<nil>: Invalid value: bad name',
    ]);
  });

  it('runs rules on list items and map values, with their paths', () => {
    const schema = spec({
      ports: {
        type: 'array',
        items: {
          type: 'integer',
          'x-kubernetes-validations': [{ rule: 'self < 65536', message: 'port' }],
        },
      },
      limits: {
        type: 'object',
        additionalProperties: {
          type: 'string',
          'x-kubernetes-validations': [{ rule: "self != ''", message: 'empty' }],
        },
      },
    });
    expect(
      check(schema, { spec: { ports: [80, 70000], limits: { cpu: '', mem: '1' } } }).errors,
    ).toEqual([
      'spec.ports[1]: Invalid value: 70000: port',
      'spec.limits[cpu]: Invalid value: "": empty',
    ]);
  });

  it('skips transition rules on create and where nothing correlates; runs them on update', () => {
    const schema = spec({
      id: {
        type: 'string',
        'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'immutable' }],
      },
      items: {
        type: 'array',
        items: {
          type: 'object',
          properties: { name: { type: 'string' }, v: { type: 'integer' } },
          'x-kubernetes-validations': [{ rule: 'self.v >= oldSelf.v', message: 'v may only grow' }],
        },
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
      },
    });
    expect(check(schema, { spec: { id: 'a', items: [{ name: 'x', v: 1 }] } }).errors).toEqual([]);
    const old = {
      spec: {
        id: 'a',
        items: [
          { name: 'x', v: 2 },
          { name: 'y', v: 5 },
        ],
      },
    };
    expect(
      check(
        schema,
        {
          spec: {
            id: 'b',
            items: [
              { name: 'y', v: 1 },
              { name: 'z', v: 0 },
            ],
          },
        },
        old,
      ).errors,
    ).toEqual([
      'spec.id: Invalid value: "b": immutable',
      'spec.items[0]: Invalid value: v may only grow',
    ]);
  });

  it('binds oldSelf as an optional for optionalOldSelf rules, on create too', () => {
    const schema = spec({
      size: {
        type: 'integer',
        'x-kubernetes-validations': [
          {
            rule: '!oldSelf.hasValue() || self >= oldSelf.value()',
            optionalOldSelf: true,
            message: 'grow only',
          },
          { rule: 'oldSelf.orValue(0) <= 10', optionalOldSelf: true, message: 'was small' },
        ],
      },
    });
    expect(check(schema, { spec: { size: 1 } }).errors).toEqual([]);
    expect(check(schema, { spec: { size: 1 } }, { spec: { size: 2 } }).errors).toEqual([
      'spec.size: Invalid value: 1: grow only',
    ]);
    expect(check(schema, { spec: { size: 30 } }, { spec: { size: 20 } }).errors).toEqual([
      'spec.size: Invalid value: 30: was small',
    ]);
  });

  it('ratchets: an unchanged value that breaks a rule only warns on update', () => {
    const schema = spec({
      name: {
        type: 'string',
        'x-kubernetes-validations': [{ rule: "self.matches('^[a-z]+$')", message: 'lowercase' }],
      },
      other: { type: 'string' },
    });
    const old = { spec: { name: 'ABC', other: 'a' } };
    expect(check(schema, { spec: { name: 'ABC', other: 'b' } }, old)).toEqual({
      errors: [],
      warnings: ['spec.name: Invalid value: "ABC": lowercase'],
    });
    expect(check(schema, { spec: { name: 'ABD', other: 'b' } }, old).errors).toEqual([
      'spec.name: Invalid value: "ABD": lowercase',
    ]);
    expect(check(schema, { spec: { name: 'ABC' } }).errors).toEqual([
      'spec.name: Invalid value: "ABC": lowercase',
    ]);
  });

  it('reports evaluation errors as kube-apiserver does', () => {
    const schema = spec({
      n: { type: 'integer', 'x-kubernetes-validations': [{ rule: '10 / self > 1' }] },
      v: { 'x-kubernetes-int-or-string': true, 'x-kubernetes-validations': [{ rule: 'self > 1' }] },
    });
    const errors = check(schema, { spec: { n: 0, v: 'x' } }).errors;
    expect(errors[0]).toMatch(
      /^spec\.n: Invalid value: "integer": .*division by zero.* evaluating rule: 10 \/ self > 1$/i,
    );
    expect(errors[1]).toMatch(
      /^spec\.v: Invalid value: "": 'no such overload.*': call arguments did not match a supported operator, function or macro signature for rule: self > 1$/,
    );
  });

  it('sees escaped property names, int-or-string values and skips nulls', () => {
    const schema = spec(
      {
        'max-surge': { 'x-kubernetes-int-or-string': true },
        namespace: { type: 'string' },
        opt: { type: 'string', nullable: true, 'x-kubernetes-validations': [{ rule: 'false' }] },
      },
      [
        { rule: "self.max__dash__surge == 1 || self.max__dash__surge == '25%'", message: 'surge' },
        { rule: "self.__namespace__ == 'ns'", message: 'ns' },
      ],
    );
    expect(check(schema, { spec: { 'max-surge': 1, namespace: 'ns', opt: null } }).errors).toEqual(
      [],
    );
    expect(check(schema, { spec: { 'max-surge': '25%', namespace: 'ns' } }).errors).toEqual([]);
    expect(check(schema, { spec: { 'max-surge': 2, namespace: 'x' } }).errors).toEqual([
      'spec: Invalid value: surge',
      'spec: Invalid value: ns',
    ]);
  });

  it('compares doubles and integers, and objects by value', () => {
    const schema = spec({
      ratio: {
        type: 'number',
        'x-kubernetes-validations': [{ rule: 'self <= 1.0 && self > 0.0', message: 'ratio' }],
      },
      inner: {
        type: 'object',
        properties: { a: { type: 'integer' } },
        'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'inner is immutable' }],
      },
    });
    expect(
      check(
        schema,
        { spec: { ratio: 1, inner: { a: 1 } } },
        { spec: { ratio: 0.5, inner: { a: 1 } } },
      ).errors,
    ).toEqual([]);
    expect(
      check(schema, { spec: { ratio: 2, inner: { a: 2 } } }, { spec: { inner: { a: 1 } } }).errors,
    ).toEqual([
      'spec.ratio: Invalid value: 2: ratio',
      'spec.inner: Invalid value: inner is immutable',
    ]);
  });

  it('returns nothing without rules', () => {
    expect(validateCelRules(undefined, { spec: {} })).toEqual({ errors: [], warnings: [] });
  });

  it('sees date-time, duration and byte strings as timestamps, durations and bytes', () => {
    const schema = spec(
      {
        start: { type: 'string', format: 'date-time' },
        end: { type: 'string', format: 'date-time' },
        timeout: { type: 'string', format: 'duration' },
        key: { type: 'string', format: 'byte' },
      },
      [
        { rule: 'self.start + self.timeout <= self.end', message: 'too late' },
        { rule: "self.timeout < duration('1h')", message: 'timeout' },
        { rule: 'self.key.size() == 3', message: 'key' },
      ],
    );
    const object = (end: string, timeout: string) => ({
      spec: { start: '2024-01-01T00:00:00Z', end, timeout, key: 'YWJj' },
    });
    expect(check(schema, object('2024-01-01T00:30:00Z', '30m')).errors).toEqual([]);
    expect(check(schema, object('2024-01-01T00:10:00Z', '2h')).errors).toEqual([
      'spec: Invalid value: too late',
      'spec: Invalid value: timeout',
    ]);
  });
});
