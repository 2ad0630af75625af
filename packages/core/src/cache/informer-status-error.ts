import { InformerRequestError } from '../errors/informer-request-error.js';

/**
 * The error of a LIST or WATCH the API server answered with a failure `status`: the server's
 * message (from its Status body, else the start of the text) and, for 404 and 403, what to
 * check.
 */
export function informerStatusError(
  verb: 'list' | 'watch',
  status: number,
  text: string,
  description: string,
): InformerRequestError {
  let message = text.length > 300 ? `${text.slice(0, 300)}…` : text;
  try {
    const parsed = JSON.parse(text) as { message?: unknown };
    if (typeof parsed.message === 'string') message = parsed.message;
  } catch {
    // not a Status object: keep the text
  }
  const hint =
    status === 404
      ? ' (the server does not serve this resource: is its CRD installed?)'
      : status === 403
        ? ` (the user may not ${verb} this resource: check its RBAC)`
        : '';
  return new InformerRequestError(
    `${verb} of ${description} answered ${status}: ${message}${hint}`,
    verb,
    description,
    status,
  );
}
