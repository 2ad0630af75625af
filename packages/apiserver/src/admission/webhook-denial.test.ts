import { describe, expect, it } from 'vitest';
import { dryRunUnsupported, webhookDenied } from './webhook-denial.js';

describe('webhookDenied', () => {
  it('prefixes the message and keeps code, reason and details', () => {
    const error = webhookDenied('policy.example.com', {
      code: 403,
      reason: 'Forbidden',
      message: 'images must come from the registry',
      details: { name: 'web' },
    });
    expect(error.toStatus()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'admission webhook "policy.example.com" denied the request: images must come from the registry',
      reason: 'Forbidden',
      details: { name: 'web' },
      code: 403,
    });
  });

  it('falls back to the reason, then to "without explanation"', () => {
    expect(webhookDenied('w', { reason: 'NotAllowed' }).message).toBe(
      'admission webhook "w" denied the request: NotAllowed',
    );
    expect(webhookDenied('w', undefined).message).toBe(
      'admission webhook "w" denied the request without explanation',
    );
    expect(webhookDenied('w', {}).reason).toBe('');
  });

  it('raises codes below 400 to 400', () => {
    expect(webhookDenied('w', { code: 200, message: 'm' }).code).toBe(400);
    expect(webhookDenied('w', { message: 'm' }).code).toBe(400);
    expect(webhookDenied('w', { code: 429, message: 'm' }).code).toBe(429);
  });
});

describe('dryRunUnsupported', () => {
  it('is a 400 naming the webhook', () => {
    const error = dryRunUnsupported('w.example.com');
    expect(error.code).toBe(400);
    expect(error.reason).toBe('BadRequest');
    expect(error.message).toBe('admission webhook "w.example.com" does not support dry run');
  });
});
