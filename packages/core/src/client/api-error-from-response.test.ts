import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors/api-error.js';
import type { TransportResponse } from '../transport/kube-transport.js';
import {
  type ApiRequestContext,
  apiErrorFromFailure,
  apiErrorFromResponse,
  notFoundError,
  reasonForCode,
} from './api-error-from-response.js';
import {
  ignoreNotFound,
  isAlreadyExists,
  isConflict,
  isConnectionFailed,
  isForbidden,
  isGone,
  isInvalid,
  isNotFound,
  isTooManyRequests,
  isUnauthorized,
} from './api-error-helpers.js';

const context: ApiRequestContext = {
  verb: 'patch',
  method: 'PATCH',
  path: '/apis/apps/v1/namespaces/default/deployments/web',
  group: 'apps',
  resource: 'deployments',
  namespace: 'default',
  name: 'web',
};

const answer = (
  status: number,
  body: unknown,
  headers: TransportResponse['headers'] = {},
): TransportResponse => ({
  status,
  headers,
  text: typeof body === 'string' ? body : JSON.stringify(body),
});

const statusBody = (code: number, reason: string, message: string, details?: object) => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message,
  reason,
  code,
  ...(details ? { details } : {}),
});

describe('apiErrorFromResponse', () => {
  it('names the RBAC rule a 403 needs, from the server message', () => {
    const error = apiErrorFromResponse(
      answer(
        403,
        statusBody(
          403,
          'Forbidden',
          'deployments.apps "web" is forbidden: User "system:serviceaccount:ops:app" cannot patch resource "deployments" in API group "apps" in the namespace "default"',
          { name: 'web', group: 'apps', kind: 'deployments' },
        ),
      ),
      context,
    );
    expect(ApiError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 403, reason: 'Forbidden' });
    expect(error.message).toBe(
      'deployments.apps "web" is forbidden: User "system:serviceaccount:ops:app" cannot patch resource "deployments" in API group "apps" in the namespace "default"; add a rule {apiGroups: ["apps"], resources: ["deployments"], verbs: ["patch"]} to the operator\'s Role or ClusterRole',
    );
    expect(error.status.details?.kind).toBe('deployments');
    expect(isForbidden(error)).toBe(true);
  });

  it('words 403s at the cluster scope, on subresources, on paths, and without a message', () => {
    const cluster = apiErrorFromResponse(
      answer(
        403,
        statusBody(
          403,
          'Forbidden',
          'nodes is forbidden: User "u" cannot list resource "nodes" in API group "" at the cluster scope',
        ),
      ),
      { verb: 'list', method: 'GET', path: '/api/v1/nodes', group: '', resource: 'nodes' },
    );
    expect(cluster.message).toContain(
      `add a rule {apiGroups: [""], resources: ["nodes"], verbs: ["list"]} to the operator's ClusterRole`,
    );
    const status = apiErrorFromResponse(
      answer(
        403,
        statusBody(
          403,
          'Forbidden',
          'widgets.ops.test "w" is forbidden: User "u" cannot update resource "widgets/status" in API group "ops.test" in the namespace "n"',
        ),
      ),
      context,
    );
    expect(status.message).toContain('resources: ["widgets/status"], verbs: ["update"]');
    const path = apiErrorFromResponse(
      answer(403, statusBody(403, 'Forbidden', 'forbidden: User "u" cannot get path "/metrics"')),
      { verb: 'get', method: 'GET', path: '/metrics' },
    );
    expect(path.message).toContain(`{nonResourceURLs: ["/metrics"], verbs: ["get"]}`);
    const bare = apiErrorFromResponse(answer(403, 'denied'), {
      ...context,
      subresource: 'scale',
    });
    expect(bare.reason).toBe('Forbidden');
    expect(bare.message).toContain(
      'the server answered 403 Forbidden (patch deployments.apps/scale "web"',
    );
    expect(bare.message).toContain('resources: ["deployments/scale"], verbs: ["patch"]');
  });

  it('answers an admission refusal with what that admission wants, not an RBAC rule', () => {
    const refusal = (message: string) =>
      apiErrorFromResponse(answer(403, statusBody(403, 'Forbidden', message)), {
        verb: 'create',
        method: 'POST',
        path: '/api/v1/namespaces/n/pods',
        group: '',
        resource: 'pods',
        namespace: 'n',
      });
    const owner = refusal(
      'pods "p" is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to a resource you can\'t set finalizers on: , <nil>',
    );
    expect(owner.reason).toBe('Forbidden');
    expect(owner.message).toContain(
      "add update on <owner plural>/finalizers to the operator's ClusterRole",
    );
    expect(owner.message).not.toContain('resources: ["pods"]');
    const podSecurity = refusal(
      'pods "p" is forbidden: violates PodSecurity "restricted:latest": runAsNonRoot != true',
    );
    expect(podSecurity.message).toContain(
      "the namespace's Pod Security Standard (its pod-security.kubernetes.io/enforce label) refuses this Pod",
    );
    expect(podSecurity.message).not.toContain('add a rule');
    const other = refusal('pods "p" is forbidden: exceeded quota: q, requested: pods=1');
    expect(other.message).toBe('pods "p" is forbidden: exceeded quota: q, requested: pods=1');
  });

  it('keeps Invalid causes and says what to fix', () => {
    const causes = [
      { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.selector' },
      { reason: 'FieldValueInvalid', message: 'must be positive', field: 'spec.replicas' },
    ];
    const error = apiErrorFromResponse(
      answer(
        422,
        statusBody(
          422,
          'Invalid',
          'Deployment.apps "web" is invalid: spec.selector: Required value',
          {
            causes,
          },
        ),
      ),
      context,
    );
    expect(isInvalid(error)).toBe(true);
    expect(error.details.causes).toEqual(causes);
    expect(error.message).toContain('fix the object: spec.replicas: must be positive');
  });

  it('maps each reason to its helper and its advice', () => {
    const cases: Array<[number, string, (e: unknown) => boolean, string]> = [
      [404, 'NotFound', isNotFound, 'NotFound happened'],
      [409, 'AlreadyExists', isAlreadyExists, 'createOrUpdate'],
      [409, 'Conflict', isConflict, 'retryOnConflict'],
      [410, 'Gone', isGone, 'start the list or watch again'],
      [410, 'Expired', isGone, 'has expired'],
      [429, 'TooManyRequests', isTooManyRequests, 'retry after 3 s'],
      [401, 'Unauthorized', isUnauthorized, 'rejected the credentials of kubeconfig user "me"'],
    ];
    for (const [code, reason, predicate, fragment] of cases) {
      const error = apiErrorFromResponse(
        answer(code, statusBody(code, reason, `${reason} happened`, { retryAfterSeconds: 3 })),
        { ...context, user: 'me' },
      );
      expect(error.reason).toBe(reason);
      expect(predicate(error)).toBe(true);
      expect(isNotFound(error)).toBe(reason === 'NotFound');
      expect(error.message).toContain(fragment);
    }
  });

  it('explains a 415 for each patch type', () => {
    const unsupported = answer(
      415,
      statusBody(415, 'UnsupportedMediaType', 'the body of the request was in an unknown format'),
    );
    expect(
      apiErrorFromResponse(unsupported, { ...context, contentType: 'application/apply-patch+yaml' })
        .message,
    ).toContain("this API server does not support server-side apply (patch type 'apply')");
    expect(
      apiErrorFromResponse(unsupported, {
        ...context,
        contentType: 'application/strategic-merge-patch+json',
      }).message,
    ).toContain('custom resources never do');
  });

  it('infers the reason from the code when the body is not a Status, as client-go does', () => {
    expect(reasonForCode(404)).toBe('NotFound');
    expect(reasonForCode(504)).toBe('Timeout');
    expect(reasonForCode(418)).toBe('Unknown');
    const throttled = apiErrorFromResponse(
      answer(429, 'slow down', { 'retry-after': '7' }),
      context,
    );
    expect(throttled).toMatchObject({ code: 429, reason: 'TooManyRequests', retryAfterSeconds: 7 });
    expect(throttled.status).toMatchObject({
      kind: 'Status',
      code: 429,
      reason: 'TooManyRequests',
    });
    expect(throttled.message).toContain('slow down');
    const html = apiErrorFromResponse(answer(502, '<html>Bad Gateway</html>'), context);
    expect(html).toMatchObject({ code: 502, reason: 'Unknown' });
    expect(html.message).toContain('<html>Bad Gateway</html>');
    const empty = apiErrorFromResponse(answer(500, ''), context);
    expect(empty.message).toContain('the server answered 500 InternalError');
    expect(empty.message).toContain('retry later');
  });

  it('builds cache NotFound errors and connection failures', () => {
    const notFound = notFoundError('apps', 'deployments', 'web');
    expect(notFound.message).toBe('deployments.apps "web" not found');
    expect(notFound.details).toEqual({ name: 'web', group: 'apps', kind: 'deployments' });
    const refused = apiErrorFromFailure(
      new Error('connect ECONNREFUSED'),
      context,
      'https://k:6443/',
    );
    expect(isConnectionFailed(refused)).toBe(true);
    expect(refused.code).toBe(0);
    expect(refused.message).toContain('could not reach the API server at https://k:6443/');
  });
});

describe('ignoreNotFound', () => {
  const notFound = notFoundError('', 'configmaps', 'x');
  const conflict = apiErrorFromResponse(answer(409, statusBody(409, 'Conflict', 'stale')), context);

  it('resolves a NotFound promise with undefined and passes other outcomes through', async () => {
    expect(await ignoreNotFound(Promise.reject(notFound))).toBeUndefined();
    expect(await ignoreNotFound(Promise.resolve(5))).toBe(5);
    await expect(ignoreNotFound(Promise.reject(conflict))).rejects.toBe(conflict);
  });

  it('swallows a NotFound error and rethrows any other', () => {
    expect(ignoreNotFound(notFound)).toBeUndefined();
    expect(() => ignoreNotFound(conflict)).toThrow(conflict);
    const plain = new Error('plain');
    expect(() => ignoreNotFound(plain)).toThrow(plain);
  });

  it('recognises only ApiErrors', () => {
    expect(isNotFound({ reason: 'NotFound' })).toBe(false);
    expect(isNotFound(undefined)).toBe(false);
  });
});
