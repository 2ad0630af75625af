import { StatusError } from '../api/status-error.js';

/** One `field=value` / `field!=value` term of a field selector. */
export interface FieldRequirement {
  field: string;
  operator: '=' | '!=';
  value: string;
}

/**
 * Parses a field selector as kube-apiserver does: comma-separated `field=value`,
 * `field==value` or `field!=value` terms; `\,`, `\=` and `\\` escape those characters in
 * values. A blank selector has no terms (selects everything).
 *
 * @throws {StatusError} 400 BadRequest naming the term that is not of that form.
 */
export function parseFieldSelector(text: string): FieldRequirement[] {
  const terms: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const char = text.charAt(i);
    if (char === '\\' && i + 1 < text.length) {
      current += char + text.charAt(i + 1);
      i++;
    } else if (char === ',') {
      terms.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  terms.push(current);
  const requirements: FieldRequirement[] = [];
  for (const raw of terms) {
    const term = raw.trim();
    if (term === '') continue;
    const split = splitTerm(term);
    if (split === undefined) {
      throw StatusError.badRequest(
        `invalid field selector: invalid selector: '${text}'; can't understand '${term}'`,
      );
    }
    requirements.push(split);
  }
  return requirements;
}

/** Splits `field<op>value` at its first unescaped operator, unescaping the value. */
function splitTerm(term: string): FieldRequirement | undefined {
  for (let i = 0; i < term.length; i++) {
    const char = term.charAt(i);
    if (char === '\\') {
      i++;
      continue;
    }
    let operator: FieldRequirement['operator'] | undefined;
    let width = 0;
    if (term.startsWith('!=', i)) [operator, width] = ['!=', 2];
    else if (term.startsWith('==', i)) [operator, width] = ['=', 2];
    else if (char === '=') [operator, width] = ['=', 1];
    if (operator !== undefined) {
      const field = term.slice(0, i).trim();
      const value = term.slice(i + width).replace(/\\(.)/g, '$1');
      return { field, operator, value };
    }
  }
  return undefined;
}

/** Reads the value of a selectable field from an object (`metadata.name`, `status.phase`). */
export function fieldValue(object: unknown, path: string): string {
  let node: unknown = object;
  for (const part of path.split('.')) {
    if (node === null || typeof node !== 'object') return '';
    node = (node as Record<string, unknown>)[part];
  }
  if (node === undefined || node === null) return '';
  return typeof node === 'string' ? node : String(node);
}

/** Whether `object` satisfies every term. */
export function matchesFieldSelector(
  requirements: readonly FieldRequirement[],
  object: unknown,
): boolean {
  for (const requirement of requirements) {
    const actual = fieldValue(object, requirement.field);
    if ((actual === requirement.value) !== (requirement.operator === '=')) return false;
  }
  return true;
}
