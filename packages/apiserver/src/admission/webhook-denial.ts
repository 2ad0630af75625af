import { isJsonObject } from '@ops/api';
import { type StatusDetails, StatusError, type StatusReason } from '../api/status-error.js';

type Json = Record<string, unknown>;

/**
 * The error a webhook's denial (`allowed: false`) becomes, as kube-apiserver's `ToStatusErr`
 * builds it from the webhook's `status`:
 * - message `admission webhook "<name>" denied the request: <status.message>`, or
 *   `...: <status.reason>` when there is no message, or `... denied the request without
 *   explanation` when there is neither;
 * - code `status.code`, raised to 400 when it is absent or below 400;
 * - reason and details kept as the webhook sent them (the reason may be empty).
 */
export function webhookDenied(webhookName: string, status: Json | undefined): StatusError {
  const result = status ?? {};
  const deniedBy = `admission webhook ${JSON.stringify(webhookName)} denied the request`;
  const message = typeof result.message === 'string' ? result.message : '';
  const reason = typeof result.reason === 'string' ? result.reason : '';
  let text: string;
  if (message !== '') text = `${deniedBy}: ${message}`;
  else if (reason !== '') text = `${deniedBy}: ${reason}`;
  else text = `${deniedBy} without explanation`;
  const code =
    typeof result.code === 'number' && result.code >= 400 ? Math.trunc(result.code) : 400;
  const details = isJsonObject(result.details) ? (result.details as StatusDetails) : undefined;
  // kube-apiserver passes any reason string through, including an empty one.
  return new StatusError(code, reason as StatusReason, text, details);
}

/**
 * 400 BadRequest for a dry-run write that reaches a webhook whose sideEffects are not
 * `None` or `NoneOnDryRun` (kube-apiserver's `NewDryRunUnsupportedErr`).
 */
export function dryRunUnsupported(webhookName: string): StatusError {
  return StatusError.badRequest(
    `admission webhook ${JSON.stringify(webhookName)} does not support dry run`,
  );
}
