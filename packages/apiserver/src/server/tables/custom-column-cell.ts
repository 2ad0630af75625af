import { humanDuration } from './human-duration.js';

const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * One cell of a custom resource's printer column, as kube-apiserver's CRD table convertor
 * (apiextensions-apiserver `pkg/registry/customresource/tableconvertor`) makes it from the
 * first value the column's JSONPath selects (`undefined` when it selects none):
 *
 * - `string`: the value printed as client-go's JSONPath prints it: strings as they are, other
 *   scalars as Go's `fmt` does, objects and arrays as JSON with sorted keys;
 * - `integer`: a number, truncated; `number`: a number; `boolean`: a boolean;
 * - `date`: the age of an RFC 3339 timestamp (`5m`), `<invalid>` for another string,
 *   `<unknown>` for an empty one;
 * - `null` for no value or a value of the wrong kind (kubectl prints `<none>` or nothing).
 */
export function customColumnCell(type: string, value: unknown, now: number): unknown {
  if (value === undefined || value === null) return null;
  switch (type) {
    case 'string':
      return goText(value);
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date': {
      if (typeof value !== 'string') return null;
      if (value === '' || value === 'null') return '<unknown>';
      if (!rfc3339.test(value)) return '<invalid>';
      const then = Date.parse(value);
      return Number.isNaN(then) ? '<invalid>' : humanDuration((now - then) / 1000);
    }
    default:
      return null;
  }
}

/** A value as client-go's JSONPath printer writes it (`PrintResults`). */
function goText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return goNumber(value);
  if (typeof value === 'boolean') return String(value);
  return goJson(value);
}

/**
 * A JSON number as Go's `fmt.Sprint` writes the int64 or float64 it decodes to: whole numbers
 * as integers, others in `%g` form with the shortest digits (`1.5`, `1e-05`, `1.2345675e+06`).
 */
function goNumber(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 2 ** 63) return BigInt(value).toString();
  const [mantissa = '', exponentText = '0'] = value.toExponential().split('e');
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 6) {
    const sign = exponent < 0 ? '-' : '+';
    return `${mantissa}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  return String(value);
}

/** Go's `json.Marshal` of a decoded JSON value: keys sorted, `<`, `>` and `&` escaped. */
function goJson(value: unknown): string {
  const sorted = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(sorted);
    if (node !== null && typeof node === 'object') {
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(node).sort())
        out[key] = sorted((node as Record<string, unknown>)[key]);
      return out;
    }
    return node;
  };
  return JSON.stringify(sorted(value))
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026');
}
