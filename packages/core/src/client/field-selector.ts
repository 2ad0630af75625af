import type { KubernetesObject } from '@ops/api';
import { badRequestError } from './api-error-from-response.js';

/** One term of a field selector: `field=value` (also `==`) or `field!=value`. */
export interface FieldRequirement {
  /** A dotted field path, e.g. `metadata.name` or `status.phase`. */
  field: string;
  operator: '=' | '!=';
  value: string;
}

/** A field selector as text (`metadata.name=x,status.phase!=Running`) or as field → value equalities. */
export type FieldSelectorInput = string | Readonly<Record<string, string>>;

const escapeValue = (text: string): string => text.replace(/[\\,=!]/g, (c) => `\\${c}`);

/**
 * The text of a field selector for the `fieldSelector` query parameter. An object becomes
 * equalities joined by commas, with `\`, `,`, `=` and `!` in values escaped as Kubernetes
 * expects; a string is returned as given.
 */
export function fieldSelectorToString(selector: FieldSelectorInput): string {
  if (typeof selector === 'string') return selector;
  return Object.entries(selector)
    .map(([field, value]) => `${field}=${escapeValue(value)}`)
    .join(',');
}

/**
 * Parses a field selector as Kubernetes does: terms separated by `,`, each `field=value`,
 * `field==value` or `field!=value`, with `\` escaping `,`, `=`, `!` and `\` in values. The
 * empty selector has no terms (matches everything).
 *
 * @throws {ApiError} `BadRequest` naming the term without an operator or with a bad escape.
 */
export function parseFieldSelector(text: string): FieldRequirement[] {
  const terms: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && i + 1 < text.length) {
      current += c + (text[i + 1] ?? '');
      i++;
    } else if (c === ',') {
      terms.push(current);
      current = '';
    } else {
      current += c;
    }
  }
  if (text !== '') terms.push(current);
  const requirements: FieldRequirement[] = [];
  for (const term of terms) {
    const match = /^([^=!\\]*?)\s*(==|!=|=)\s*(.*)$/s.exec(term);
    if (match === null || (match[1] ?? '').trim() === '') {
      throw badRequestError(
        `invalid field selector "${text}": term "${term}" is not field=value, field==value or field!=value`,
      );
    }
    let value = '';
    const raw = match[3] ?? '';
    for (let i = 0; i < raw.length; i++) {
      const c = raw[i];
      if (c === '\\') {
        const next = raw[i + 1];
        if (next === undefined || !'\\,=!'.includes(next)) {
          throw badRequestError(
            `invalid field selector "${text}": invalid escape in "${raw}"; only \\\\, \\, \\= and \\! are escapes`,
          );
        }
        value += next;
        i++;
      } else {
        value += c;
      }
    }
    requirements.push({
      field: (match[1] ?? '').trim(),
      operator: match[2] === '!=' ? '!=' : '=',
      value,
    });
  }
  return requirements;
}

/** The value at a dotted field path as a field selector sees it: a string, `` when absent. */
function fieldValue(object: KubernetesObject, path: string): string {
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
 * Whether `object` satisfies every requirement, reading each field path from the object
 * (an absent field counts as ``). The API server supports only some fields per kind; this
 * evaluates any path, for filtering cached lists.
 */
export function matchesFieldSelector(
  requirements: readonly FieldRequirement[],
  object: KubernetesObject,
): boolean {
  for (const requirement of requirements) {
    const equal = fieldValue(object, requirement.field) === requirement.value;
    if (equal !== (requirement.operator === '=')) return false;
  }
  return true;
}
