import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubernetesObject } from '@ops/api';
import { formatRfc3339Seconds, isJsonObject } from '@ops/api';
import type { FieldError } from '../../api/field-error.js';
import { StatusError } from '../../api/status-error.js';
import type { BoundObject } from '../../auth/service-account-token.js';
import type { Json } from '../../json/json.js';
import { readRequestBody } from '../http/read-request-body.js';
import { sendJson } from '../http/responses.js';
import type { CoreObjectLookup, TokenAuthenticator } from './token-authenticator.js';

const tokenRequestRef = {
  group: 'authentication.k8s.io',
  resource: 'tokenrequests',
  kind: 'TokenRequest',
};

/** Seconds a token lives when the request names none (TokenRequestSpec's default). */
export const defaultTokenExpirationSeconds = 3600;

/** kube's `token.WarnOnlyBoundTokenExpirationSeconds`: the kubelet's projected-token request. */
const warnOnlyExpirationSeconds = 3607;
/** kube's `token.ExpirationExtensionSeconds`: one year. */
const extendedExpirationSeconds = 24 * 365 * 60 * 60;

/** What {@link createTokenRequest} needs of the server. */
export interface TokenRequestDeps {
  lookup: CoreObjectLookup;
  authenticator: TokenAuthenticator;
  now: () => Date;
}

const notFound = (plural: string, name: string): StatusError =>
  StatusError.notFound({ group: '', resource: plural, kind: '' }, name);

/**
 * Answers `POST /api/v1/namespaces/<ns>/serviceaccounts/<name>/token` (the TokenRequest API,
 * `kubectl create token`) as kube-apiserver's `TokenREST.Create`
 * (pkg/registry/core/serviceaccount/storage/token.go) does:
 *
 * - `metadata.name`/`metadata.namespace` in the body, when set, must be the account's (422);
 * - the ServiceAccount must exist (404 `serviceaccounts "x" not found`);
 * - `spec.audiences` defaults to the server's audience, `spec.expirationSeconds` to 3600; it
 *   must be at least 600 and at most 2^32 (422, as kube's `ValidateTokenRequest`);
 * - `spec.boundObjectRef` may name a Pod (running as this account, else 400) or a Secret in
 *   the namespace (404 when missing, 409 when its `uid` is not the object's); the token then
 *   stops working when that object goes; any other kind is 400;
 * - a Pod-bound request for 3607 s with the server's audience is extended to a year, as
 *   kube-apiserver's default `--service-account-extend-token-expiration` does.
 *
 * The token is bound to the account's uid: once the account is deleted (or recreated), it no
 * longer authenticates (401). Resolves with the TokenRequest to answer with 201.
 */
export function createTokenRequest(
  namespace: string,
  name: string,
  body: unknown,
  deps: TokenRequestDeps,
): Json {
  if (!isJsonObject(body))
    throw StatusError.badRequest('the request body must be a TokenRequest object');
  const meta = isJsonObject(body.metadata) ? body.metadata : {};
  const invalid = (field: string, value: unknown, detail: string, objectName = name): StatusError =>
    StatusError.invalid(tokenRequestRef, objectName, [
      { type: 'FieldValueInvalid', field, value, detail },
    ]);
  if (typeof meta.name === 'string' && meta.name !== '' && meta.name !== name)
    throw invalid('metadata.name', meta.name, 'must match the service account name if specified');
  if (typeof meta.namespace === 'string' && meta.namespace !== '' && meta.namespace !== namespace)
    throw invalid(
      'metadata.namespace',
      meta.namespace,
      'must match the service account namespace if specified',
    );
  const account = deps.lookup('serviceaccounts', namespace, name);
  if (account === undefined) throw notFound('serviceaccounts', name);
  const spec = isJsonObject(body.spec) ? body.spec : {};
  const requestedAudiences = Array.isArray(spec.audiences)
    ? spec.audiences.filter((a): a is string => typeof a === 'string')
    : [];
  const audiences =
    requestedAudiences.length > 0 ? requestedAudiences : [deps.authenticator.issuer];
  const expirationSeconds =
    spec.expirationSeconds === undefined || spec.expirationSeconds === null
      ? defaultTokenExpirationSeconds
      : spec.expirationSeconds;
  if (typeof expirationSeconds !== 'number' || !Number.isInteger(expirationSeconds))
    throw StatusError.badRequest(
      `TokenRequest.spec.expirationSeconds must be an integer number of seconds, got ${JSON.stringify(expirationSeconds)}`,
    );
  const errors: FieldError[] = [];
  if (expirationSeconds < 600)
    errors.push({
      type: 'FieldValueInvalid',
      field: 'spec.expirationSeconds',
      value: expirationSeconds,
      detail: 'may not specify a duration less than 10 minutes',
    });
  if (expirationSeconds > 2 ** 32)
    errors.push({
      type: 'FieldValueInvalid',
      field: 'spec.expirationSeconds',
      value: expirationSeconds,
      detail: 'may not specify a duration larger than 2^32 seconds',
    });
  if (errors.length > 0) throw StatusError.invalid(tokenRequestRef, '', errors);

  let boundObject: BoundObject | undefined;
  const ref = isJsonObject(spec.boundObjectRef) ? spec.boundObjectRef : undefined;
  if (ref !== undefined) {
    const kind = typeof ref.kind === 'string' ? ref.kind : '';
    const apiVersion = typeof ref.apiVersion === 'string' ? ref.apiVersion : '';
    const refName = typeof ref.name === 'string' ? ref.name : '';
    const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
    let object: KubernetesObject | undefined;
    if (group === '' && kind === 'Pod') {
      object = deps.lookup('pods', namespace, refName);
      if (object === undefined) throw notFound('pods', refName);
      const podSpec = isJsonObject((object as Json).spec) ? ((object as Json).spec as Json) : {};
      if (podSpec.serviceAccountName !== name)
        throw StatusError.badRequest(
          `cannot bind token for serviceaccount ${JSON.stringify(name)} to pod running with different serviceaccount name.`,
        );
    } else if (group === '' && kind === 'Secret') {
      object = deps.lookup('secrets', namespace, refName);
      if (object === undefined) throw notFound('secrets', refName);
    } else {
      const version = apiVersion.includes('/')
        ? apiVersion.slice(apiVersion.indexOf('/') + 1)
        : apiVersion;
      throw StatusError.badRequest(
        `cannot bind token to object of type ${group === '' ? '' : `${group}/`}${version}, Kind=${kind}`,
      );
    }
    const uid = object.metadata?.uid ?? '';
    if (typeof ref.uid === 'string' && ref.uid !== '' && ref.uid !== uid)
      throw StatusError.conflict(
        { group: '', resource: kind, kind },
        refName,
        `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
      );
    boundObject = { kind: kind as 'Pod' | 'Secret', name: refName, uid };
  }

  const lifetime =
    boundObject?.kind === 'Pod' &&
    expirationSeconds === warnOnlyExpirationSeconds &&
    audiences.every((audience) => audience === deps.authenticator.issuer)
      ? extendedExpirationSeconds
      : expirationSeconds;
  const now = deps.now();
  const issued = deps.authenticator.issueServiceAccountToken({
    namespace,
    name,
    uid: account.metadata?.uid ?? '',
    audiences,
    expirationSeconds: lifetime,
    ...(boundObject === undefined ? {} : { boundObject }),
  });
  return {
    kind: 'TokenRequest',
    apiVersion: 'authentication.k8s.io/v1',
    metadata: { name, namespace, creationTimestamp: formatRfc3339Seconds(now) },
    spec: {
      audiences,
      expirationSeconds,
      boundObjectRef: ref === undefined ? null : ref,
    },
    status: {
      token: issued.token,
      expirationTimestamp: formatRfc3339Seconds(new Date(now.getTime() + expirationSeconds * 1000)),
    },
  };
}

/**
 * Serves `.../serviceaccounts/<name>/token`: a POST is read (at most `maxBodyBytes`) and
 * answered 201 by {@link createTokenRequest}, the account and bound objects looked up by
 * `authenticator`; any other method is 405, as kube-apiserver answers.
 */
export async function serveTokenRequest(
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  namespace: string,
  name: string,
  deps: Omit<TokenRequestDeps, 'lookup'> & { maxBodyBytes: number },
): Promise<void> {
  if (method !== 'POST')
    throw StatusError.methodNotAllowed(
      'the server does not allow this method on the requested resource',
    );
  const body = await readRequestBody(deps.maxBodyBytes, req);
  sendJson(
    res,
    201,
    createTokenRequest(namespace, name, body, { ...deps, lookup: deps.authenticator.lookup }),
  );
}
