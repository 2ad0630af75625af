import { type FieldRequirement, FieldSelectorError, parseFieldSelector } from '@ops/api';
import { StatusError } from '../api/status-error.js';

/**
 * The `fieldSelector` query parameter parsed as kube-apiserver parses it (`@ops/api`'s
 * {@link parseFieldSelector}). Which fields the resource supports is checked by the list
 * handler, not here.
 *
 * @throws {StatusError} 400 BadRequest with kube-apiserver's message for a malformed selector.
 */
export function fieldSelectorFromQuery(text: string): FieldRequirement[] {
  try {
    return parseFieldSelector(text);
  } catch (error) {
    if (FieldSelectorError.isInstance(error)) throw StatusError.badRequest(error.message);
    throw error;
  }
}
