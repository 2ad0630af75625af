import { describe, expect, it } from 'vitest';
import { StatusError } from '../api/status-error.js';
import { type AuthenticatedUser, serviceAccountUser } from './authenticated-user.js';
import { forbiddenError, forbiddenMessage } from './forbidden-error.js';
import { type RequestAttributes, requestAttributesFrom } from './request-attributes.js';

const sa = serviceAccountUser('default', 'sa');
const attrs = (
  method: string,
  path: string,
  user: AuthenticatedUser = sa,
  query?: string,
): RequestAttributes => requestAttributesFrom(method, path, query, user);

describe('forbiddenError', () => {
  it('words a named object', () => {
    const error = forbiddenError(attrs('GET', '/api/v1/namespaces/default/pods/x'));
    expect(StatusError.isInstance(error)).toBe(true);
    expect(error.code).toBe(403);
    expect(error.reason).toBe('Forbidden');
    expect(error.message).toBe(
      'pods "x" is forbidden: User "system:serviceaccount:default:sa" cannot get resource "pods" in API group "" in the namespace "default"',
    );
    expect(error.toStatus()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: error.message,
      reason: 'Forbidden',
      details: { name: 'x', kind: 'pods' },
      code: 403,
    });
  });

  it('words a collection at the cluster scope', () => {
    const error = forbiddenError(
      attrs('GET', '/apis/apps/v1/deployments', { name: 'jane', groups: [] }),
    );
    expect(error.message).toBe(
      'deployments.apps is forbidden: User "jane" cannot list resource "deployments" in API group "apps" at the cluster scope',
    );
    expect(error.details).toEqual({ group: 'apps', kind: 'deployments' });
  });

  it('words a namespaced collection and a watch', () => {
    expect(
      forbiddenError(attrs('GET', '/apis/apps/v1/namespaces/ns/deployments', sa, 'watch=true'))
        .message,
    ).toBe(
      'deployments.apps is forbidden: User "system:serviceaccount:default:sa" cannot watch resource "deployments" in API group "apps" in the namespace "ns"',
    );
    expect(forbiddenError(attrs('DELETE', '/api/v1/namespaces/ns/secrets')).message).toBe(
      'secrets is forbidden: User "system:serviceaccount:default:sa" cannot deletecollection resource "secrets" in API group "" in the namespace "ns"',
    );
  });

  it('words a subresource', () => {
    const error = forbiddenError(
      attrs('PUT', '/apis/core.crd.lixueduan.com/v1/namespaces/default/applications/demo/status'),
    );
    expect(error.message).toBe(
      'applications.core.crd.lixueduan.com "demo" is forbidden: User "system:serviceaccount:default:sa" cannot update resource "applications/status" in API group "core.crd.lixueduan.com" in the namespace "default"',
    );
    expect(error.details).toEqual({
      name: 'demo',
      group: 'core.crd.lixueduan.com',
      kind: 'applications',
    });
  });

  it('words a cluster-scoped object and a namespace', () => {
    expect(forbiddenError(attrs('DELETE', '/api/v1/nodes/n1')).message).toBe(
      'nodes "n1" is forbidden: User "system:serviceaccount:default:sa" cannot delete resource "nodes" in API group "" at the cluster scope',
    );
    expect(forbiddenError(attrs('GET', '/api/v1/namespaces/kube-system')).message).toBe(
      'namespaces "kube-system" is forbidden: User "system:serviceaccount:default:sa" cannot get resource "namespaces" in API group "" in the namespace "kube-system"',
    );
  });

  it('words a non-resource request', () => {
    const error = forbiddenError(attrs('GET', '/metrics', { name: 'x', groups: [] }));
    expect(error.message).toBe('forbidden: User "x" cannot get path "/metrics"');
    expect(error.toStatus().details).toEqual({});
    expect(forbiddenError(attrs('POST', '/', anonymous())).message).toBe(
      'forbidden: User "system:anonymous" cannot post path "/"',
    );
  });

  it('appends the reason after the message', () => {
    expect(
      forbiddenError(
        attrs('GET', '/api/v1/pods'),
        'RBAC: clusterrole.rbac.authorization.k8s.io "view" not found',
      ).message,
    ).toBe(
      'pods is forbidden: User "system:serviceaccount:default:sa" cannot list resource "pods" in API group "" at the cluster scope: RBAC: clusterrole.rbac.authorization.k8s.io "view" not found',
    );
  });

  it('escapes HTML and prints stray format verbs as Go does', () => {
    expect(forbiddenError(attrs('GET', '/x<y>&z', { name: 'a"b', groups: [] })).message).toBe(
      'forbidden: User "a\\"b" cannot get path "/x&lt;y&gt;&amp;z"',
    );
    expect(forbiddenError(attrs('GET', '/a%25d')).message).toBe(
      'forbidden: User "system:serviceaccount:default:sa" cannot get path "/a%!d(MISSING)"',
    );
  });

  it('exposes the bare message', () => {
    expect(forbiddenMessage(attrs('PATCH', '/apis/apps/v1/namespaces/n/deployments/d/scale'))).toBe(
      'User "system:serviceaccount:default:sa" cannot patch resource "deployments/scale" in API group "apps" in the namespace "n"',
    );
  });
});

function anonymous(): AuthenticatedUser {
  return { name: 'system:anonymous', groups: ['system:unauthenticated'] };
}
