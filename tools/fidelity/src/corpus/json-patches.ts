import { configMap, deployment } from '@ops/envtest';
import type { FidelityScenario } from '../scenario.js';
import { useNamespace } from './use-namespace.js';

const ns = 'fidelity-json-patch';
const contentType = 'application/json-patch+json';

/** RFC 6902 JSON patches on built-in kinds, those that apply and those that cannot. */
export const jsonPatches: FidelityScenario = {
  name: 'patch/json-patch',
  description:
    'JSON patch: add, replace, remove, test, move on a ConfigMap and a Deployment; failing test, missing path, bad op',
  async run(session) {
    await useNamespace(session, ns);
    const cm = `/api/v1/namespaces/${ns}/configmaps/target`;
    await session.send('create configmap', {
      method: 'POST',
      path: `/api/v1/namespaces/${ns}/configmaps`,
      body: configMap(ns, 'target', { a: '1', b: '2' }),
    });
    const patch = (label: string, path: string, body: unknown) =>
      session.send(label, { method: 'PATCH', path, body, contentType });
    await patch('add and replace', cm, [
      { op: 'add', path: '/data/c', value: '3' },
      { op: 'replace', path: '/data/a', value: 'one' },
    ]);
    await patch('remove', cm, [{ op: 'remove', path: '/data/b' }]);
    await patch('test then add label', cm, [
      { op: 'test', path: '/data/a', value: 'one' },
      { op: 'add', path: '/metadata/labels', value: { patched: 'yes' } },
    ]);
    await patch('move and copy', cm, [
      { op: 'move', from: '/data/c', path: '/data/moved' },
      { op: 'copy', from: '/data/a', path: '/data/copied' },
    ]);
    await patch('failing test', cm, [{ op: 'test', path: '/data/a', value: 'other' }]);
    await patch('remove a missing path', cm, [{ op: 'remove', path: '/data/missing' }]);
    await patch('unknown op', cm, [{ op: 'frobnicate', path: '/data/a' }]);
    await patch('not a list', cm, { op: 'add', path: '/data/x', value: '1' });
    await patch('make it invalid', cm, [
      { op: 'replace', path: '/metadata/name', value: 'Other_Name' },
    ]);
    const deploy = `/apis/apps/v1/namespaces/${ns}/deployments/web`;
    await session.send('create deployment', {
      method: 'POST',
      path: `/apis/apps/v1/namespaces/${ns}/deployments`,
      body: deployment(ns, 'web', 'nginx:1.27'),
    });
    await patch('deployment: replace image and replicas', deploy, [
      { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.28' },
      { op: 'replace', path: '/spec/replicas', value: 4 },
    ]);
    await patch('deployment: append a container', deploy, [
      {
        op: 'add',
        path: '/spec/template/spec/containers/-',
        value: { name: 'sidecar', image: 'busybox:1.36' },
      },
    ]);
    await patch('deployment: patch status through the main resource', deploy, [
      { op: 'add', path: '/status', value: { replicas: 9 } },
    ]);
    await patch('missing object', `/api/v1/namespaces/${ns}/configmaps/nobody`, [
      { op: 'add', path: '/data/a', value: '1' },
    ]);
  },
};
