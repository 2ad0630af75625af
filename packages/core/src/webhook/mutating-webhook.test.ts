import type { KubernetesObject } from '@ops/api';
import jsonPatch from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import type { AdmissionResult } from './admission-handler.js';
import type { AdmissionOperation, AdmissionRequest } from './admission-review.js';
import { mutatingWebhook } from './mutating-webhook.js';

interface Application extends KubernetesObject {
  spec: { image: string; replicas?: number; ports?: number[] };
}

const app = (): Application => ({
  apiVersion: 'core.crd.lixueduan.com/v1',
  kind: 'Application',
  metadata: { name: 'demo', namespace: 'default', labels: { team: 'a' } },
  spec: { image: 'nginx:1.27', ports: [80] },
});

function request(
  operation: AdmissionOperation,
  fields: Partial<AdmissionRequest> = {},
): AdmissionRequest {
  return {
    uid: 'uid-1',
    kind: { group: 'core.crd.lixueduan.com', version: 'v1', kind: 'Application' },
    resource: { group: 'core.crd.lixueduan.com', version: 'v1', resource: 'applications' },
    name: 'demo',
    namespace: 'default',
    operation,
    userInfo: { username: 'admin' },
    ...(operation === 'DELETE' ? { oldObject: app() } : { object: app() }),
    ...fields,
  };
}

function decodePatch(result: AdmissionResult): jsonPatch.Operation[] {
  expect(result.patchType).toBe('JSONPatch');
  return JSON.parse(Buffer.from(result.patch ?? '', 'base64').toString('utf8'));
}

describe('mutatingWebhook', () => {
  const defaulter = mutatingWebhook<Application>((obj) => {
    obj.spec.replicas ??= 1;
    obj.spec.ports?.push(443);
    if (obj.metadata?.labels) delete obj.metadata.labels.team;
    return obj;
  });

  it('returns a JSONPatch that turns the request object into the returned object', async () => {
    const input = request('CREATE');
    const result = await defaulter(input);
    expect(result.allowed).toBe(true);
    const operations = decodePatch(result);
    const patched = jsonPatch.applyPatch(structuredClone(input.object), operations).newDocument;
    expect(patched).toEqual({
      ...app(),
      metadata: { name: 'demo', namespace: 'default', labels: {} },
      spec: { image: 'nginx:1.27', ports: [80, 443], replicas: 1 },
    });
  });

  it('gives the function a copy, leaving request.object untouched', async () => {
    const input = request('UPDATE', { oldObject: app() });
    await defaulter(input);
    expect(input.object).toEqual(app());
  });

  it('answers a plain allow without patch when nothing changed', async () => {
    const result = await mutatingWebhook((obj) => ({ ...obj }))(request('CREATE'));
    expect(result).toEqual({ allowed: true });
  });

  it('ignores fields set to undefined, as JSON does', async () => {
    const result = await mutatingWebhook<Application>((obj) => ({ ...obj, extra: undefined }))(
      request('CREATE'),
    );
    expect(result).toEqual({ allowed: true });
  });

  it('accepts an async function that builds a new object', async () => {
    const result = await mutatingWebhook<Application>(async (obj) => ({
      ...obj,
      spec: { ...obj.spec, image: 'nginx:1.28' },
    }))(request('CREATE'));
    expect(decodePatch(result)).toEqual([
      { op: 'replace', path: '/spec/image', value: 'nginx:1.28' },
    ]);
  });

  it('returns the warnings given with request.warn', async () => {
    const result = await mutatingWebhook<Application>((obj, req) => {
      req.warn('spec.replicas defaulted to 1');
      return { ...obj, spec: { ...obj.spec, replicas: 1 } };
    })(request('CREATE'));
    expect(result.warnings).toEqual(['spec.replicas defaulted to 1']);
    expect(decodePatch(result)).toEqual([{ op: 'add', path: '/spec/replicas', value: 1 }]);
  });

  it('allows DELETE and CONNECT without calling the function', async () => {
    let calls = 0;
    const webhook = mutatingWebhook((obj) => {
      calls++;
      return obj;
    });
    expect(await webhook(request('DELETE'))).toEqual({ allowed: true });
    expect(await webhook(request('CONNECT', { object: { kind: 'PodExecOptions' } }))).toEqual({
      allowed: true,
    });
    expect(calls).toBe(0);
  });

  it('answers 400 when a CREATE has no object', async () => {
    const result = await defaulter(request('CREATE', { object: null }));
    expect(result.allowed).toBe(false);
    expect(result.status?.code).toBe(400);
    expect(result.status?.message).toContain(
      'request.object must be an object for a CREATE request',
    );
  });

  it('answers 500 when the function returns no object', async () => {
    const result = await mutatingWebhook(() => undefined as unknown as KubernetesObject)(
      request('CREATE'),
    );
    expect(result.allowed).toBe(false);
    expect(result.status?.code).toBe(500);
    expect(result.status?.message).toBe(
      'mutating webhook function returned undefined; return the (changed) object it was given',
    );
  });
});
