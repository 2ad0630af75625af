import { LabelSelectorError } from './errors/label-selector-error.js';
import { validateLabelValue, validateQualifiedName } from './validation.js';

/** How a {@link LabelRequirement} compares a label with its values. */
export type LabelOperator =
  | 'Equals'
  | 'NotEquals'
  | 'In'
  | 'NotIn'
  | 'Exists'
  | 'DoesNotExist'
  | 'GreaterThan'
  | 'LessThan';

/**
 * One condition on one label key, as Kubernetes evaluates it:
 * - `Equals` / `In`: the label is present and its value is one of `values`;
 * - `NotEquals` / `NotIn`: the label is absent, or its value is none of `values`;
 * - `Exists` / `DoesNotExist`: the label is present / absent, whatever its value;
 * - `GreaterThan` / `LessThan`: the label is present, its value is an integer, and it is
 *   greater / less than the single integer in `values`.
 */
export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  /** Sorted and free of duplicates. */
  readonly values: readonly string[];
}

/**
 * Builds a requirement, checking it as Kubernetes does: the key is a qualified name; `In`
 * and `NotIn` have at least one value; `Equals` and `NotEquals` exactly one; `Exists` and
 * `DoesNotExist` none; `GreaterThan` and `LessThan` exactly one integer; every value is a
 * valid label value.
 *
 * @param source the selector being built, quoted in the error message.
 * @throws {LabelSelectorError} naming the key, the operator and what is wrong.
 */
export function createLabelRequirement(
  key: string,
  operator: LabelOperator,
  values: readonly string[],
  source: string,
): LabelRequirement {
  const fail = (problem: string): never => {
    throw new LabelSelectorError(`invalid label selector "${source}": ${problem}`, source);
  };
  const keyErrors = validateQualifiedName(key);
  if (keyErrors.length > 0) fail(`key "${key}": ${keyErrors.join('; ')}`);
  switch (operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) {
        fail(`key "${key}": for 'in', 'notin' operators, values set can't be empty`);
      }
      break;
    case 'Equals':
    case 'NotEquals':
      if (values.length !== 1) {
        fail(`key "${key}": exact-match compatibility requires one single value`);
      }
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length !== 0) {
        fail(`key "${key}": values set must be empty for exists and does not exist`);
      }
      break;
    case 'GreaterThan':
    case 'LessThan':
      if (values.length !== 1 || !/^-?\d+$/.test(values[0] ?? '')) {
        fail(`key "${key}": for 'Gt', 'Lt' operators, exactly one integer value is required`);
      }
      return { key, operator, values: [...values] };
  }
  for (const value of values) {
    const valueErrors = validateLabelValue(value);
    if (valueErrors.length > 0) fail(`key "${key}", value "${value}": ${valueErrors.join('; ')}`);
  }
  return { key, operator, values: [...new Set(values)].sort() };
}

/** Whether `labels` satisfy `requirement`. Missing labels count as absent. */
export function matchesLabelRequirement(
  requirement: LabelRequirement,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  const value =
    labels !== undefined && Object.hasOwn(labels, requirement.key)
      ? labels[requirement.key]
      : undefined;
  switch (requirement.operator) {
    case 'Equals':
    case 'In':
      return value !== undefined && requirement.values.includes(value);
    case 'NotEquals':
    case 'NotIn':
      return value === undefined || !requirement.values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'GreaterThan':
    case 'LessThan': {
      if (value === undefined || !/^-?\d+$/.test(value)) return false;
      const actual = Number(value);
      const bound = Number(requirement.values[0]);
      return requirement.operator === 'GreaterThan' ? actual > bound : actual < bound;
    }
  }
}

/** The requirement in the string form Kubernetes prints: `a=b`, `a!=b`, `a in (x,y)`, `a`, `!a`, `a>1`. */
export function formatLabelRequirement(requirement: LabelRequirement): string {
  const { key, values } = requirement;
  switch (requirement.operator) {
    case 'Equals':
      return `${key}=${values[0] ?? ''}`;
    case 'NotEquals':
      return `${key}!=${values[0] ?? ''}`;
    case 'In':
      return `${key} in (${values.join(',')})`;
    case 'NotIn':
      return `${key} notin (${values.join(',')})`;
    case 'Exists':
      return key;
    case 'DoesNotExist':
      return `!${key}`;
    case 'GreaterThan':
      return `${key}>${values[0] ?? ''}`;
    case 'LessThan':
      return `${key}<${values[0] ?? ''}`;
  }
}
