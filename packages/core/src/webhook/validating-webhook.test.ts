import type { KubernetesObject } from '@ops/api';
import { describe, expect, it } from 'vitest';
import type { AdmissionOperation, AdmissionRequest } from './admission-review.js';
import type { FieldError } from './field-error.js';
import { validatingWebhook } from './validating-webhook.js';

interface Application extends KubernetesObject {
  spec: { image: string; replicas?: number };
}

const app = (image = 'nginx:1.27', replicas = 1): Application => ({
  apiVersion: 'core.crd.lixueduan.com/v1',
  kind: 'Application',
  metadata: { name: 'demo', namespace: 'default' },
  spec: { image, replicas },
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
    ...fields,
  };
}

const validateImage = (obj: Application): FieldError[] =>
  obj.spec.image === ''
    ? [{ field: 'spec.image', message: `invalid image name: ${obj.spec.image}` }]
    : [];

describe('validatingWebhook', () => {
  const webhook = validatingWebhook<Application>(validateImage);

  it('allows a valid object', async () => {
    expect(await webhook(request('CREATE', { object: app() }))).toEqual({ allowed: true });
  });

  it('allows when the function returns nothing', async () => {
    expect(await validatingWebhook(() => undefined)(request('CREATE', { object: app() }))).toEqual({
      allowed: true,
    });
  });

  it('denies with 403 Forbidden, the exact message and the causes', async () => {
    const result = await webhook(request('CREATE', { object: app('') }));
    expect(result).toEqual({
      allowed: false,
      status: {
        status: 'Failure',
        code: 403,
        reason: 'Forbidden',
        message: 'invalid image name: ',
        details: {
          name: 'demo',
          group: 'core.crd.lixueduan.com',
          kind: 'Application',
          causes: [
            { reason: 'FieldValueInvalid', message: 'invalid image name: ', field: 'spec.image' },
          ],
        },
      },
    });
  });

  it('denies with 422 Invalid when asked to', async () => {
    const result = await validatingWebhook<Application>(validateImage, { reason: 'Invalid' })(
      request('CREATE', { object: app('') }),
    );
    expect(result.status).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message: 'invalid image name: ',
    });
  });

  it('joins several errors', async () => {
    const result = await validatingWebhook<Application>(() => [
      { field: 'spec.image', message: 'must not be empty', type: 'FieldValueRequired' },
      { field: 'spec.replicas', message: 'must be positive' },
    ])(request('CREATE', { object: app() }));
    expect(result.status?.message).toBe(
      '[spec.image: must not be empty, spec.replicas: must be positive]',
    );
    expect(result.status?.details?.causes).toHaveLength(2);
  });

  it('passes object and oldObject on UPDATE', async () => {
    const seen: unknown[] = [];
    const result = await validatingWebhook<Application>((obj, oldObj) => {
      seen.push(obj.spec.replicas, oldObj?.spec.replicas);
      return oldObj && (obj.spec.replicas ?? 0) < (oldObj.spec.replicas ?? 0)
        ? [{ field: 'spec.replicas', message: 'may not decrease' }]
        : [];
    })(request('UPDATE', { object: app('nginx', 1), oldObject: app('nginx', 3) }));
    expect(seen).toEqual([1, 3]);
    expect(result.status?.message).toBe('may not decrease');
  });

  it('validates the oldObject on DELETE', async () => {
    const seen: unknown[] = [];
    const result = await validatingWebhook<Application>((obj, oldObj, req) => {
      seen.push(obj.spec.image, oldObj, req.operation);
      return [{ field: '', message: 'applications with image nginx:1.27 are protected' }];
    })(request('DELETE', { oldObject: app() }));
    expect(seen).toEqual(['nginx:1.27', undefined, 'DELETE']);
    expect(result.allowed).toBe(false);
    expect(result.status?.message).toBe('applications with image nginx:1.27 are protected');
  });

  it('allows CONNECT without calling the function', async () => {
    const result = await validatingWebhook(() => [{ field: '', message: 'no' }])(
      request('CONNECT', { object: { kind: 'PodExecOptions' } }),
    );
    expect(result).toEqual({ allowed: true });
  });

  it('returns warnings with either decision', async () => {
    const warnOnly = validatingWebhook<Application>((obj, _old, req) => {
      req.warn('spec.replicas is deprecated');
      return validateImage(obj);
    });
    expect(await warnOnly(request('CREATE', { object: app() }))).toEqual({
      allowed: true,
      warnings: ['spec.replicas is deprecated'],
    });
    const denied = await warnOnly(request('CREATE', { object: app('') }));
    expect(denied.allowed).toBe(false);
    expect(denied.warnings).toEqual(['spec.replicas is deprecated']);
  });

  it('answers 400 when the object is missing', async () => {
    const create = await webhook(request('CREATE'));
    expect(create.status).toMatchObject({ code: 400, reason: 'BadRequest' });
    const del = await webhook(request('DELETE', { object: app() }));
    expect(del.status?.message).toBe(
      'AdmissionReview request.oldObject must be an object for a DELETE request',
    );
    const update = await webhook(request('UPDATE', { object: app() }));
    expect(update.status?.message).toBe(
      'AdmissionReview request.oldObject must be an object for an UPDATE request',
    );
  });

  it('answers 500 when the function returns something other than a list', async () => {
    const result = await validatingWebhook(() => 'bad' as unknown as FieldError[])(
      request('CREATE', { object: app() }),
    );
    expect(result.status).toMatchObject({ code: 500, reason: 'InternalError' });
  });
});
