import { configMap, deployment } from '@ops/envtest';
import type { FidelityScenario } from '../scenario.js';
import { resourceVersionOf } from './object-fields.js';
import { useNamespace } from './use-namespace.js';

const ns = 'fidelity-errors';
const collection = `/api/v1/namespaces/${ns}/configmaps`;

/** Errors and their Status bodies: 400, 404, 405, 406, 409, 415, 422. */
export const errors: FidelityScenario = {
  name: 'errors/status',
  description:
    'Status bodies of NotFound, AlreadyExists, Conflict, Invalid (causes), BadRequest, MethodNotAllowed, NotAcceptable, UnsupportedMediaType',
  async run(session) {
    await useNamespace(session, ns);
    await session.send('404 configmap', { method: 'GET', path: `${collection}/missing` });
    await session.send('404 deployment (group in details)', {
      method: 'GET',
      path: `/apis/apps/v1/namespaces/${ns}/deployments/missing`,
    });
    await session.send('404 namespace', {
      method: 'GET',
      path: '/api/v1/namespaces/fidelity-missing',
    });
    await session.send('404 unknown resource', {
      method: 'GET',
      path: `/api/v1/namespaces/${ns}/gizmos`,
    });
    await session.send('404 unknown group', { method: 'GET', path: '/apis/nope.example.com/v1' });
    await session.send('404 unknown path', { method: 'GET', path: '/nothing/here' });
    // An encoded `/` separates path segments as a plain one does (Go decodes it into the path
    // that kube-apiserver routes): one segment too many is no route.
    await session.send('404 namespace segment with an encoded /..', {
      method: 'GET',
      path: `/api/v1/namespaces/kube-system%2F..%2F${ns}/configmaps`,
    });
    await session.send('404 create under a namespace segment with an encoded /', {
      method: 'POST',
      path: `/api/v1/namespaces/${ns}%2Fx/configmaps`,
      body: configMap(ns, 'slash', { a: '1' }),
    });
    await session.send('404 name segment with an encoded /', {
      method: 'DELETE',
      path: `${collection}/a%2Fb`,
    });
    const created = await session.send('create', {
      method: 'POST',
      path: collection,
      body: configMap(ns, 'taken', { a: '1' }),
    });
    await session.send('get through an encoded / between resource and name', {
      method: 'GET',
      path: `${collection}%2Ftaken`,
    });
    await session.send('409 AlreadyExists', {
      method: 'POST',
      path: collection,
      body: configMap(ns, 'taken', { a: '1' }),
    });
    await session.send('update', {
      method: 'PUT',
      path: `${collection}/taken`,
      body: {
        ...configMap(ns, 'taken', { a: '2' }),
        metadata: { name: 'taken', resourceVersion: resourceVersionOf(created) },
      },
    });
    await session.send('409 Conflict (stale resourceVersion)', {
      method: 'PUT',
      path: `${collection}/taken`,
      body: {
        ...configMap(ns, 'taken', { a: '3' }),
        metadata: { name: 'taken', resourceVersion: resourceVersionOf(created) },
      },
    });
    await session.send('404 update of a missing object', {
      method: 'PUT',
      path: `${collection}/absent`,
      body: { ...configMap(ns, 'absent'), metadata: { name: 'absent', resourceVersion: '5' } },
    });
    await session.send('422 invalid name', {
      method: 'POST',
      path: collection,
      body: configMap(ns, 'Bad_Name'),
    });
    await session.send('422 invalid data key and label', {
      method: 'POST',
      path: collection,
      body: configMap(ns, 'keys', { 'bad key': 'x' }, { 'bad label!': 'y' }),
    });
    const incomplete = deployment(ns, 'broken', 'nginx:1.27') as { spec: Record<string, unknown> };
    incomplete.spec.selector = undefined;
    incomplete.spec.template = {
      metadata: { labels: { app: 'broken' } },
      spec: { containers: [] },
    };
    await session.send('422 deployment with several causes', {
      method: 'POST',
      path: `/apis/apps/v1/namespaces/${ns}/deployments`,
      body: incomplete,
    });
    await session.send('400 malformed JSON', {
      method: 'POST',
      path: collection,
      body: '{"metadata": {',
    });
    await session.send('400 kind does not match the resource', {
      method: 'POST',
      path: collection,
      body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'secret' } },
    });
    await session.send('400 namespace does not match the URL', {
      method: 'POST',
      path: collection,
      body: configMap('elsewhere', 'moved'),
    });
    await session.send('400 name does not match the URL', {
      method: 'PUT',
      path: `${collection}/taken`,
      body: configMap(ns, 'other'),
    });
    await session.send('400 invalid label selector', {
      method: 'GET',
      path: `${collection}?labelSelector=a%20in%20b`,
    });
    await session.send('400 name missing', {
      method: 'POST',
      path: collection,
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: {} },
    });
    await session.send('405 POST to an object', {
      method: 'POST',
      path: `${collection}/taken`,
      body: configMap(ns, 'taken'),
    });
    await session.send('406 unacceptable Accept', {
      method: 'GET',
      path: `${collection}/taken`,
      accept: 'application/xml',
    });
    await session.send('415 unsupported Content-Type', {
      method: 'POST',
      path: collection,
      body: 'name: x',
      contentType: 'text/plain',
    });
    await session.send('415 unsupported patch type', {
      method: 'PATCH',
      path: `${collection}/taken`,
      body: '{}',
      contentType: 'application/json',
    });
  },
};
