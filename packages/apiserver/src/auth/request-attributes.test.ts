import { describe, expect, it } from 'vitest';
import { StatusError } from '../api/status-error.js';
import { serviceAccountUser } from './authenticated-user.js';
import { anonymousUser, requestAttributesFrom } from './request-attributes.js';

const pick = (
  method: string,
  path: string,
  query?: Parameters<typeof requestAttributesFrom>[2],
) => {
  const { user: _user, ...rest } = requestAttributesFrom(method, path, query);
  return rest;
};

describe('requestAttributesFrom', () => {
  it('reads a namespaced subresource of a core object', () => {
    expect(pick('PUT', '/api/v1/namespaces/ns/pods/name/status')).toEqual({
      verb: 'update',
      isResourceRequest: true,
      apiGroup: '',
      apiVersion: 'v1',
      resource: 'pods',
      subresource: 'status',
      namespace: 'ns',
      name: 'name',
      path: '/api/v1/namespaces/ns/pods/name/status',
    });
  });

  it('reads a namespaced collection of a named group', () => {
    expect(pick('GET', '/apis/apps/v1/namespaces/ns/deployments')).toMatchObject({
      verb: 'list',
      isResourceRequest: true,
      apiGroup: 'apps',
      apiVersion: 'v1',
      resource: 'deployments',
      subresource: '',
      namespace: 'ns',
      name: '',
    });
    expect(pick('POST', '/apis/apps/v1/namespaces/ns/deployments')).toMatchObject({
      verb: 'create',
      name: '',
    });
  });

  it('reads cluster-scoped resources and all-namespace lists', () => {
    expect(pick('GET', '/api/v1/nodes/node-1')).toMatchObject({
      verb: 'get',
      resource: 'nodes',
      name: 'node-1',
      namespace: '',
    });
    expect(pick('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles')).toMatchObject({
      verb: 'list',
      apiGroup: 'rbac.authorization.k8s.io',
      resource: 'clusterroles',
      namespace: '',
    });
    expect(pick('GET', '/api/v1/pods')).toMatchObject({
      verb: 'list',
      resource: 'pods',
      namespace: '',
    });
  });

  it('treats a namespace as the namespaces resource in its own namespace', () => {
    expect(pick('GET', '/api/v1/namespaces/foo')).toMatchObject({
      resource: 'namespaces',
      name: 'foo',
      namespace: 'foo',
      subresource: '',
      verb: 'get',
    });
    expect(pick('GET', '/api/v1/namespaces')).toMatchObject({
      resource: 'namespaces',
      name: '',
      namespace: '',
      verb: 'list',
    });
    expect(pick('PUT', '/api/v1/namespaces/foo/finalize')).toMatchObject({
      resource: 'namespaces',
      name: 'foo',
      namespace: 'foo',
      subresource: 'finalize',
    });
    expect(pick('PATCH', '/api/v1/namespaces/foo/status')).toMatchObject({
      verb: 'patch',
      resource: 'namespaces',
      subresource: 'status',
    });
  });

  it.each([
    ['GET', '/api/v1/namespaces/ns/pods/p', undefined, 'get'],
    ['HEAD', '/api/v1/namespaces/ns/pods/p', undefined, 'get'],
    ['GET', '/api/v1/namespaces/ns/pods', undefined, 'list'],
    ['GET', '/api/v1/namespaces/ns/pods', 'watch=true', 'watch'],
    ['GET', '/api/v1/namespaces/ns/pods', 'watch=1', 'watch'],
    ['GET', '/api/v1/namespaces/ns/pods', 'watch=', 'watch'],
    ['GET', '/api/v1/namespaces/ns/pods', 'watch=false', 'list'],
    ['GET', '/api/v1/namespaces/ns/pods', 'watch=0', 'list'],
    ['GET', '/api/v1/watch/namespaces/ns/pods', undefined, 'watch'],
    ['GET', '/api/v1/watch/namespaces/ns/pods/p', undefined, 'watch'],
    ['POST', '/api/v1/namespaces/ns/pods', undefined, 'create'],
    ['PUT', '/api/v1/namespaces/ns/pods/p', undefined, 'update'],
    ['PATCH', '/api/v1/namespaces/ns/pods/p', undefined, 'patch'],
    ['DELETE', '/api/v1/namespaces/ns/pods/p', undefined, 'delete'],
    ['DELETE', '/api/v1/namespaces/ns/pods', undefined, 'deletecollection'],
    ['OPTIONS', '/api/v1/namespaces/ns/pods/p', undefined, ''],
    ['get', '/api/v1/namespaces/ns/pods/p', undefined, 'get'],
  ])('%s %s?%s is %s', (method, path, query, verb) => {
    expect(requestAttributesFrom(method, path, query).verb).toBe(verb);
  });

  it('keeps the name of a watch under /watch/', () => {
    expect(pick('GET', '/apis/apps/v1/watch/namespaces/ns/deployments/web')).toMatchObject({
      verb: 'watch',
      resource: 'deployments',
      name: 'web',
      namespace: 'ns',
      subresource: '',
    });
  });

  it('reads proxy requests without a subresource', () => {
    expect(pick('GET', '/api/v1/proxy/namespaces/ns/pods/p/some/path')).toMatchObject({
      verb: 'proxy',
      resource: 'pods',
      name: 'p',
      subresource: '',
    });
    expect(pick('GET', '/api/v1/namespaces/ns/pods/p/proxy/some/path')).toMatchObject({
      verb: 'get',
      subresource: 'proxy',
    });
  });

  it('names the object a list or watch selects by metadata.name', () => {
    expect(
      pick('GET', '/api/v1/namespaces/ns/pods', 'fieldSelector=metadata.name%3Dweb'),
    ).toMatchObject({
      verb: 'list',
      name: 'web',
    });
    expect(
      pick('GET', '/api/v1/namespaces/ns/pods', {
        watch: 'true',
        fieldSelector: 'metadata.name==web',
      }),
    ).toMatchObject({ verb: 'watch', name: 'web' });
    expect(
      pick(
        'GET',
        '/api/v1/pods',
        new URLSearchParams({ fieldSelector: 'spec.nodeName=n,metadata.name=a' }),
      ),
    ).toMatchObject({ name: 'a' });
    expect(pick('GET', '/api/v1/pods?fieldSelector=metadata.name%3Dfrom-path')).toMatchObject({
      name: 'from-path',
      path: '/api/v1/pods',
    });
  });

  it('names nothing when the selector does not pin metadata.name or does not decode', () => {
    expect(pick('GET', '/api/v1/pods', 'fieldSelector=metadata.name!%3Dweb').name).toBe('');
    expect(pick('GET', '/api/v1/pods', 'fieldSelector=metadata.name%3D..').name).toBe('');
    expect(pick('GET', '/api/v1/pods', 'fieldSelector=nonsense').name).toBe('');
    expect(pick('GET', '/api/v1/pods', 'fieldSelector=metadata.name%3Da&limit=x').name).toBe('');
    expect(
      pick('GET', '/api/v1/pods', 'fieldSelector=metadata.name%3Da&labelSelector=%3D%3D').name,
    ).toBe('');
    // a watch is still recognised when the options do not decode
    expect(pick('GET', '/api/v1/pods', 'watch=yes&limit=x').verb).toBe('watch');
    // the name of a delete collection is not taken from a selector
    expect(pick('DELETE', '/api/v1/pods', 'fieldSelector=metadata.name%3Da')).toMatchObject({
      verb: 'deletecollection',
      name: '',
    });
  });

  it.each([
    ['GET', '/healthz', 'get'],
    ['GET', '/version', 'get'],
    ['GET', '/api', 'get'],
    ['GET', '/apis', 'get'],
    ['GET', '/api/v1', 'get'],
    ['GET', '/apis/apps', 'get'],
    ['GET', '/apis/apps/v1', 'get'],
    ['GET', '/openapi/v2', 'get'],
    ['GET', '/metrics', 'get'],
    ['POST', '/logs/x', 'post'],
    ['PUT', '/', 'put'],
    ['DELETE', '/healthz/ping/more', 'delete'],
  ])('%s %s is a non-resource request', (method, path, verb) => {
    expect(pick(method, path)).toEqual({
      verb,
      isResourceRequest: false,
      apiGroup: '',
      apiVersion: '',
      resource: '',
      subresource: '',
      namespace: '',
      name: '',
      path,
    });
  });

  it('decodes the path', () => {
    expect(pick('GET', '/api/v1/namespaces/ns/configmaps/a%3Ab')).toMatchObject({
      name: 'a:b',
      path: '/api/v1/namespaces/ns/configmaps/a:b',
    });
  });

  it('attaches the user, anonymous by default', () => {
    expect(requestAttributesFrom('GET', '/healthz').user).toEqual(anonymousUser);
    const user = serviceAccountUser('default', 'sa');
    expect(requestAttributesFrom('GET', '/healthz', undefined, user).user).toBe(user);
  });

  it('fails as kube-apiserver does for a watch or proxy with nothing after it', () => {
    try {
      requestAttributesFrom('GET', '/api/v1/watch');
      expect.unreachable();
    } catch (error) {
      expect(StatusError.isInstance(error)).toBe(true);
      expect((error as StatusError).code).toBe(500);
      expect((error as StatusError).message).toBe(
        'Internal Server Error: "/api/v1/watch": failed to create RequestInfo: unable to determine kind and namespace from url, /api/v1/watch',
      );
    }
  });
});
