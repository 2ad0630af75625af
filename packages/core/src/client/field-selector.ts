import {
  escapeFieldSelectorValue,
  type FieldRequirement,
  FieldSelectorError,
  parseFieldSelector,
} from '@ops/api';
import { badRequestError } from './api-error-from-response.js';

/** A field selector as text (`metadata.name=x,status.phase!=Running`) or as field → value equalities. */
export type FieldSelectorInput = string | Readonly<Record<string, string>>;

/**
 * The text of a field selector for the `fieldSelector` query parameter. An object becomes
 * equalities joined by commas, each value escaped as Kubernetes expects (`\`, `,` and `=`
 * get a backslash: `@ops/api`'s `escapeFieldSelectorValue`); a string is returned as given.
 */
export function fieldSelectorToString(selector: FieldSelectorInput): string {
  if (typeof selector === 'string') return selector;
  return Object.entries(selector)
    .map(([field, value]) => `${field}=${escapeFieldSelectorValue(value)}`)
    .join(',');
}

/**
 * The requirements of a field selector the client evaluates itself (on cached lists), parsed
 * as kube-apiserver parses it (`@ops/api`'s `parseFieldSelector`).
 *
 * @throws {ApiError} `BadRequest` with kube-apiserver's message for the same selector, as a
 *   list sent to the server would fail.
 */
export function fieldSelectorRequirements(text: string): FieldRequirement[] {
  try {
    return parseFieldSelector(text);
  } catch (error) {
    if (FieldSelectorError.isInstance(error)) throw badRequestError(error.message);
    throw error;
  }
}
