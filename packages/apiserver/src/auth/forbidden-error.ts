import { type StatusDetails, StatusError } from '../api/status-error.js';
import { goQuote, goSprintfNoArgs } from './go-format.js';
import type { RequestAttributes } from './request-attributes.js';

const sanitize = (text: string): string =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/**
 * The denial in kube-apiserver's words, without the `<resource> is forbidden: ` prefix:
 * `User "u" cannot get resource "pods" in API group "" in the namespace "ns"`, `... at the
 * cluster scope`, `User "u" cannot get path "/metrics"`. The subresource joins the resource
 * (`"deployments/scale"`).
 */
export function forbiddenMessage(attributes: RequestAttributes): string {
  const user = goQuote(attributes.user.name);
  if (!attributes.isResourceRequest) {
    return `User ${user} cannot ${attributes.verb} path ${goQuote(attributes.path)}`;
  }
  const resource =
    attributes.subresource === ''
      ? attributes.resource
      : `${attributes.resource}/${attributes.subresource}`;
  const what = `User ${user} cannot ${attributes.verb} resource ${goQuote(resource)} in API group ${goQuote(attributes.apiGroup)}`;
  return attributes.namespace === ''
    ? `${what} at the cluster scope`
    : `${what} in the namespace ${goQuote(attributes.namespace)}`;
}

/**
 * The 403 kube-apiserver answers a denied request with, worded exactly as it does:
 *
 * - `pods "x" is forbidden: User "..." cannot get resource "pods" in API group "" in the
 *   namespace "default"` for a named object;
 * - `deployments.apps is forbidden: User "..." cannot list resource "deployments" in API
 *   group "apps" at the cluster scope` for a collection;
 * - `forbidden: User "..." cannot get path "/metrics"` for a non-resource request;
 * - with `: <reason>` appended when the authorizer gave a reason (e.g. `RBAC: clusterrole...
 *   not found`).
 *
 * As in kube-apiserver, `&`, `<` and `>` in the message (not the reason) are HTML-escaped, and
 * the whole text then passes through Go's formatter with no arguments, so a `%` verb in a path
 * or name prints as `%!v(MISSING)`. `details` carries the group, the resource (as `kind`) and
 * the name, each only when not empty.
 *
 * @param reason the decision's reason, as {@link authorize} returns it; `''` for none.
 */
export function forbiddenError(attributes: RequestAttributes, reason = ''): StatusError {
  const message = sanitize(forbiddenMessage(attributes));
  const why = goSprintfNoArgs(reason === '' ? message : `${message}: ${reason}`);
  const group = attributes.apiGroup;
  const resource = attributes.resource;
  const name = attributes.name;
  const qualified = group === '' ? resource : `${resource}.${group}`;
  let text: string;
  if (group === '' && resource === '') text = `forbidden: ${why}`;
  else if (name === '') text = `${qualified} is forbidden: ${why}`;
  else text = `${qualified} ${goQuote(name)} is forbidden: ${why}`;
  const details: StatusDetails = {
    ...(name !== '' ? { name } : {}),
    ...(group !== '' ? { group } : {}),
    ...(resource !== '' ? { kind: resource } : {}),
  };
  return new StatusError(403, 'Forbidden', text, details);
}
