import { FieldSelectorError } from './errors/field-selector-error.js';

/** One term of a field selector: `field=value` (also written `==`) or `field!=value`. */
export interface FieldRequirement {
  /** The field path exactly as written before the operator, e.g. `metadata.name`. */
  field: string;
  operator: '=' | '!=';
  /** The value, unescaped. */
  value: string;
}

/**
 * A field selector value escaped as Kubernetes expects (apimachinery's `fields.EscapeValue`):
 * `\`, `,` and `=` get a backslash; nothing else does.
 */
export function escapeFieldSelectorValue(value: string): string {
  return value.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/** Splits at unescaped commas, keeping escapes in the terms (apimachinery's `splitTerms`). */
function splitTerms(text: string): string[] {
  if (text === '') return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(text.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(text.slice(start));
  return terms;
}

/** The value with its escapes resolved, or the error kube-apiserver gives for it. */
function unescapeValue(value: string, selector: string): string {
  let out = '';
  let inSlash = false;
  for (const c of value) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') {
        throw new FieldSelectorError(
          `invalid field selector: invalid escape sequence: \\${c}`,
          selector,
        );
      }
      out += c;
      inSlash = false;
    } else if (c === '\\') {
      inSlash = true;
    } else if (c === ',' || c === '=') {
      throw new FieldSelectorError(
        `invalid field selector: unescaped character in value: ${c.codePointAt(0)}`,
        selector,
      );
    } else {
      out += c;
    }
  }
  if (inSlash) {
    throw new FieldSelectorError('invalid field selector: invalid escape sequence: \\', selector);
  }
  return out;
}

/**
 * Parses a field selector exactly as kube-apiserver does (apimachinery's `fields.ParseSelector`):
 * terms separated by unescaped commas, sorted as written (so the requirements come in that
 * order, and the first bad term in it is the one reported), empty terms skipped; each term split at the first `!=`,
 * `==` or `=` (the field is taken as written, spaces included: no escaping there); in the value
 * only `\\`, `\,` and `\=` are escapes, and an unescaped `,` or `=` is refused. The empty
 * selector has no terms (matches everything). Which fields a kind supports is the server's
 * business, not checked here.
 *
 * @throws {FieldSelectorError} with kube-apiserver's message for the same selector: a term
 *   without an operator (`invalid selector: '<selector>'; can't understand '<term>'`), an
 *   invalid escape or an unescaped `,`/`=` in a value (`invalid field selector: ...`).
 */
export function parseFieldSelector(text: string): FieldRequirement[] {
  const requirements: FieldRequirement[] = [];
  for (const term of splitTerms(text).sort()) {
    if (term === '') continue;
    const at = /!=|==|=/.exec(term);
    if (at === null) {
      throw new FieldSelectorError(`invalid selector: '${text}'; can't understand '${term}'`, text);
    }
    requirements.push({
      field: term.slice(0, at.index),
      operator: at[0] === '!=' ? '!=' : '=',
      value: unescapeValue(term.slice(at.index + at[0].length), text),
    });
  }
  return requirements;
}

/** The value at a dotted field path as a field selector sees it: a scalar as text, else ``. */
function fieldValue(object: unknown, path: string): string {
  let value: unknown = object;
  for (const key of path.split('.')) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return '';
    value = (value as Record<string, unknown>)[key];
  }
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

/**
 * Whether `object` satisfies every requirement, reading each field path from the object: a
 * string, number or boolean compares as its text, and an absent field (or an object, array or
 * null there) as ``, so `status.phase!=Running` holds for an object without a phase. Which
 * fields a kind may be selected by is not checked: the API server refuses the others.
 */
export function matchesFieldSelector(
  requirements: readonly FieldRequirement[],
  object: unknown,
): boolean {
  for (const requirement of requirements) {
    const equal = fieldValue(object, requirement.field) === requirement.value;
    if (equal !== (requirement.operator === '=')) return false;
  }
  return true;
}
