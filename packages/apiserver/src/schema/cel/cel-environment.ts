/**
 * The CEL environment validation rules run in: the CEL standard library of
 * `@marcbachmann/cel-js` (with optional types, as kube-apiserver enables them), plus the
 * Kubernetes extension functions it lacks, as kube-apiserver declares them
 * (k8s.io/apiserver/pkg/cel/library: lists.go, regex.go; cel-go's strings extension):
 *
 * - lists: `isSorted()`, `sum()`, `min()`, `max()`, `indexOf(x)`, `lastIndexOf(x)`;
 * - regex: `find(re)`, `findAll(re)`, `findAll(re, n)`;
 * - strings: `replace(a, b)`, `replace(a, b, n)`, `charAt(i)`, `reverse()` (the rest of the
 *   strings extension is built into cel-js);
 * - quantities: see {@link registerQuantityLibrary}.
 *
 * Regular expressions are ECMAScript's, not RE2: the syntax rules use (classes, anchors,
 * repetition) behaves alike. Not provided: the `url`, `ip`, `cidr`, `semver` and
 * `format` libraries; a rule using them fails to compile with `undeclared reference`.
 */

import { Environment } from '@marcbachmann/cel-js';
import { registerQuantityLibrary } from './cel-quantity.js';

type Scalar = bigint | number | string | boolean;

function compare(a: unknown, b: unknown): number {
  const x = a as Scalar;
  const y = b as Scalar;
  return x < y ? -1 : x > y ? 1 : 0;
}

function extreme(list: unknown[], name: string, sign: number): unknown {
  if (list.length === 0) throw new Error(`${name}(list) called on an empty list`);
  return list.reduce((best, item) => (compare(item, best) * sign > 0 ? item : best));
}

function sum(list: unknown[]): unknown {
  if (list.length === 0) return 0n;
  return list.reduce((total, item) => (total as number) + (item as number));
}

function indexOf(list: unknown[], value: unknown, last: boolean): bigint {
  const indexes = list.map((_, index) => index);
  if (last) indexes.reverse();
  for (const index of indexes) {
    if (compare(list[index], value) === 0 && typeof list[index] === typeof value) {
      return BigInt(index);
    }
  }
  return -1n;
}

function findAll(text: string, pattern: string, limit: bigint): string[] {
  const matches = [...text.matchAll(new RegExp(pattern, 'g'))].map((match) => match[0]);
  return limit < 0n ? matches : matches.slice(0, Number(limit));
}

function replace(text: string, from: string, to: string, limit: bigint): string {
  if (limit < 0n) return text.split(from).join(to);
  let result = text;
  let start = 0;
  for (let count = 0n; count < limit; count++) {
    const at = result.indexOf(from, start);
    if (at < 0) break;
    result = result.slice(0, at) + to + result.slice(at + from.length);
    start = at + to.length + (from === '' ? 1 : 0);
  }
  return result;
}

/**
 * A new environment with the standard and Kubernetes libraries and no variables; callers
 * register `self`/`oldSelf` (and, for type checking, the schema's object types) on it.
 * Creating one costs a few milliseconds: create it once per CRD schema, not per request.
 */
export function createCelEnvironment(): Environment {
  return registerQuantityLibrary(
    new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: false }),
  )
    .registerFunction('list.isSorted(): bool', (list: unknown[]) =>
      list.every((item, index) => index === 0 || compare(list[index - 1], item) <= 0),
    )
    .registerFunction('list.sum(): dyn', (list: unknown[]) => sum(list))
    .registerFunction('list.min(): dyn', (list: unknown[]) => extreme(list, 'min', -1))
    .registerFunction('list.max(): dyn', (list: unknown[]) => extreme(list, 'max', 1))
    .registerFunction('list.indexOf(dyn): int', (list: unknown[], value: unknown) =>
      indexOf(list, value, false),
    )
    .registerFunction('list.lastIndexOf(dyn): int', (list: unknown[], value: unknown) =>
      indexOf(list, value, true),
    )
    .registerFunction(
      'string.find(string): string',
      (text: string, pattern: string) => new RegExp(pattern).exec(text)?.[0] ?? '',
    )
    .registerFunction('string.findAll(string): list<string>', (text: string, pattern: string) =>
      findAll(text, pattern, -1n),
    )
    .registerFunction(
      'string.findAll(string, int): list<string>',
      (text: string, pattern: string, limit: bigint) => findAll(text, pattern, limit),
    )
    .registerFunction(
      'string.replace(string, string): string',
      (text: string, from: string, to: string) => replace(text, from, to, -1n),
    )
    .registerFunction(
      'string.replace(string, string, int): string',
      (text: string, from: string, to: string, limit: bigint) => replace(text, from, to, limit),
    )
    .registerFunction('string.charAt(int): string', (text: string, index: bigint) => {
      const chars = [...text];
      if (index < 0n || index > BigInt(chars.length)) {
        throw new Error(`index out of range: ${index}`);
      }
      return chars[Number(index)] ?? '';
    })
    .registerFunction('string.reverse(): string', (text: string) => [...text].reverse().join(''));
}

let durationParser: Environment | undefined;

/**
 * A CEL duration for a Go duration string (`1h30m`, `1.5s`), as a `format: duration` string
 * becomes in kube-apiserver's CEL view, or `undefined` when the text is not a duration. The
 * parser environment is created on first use and kept (it holds no configuration).
 */
export function celDuration(text: string): unknown {
  durationParser ??= createCelEnvironment().registerVariable('text', 'string');
  try {
    return durationParser.evaluate('duration(text)', { text });
  } catch {
    return undefined;
  }
}
