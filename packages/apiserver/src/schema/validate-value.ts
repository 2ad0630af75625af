import { isJsonObject, jsonEqual } from '@ops/api';
/**
 * OpenAPI schema validation of one JSON value, as kube-openapi's `SchemaValidator` does it for
 * kube-apiserver, with its errors converted to field errors the way apiextensions-apiserver
 * converts them (`kubeOpenAPIResultToFieldErrors`). Internal to this directory: the public
 * entry point is `validateCustomResource`.
 *
 * Per value, in kube-openapi's order: the type (with `nullable`, int-or-string and format
 * quirks), `allOf`/`anyOf`/`oneOf`/`not`, string keywords, format, number keywords, array
 * keywords, `enum`, object keywords. Each keyword applies by the JSON kind of the value, so a
 * value of the wrong type gets its type error and the checks of its actual kind.
 */

import type { JSONSchemaProps } from '@ops/api';
import type { FieldError } from '../api/field-error.js';
import { openApiChild, openApiField, openApiIndex, openApiKey } from './field-path.js';
import { compileGoPattern } from './go-pattern.js';
import {
  additionalPropertiesSchema,
  declaresProperty,
  goNumber,
  itemsSchema,
  jsonKind,
  numberOption,
  propertyEntries,
  runeCount,
  type SchemaValueKind,
  schemaList,
} from './json-value.js';
import { matchesFormat, supportedFormat } from './string-formats.js';

/** Go's `%q` for a string, close enough: JSON quoting. */
function quote(value: string): string {
  return JSON.stringify(value);
}

/** The JSON types a schema node accepts: its `type`, or integer and string for int-or-string. */
function schemaTypes(schema: JSONSchemaProps): string[] {
  if (schema['x-kubernetes-int-or-string'] === true) return ['integer', 'string'];
  return typeof schema.type === 'string' && schema.type !== '' ? [schema.type] : [];
}

function invalid(name: string, value: unknown, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field: openApiField(name), value, detail };
}

function typeInvalid(name: string, typeName: string, value: string): FieldError {
  return {
    type: 'FieldValueTypeInvalid',
    field: openApiField(name),
    value,
    detail: `${name} in body must be of type ${typeName}: ${quote(value)}`,
  };
}

/** A failed junctor: kube-openapi reports it without a field, which prints as `<nil>`. */
function junctorError(detail: string): FieldError {
  return { type: 'FieldValueInvalid', field: '<nil>', value: '', detail };
}

function checkType(
  schema: JSONSchemaProps,
  types: string[],
  format: string,
  kind: SchemaValueKind,
  name: string,
): FieldError[] {
  if (kind === 'null') {
    if (types.length > 0 && !types.includes('null') && schema.nullable !== true) {
      return [typeInvalid(name, types.join(','), 'null')];
    }
    return [];
  }
  const dataFormat = kind === 'integer' ? 'int64' : kind === 'number' ? 'float64' : '';
  const isIntFloat = kind === 'integer' && types.includes('number');
  if (
    kind !== 'string' &&
    kind !== 'array' &&
    format !== '' &&
    !(types.includes(kind) || dataFormat === format || isIntFloat)
  ) {
    return [typeInvalid(name, format, dataFormat)];
  }
  const numeric = types.includes('number') || types.includes('integer');
  if (!numeric && format !== '' && (kind === 'string' || kind === 'array')) return [];
  if (!(types.includes(kind) || isIntFloat)) return [typeInvalid(name, types.join(','), kind)];
  return [];
}

function checkJunctors(schema: JSONSchemaProps, data: unknown, name: string): FieldError[] {
  const errors: FieldError[] = [];
  const quoted = quote(name);

  const anyOf = schemaList(schema.anyOf);
  if (anyOf.length > 0) {
    let best: FieldError[] | undefined;
    let succeeded = false;
    for (const branch of anyOf) {
      const result = validateValue(branch, data, name);
      if (result.length === 0) {
        succeeded = true;
        best = undefined;
        break;
      }
      if (!best || result.length < best.length) best = result;
    }
    if (!succeeded)
      errors.push(junctorError(`${quoted} must validate at least one schema (anyOf)`));
    if (best) errors.push(...best);
  }

  const oneOf = schemaList(schema.oneOf);
  if (oneOf.length > 0) {
    let best: FieldError[] | undefined;
    let validated = 0;
    for (const branch of oneOf) {
      const result = validateValue(branch, data, name);
      if (result.length === 0) {
        validated++;
        best = undefined;
        continue;
      }
      if (validated === 0 && (!best || result.length < best.length)) best = result;
    }
    if (validated !== 1) {
      const found = validated === 0 ? 'Found none valid' : `Found ${validated} valid alternatives`;
      errors.push(
        junctorError(`${quoted} must validate one and only one schema (oneOf). ${found}`),
      );
      if (best) errors.push(...best);
    }
  }

  const allOf = schemaList(schema.allOf);
  if (allOf.length > 0) {
    let validated = 0;
    for (const branch of allOf) {
      const result = validateValue(branch, data, name);
      if (result.length === 0) validated++;
      errors.push(...result);
    }
    if (validated !== allOf.length) {
      const none = validated === 0 ? '. None validated' : '';
      errors.push(junctorError(`${quoted} must validate all the schemas (allOf)${none}`));
    }
  }

  if (isJsonObject(schema.not) && validateValue(schema.not, data, name).length === 0) {
    errors.push(junctorError(`${quoted} must not validate the schema (not)`));
  }
  return errors;
}

function checkString(schema: JSONSchemaProps, data: string, name: string): FieldError[] {
  const maxLength = numberOption(schema.maxLength);
  if (maxLength !== undefined && runeCount(data) > maxLength) {
    return [
      {
        type: 'FieldValueTooLong',
        field: openApiField(name),
        detail: `may not be more than ${maxLength} bytes`,
      },
    ];
  }
  const minLength = numberOption(schema.minLength);
  if (minLength !== undefined && runeCount(data) < minLength) {
    return [invalid(name, data, `${name} in body should be at least ${minLength} chars long`)];
  }
  if (typeof schema.pattern === 'string' && schema.pattern !== '') {
    const compiled = compileGoPattern(schema.pattern);
    if (!compiled.ok) {
      const shown = `${schema.pattern}, but pattern is invalid: ${compiled.error}`;
      return [invalid(name, data, `${name} in body should match '${shown}'`)];
    }
    if (!compiled.regexp.test(data)) {
      return [invalid(name, data, `${name} in body should match '${schema.pattern}'`)];
    }
  }
  return [];
}

/** swag's `IsFloat64AJSONInteger`: whole, or within a relative 1e-9 of a whole number. */
function isWholeEnough(value: number): boolean {
  if (!Number.isFinite(value)) return false;
  if (Number.isInteger(value)) return true;
  const nearest = Math.round(value);
  const diff = Math.abs(value - nearest);
  return diff / (Math.abs(value) + Math.abs(nearest)) < 1e-9;
}

function checkNumber(
  schema: JSONSchemaProps,
  data: number,
  integer: boolean,
  name: string,
): FieldError[] {
  const errors: FieldError[] = [];
  const multipleOf = numberOption(schema.multipleOf);
  if (multipleOf !== undefined) {
    const factor = Math.trunc(multipleOf);
    if (integer && factor !== 0) {
      if (factor < 0) {
        errors.push(
          invalid(
            name,
            factor,
            `factor MultipleOf declared for ${name} must be positive: ${factor}`,
          ),
        );
      } else if (data % factor !== 0) {
        errors.push(invalid(name, data, `${name} in body should be a multiple of ${factor}`));
      }
    } else if (multipleOf < 0) {
      errors.push(
        invalid(
          name,
          multipleOf,
          `factor MultipleOf declared for ${name} must be positive: ${goNumber(multipleOf)}`,
        ),
      );
    } else if (multipleOf > 0) {
      const ratio = multipleOf < 1 ? (1 / multipleOf) * data : data / multipleOf;
      if (!isWholeEnough(ratio)) {
        errors.push(
          invalid(name, data, `${name} in body should be a multiple of ${goNumber(multipleOf)}`),
        );
      }
    }
  }
  const minimum = numberOption(schema.minimum);
  if (minimum !== undefined) {
    const bound = integer ? Math.trunc(minimum) : minimum;
    const exclusive = schema.exclusiveMinimum === true;
    if (exclusive ? data <= bound : data < bound) {
      const relation = exclusive ? 'greater than' : 'greater than or equal to';
      errors.push(invalid(name, data, `${name} in body should be ${relation} ${goNumber(bound)}`));
    }
  }
  const maximum = numberOption(schema.maximum);
  if (maximum !== undefined) {
    const bound = integer ? Math.trunc(maximum) : maximum;
    const exclusive = schema.exclusiveMaximum === true;
    if (exclusive ? data >= bound : data > bound) {
      const relation = exclusive ? 'less than' : 'less than or equal to';
      errors.push(invalid(name, data, `${name} in body should be ${relation} ${goNumber(bound)}`));
    }
  }
  return errors;
}

function checkArray(schema: JSONSchemaProps, data: unknown[], name: string): FieldError[] {
  const errors: FieldError[] = [];
  const items = itemsSchema(schema);
  if (items) {
    data.forEach((item, index) => {
      errors.push(...validateValue(items, item, openApiIndex(name, index)));
    });
  }
  const minItems = numberOption(schema.minItems);
  if (minItems !== undefined && data.length < minItems) {
    errors.push(
      invalid(name, data.length, `${name} in body should have at least ${minItems} items`),
    );
  }
  const maxItems = numberOption(schema.maxItems);
  if (maxItems !== undefined && data.length > maxItems) {
    errors.push({
      type: 'FieldValueTooMany',
      field: openApiField(name),
      value: data.length,
      detail: `must have at most ${maxItems} items`,
    });
  }
  if (schema.uniqueItems === true) {
    const duplicated = data.some((item, index) =>
      data.slice(0, index).some((earlier) => jsonEqual(earlier, item)),
    );
    if (duplicated) errors.push(invalid(name, '', `${name} in body shouldn't contain duplicates`));
  }
  return errors;
}

function checkEnum(schema: JSONSchemaProps, data: unknown, name: string): FieldError[] {
  if (!Array.isArray(schema.enum) || schema.enum.length === 0) return [];
  if (schema.enum.some((allowed) => jsonEqual(data, allowed))) return [];
  const supported = schema.enum.map((allowed) =>
    quote(typeof allowed === 'string' ? allowed : (JSON.stringify(allowed) ?? 'null')),
  );
  return [
    {
      type: 'FieldValueNotSupported',
      field: openApiField(name),
      value: data,
      detail: `supported values: ${supported.join(', ')}`,
    },
  ];
}

function checkObject(
  schema: JSONSchemaProps,
  data: Record<string, unknown>,
  name: string,
): FieldError[] {
  const keys = Object.keys(data).filter((key) => data[key] !== undefined);
  const minProperties = numberOption(schema.minProperties);
  if (minProperties !== undefined && keys.length < minProperties) {
    return [
      invalid(
        name,
        keys.length,
        `${name} in body should have at least ${minProperties} properties`,
      ),
    ];
  }
  const maxProperties = numberOption(schema.maxProperties);
  if (maxProperties !== undefined && keys.length > maxProperties) {
    return [
      {
        type: 'FieldValueTooMany',
        field: openApiField(name),
        value: keys.length,
        detail: `must have at most ${maxProperties} items`,
      },
    ];
  }
  const errors: FieldError[] = [];
  if (schema.additionalProperties === false) {
    for (const key of keys) {
      if (!declaresProperty(schema, key)) {
        errors.push(invalid(name, key, `${name}.${key} in body is a forbidden property`));
      }
    }
  } else {
    const additional = additionalPropertiesSchema(schema);
    if (additional) {
      for (const key of keys) {
        if (!declaresProperty(schema, key)) {
          errors.push(...validateValue(additional, data[key], openApiKey(name, key)));
        }
      }
    }
  }
  for (const [property, propertySchema] of propertyEntries(schema)) {
    if (data[property] !== undefined) {
      errors.push(...validateValue(propertySchema, data[property], openApiChild(name, property)));
    }
  }
  if (Array.isArray(schema.required)) {
    for (const required of schema.required) {
      if (typeof required === 'string' && data[required] === undefined) {
        errors.push({
          type: 'FieldValueRequired',
          field: openApiField(openApiKey(name, required)),
        });
      }
    }
  }
  return errors;
}

/**
 * The field errors of `data` against `schema`, named from `name` (kube-openapi's path: `''` at
 * the root, `spec.ports[0].name` below). `undefined` data is absent data: no errors. Never
 * throws on malformed schemas or data.
 */
export function validateValue(schema: JSONSchemaProps, data: unknown, name: string): FieldError[] {
  const kind = jsonKind(data);
  if (kind === undefined) return [];
  const types = schemaTypes(schema);
  const format = supportedFormat(schema.format);
  const errors: FieldError[] = [];
  if (types.length > 0 || format !== '')
    errors.push(...checkType(schema, types, format, kind, name));
  if (kind === 'null') {
    errors.push(...checkEnum(schema, data, name));
    return errors;
  }
  errors.push(...checkJunctors(schema, data, name));
  if (typeof data === 'string') {
    errors.push(...checkString(schema, data, name));
    if (format !== '' && !matchesFormat(format, data)) errors.push(typeInvalid(name, format, data));
  }
  if (kind === 'integer' || kind === 'number') {
    errors.push(...checkNumber(schema, Number(data), kind === 'integer', name));
  }
  if (Array.isArray(data)) errors.push(...checkArray(schema, data, name));
  errors.push(...checkEnum(schema, data, name));
  if (isJsonObject(data)) errors.push(...checkObject(schema, data, name));
  return errors;
}
