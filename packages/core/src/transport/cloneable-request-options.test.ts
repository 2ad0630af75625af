import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { cloneableRequestOptions } from './cloneable-request-options.js';

describe('cloneableRequestOptions', () => {
  it('keeps method, headers and TLS material and drops the agent', () => {
    const ca = Buffer.from('ca');
    const plain = {
      method: 'GET',
      headers: { Accept: 'application/json', Authorization: 'Bearer t' },
      ca,
      cert: [Buffer.from('cert')],
      rejectUnauthorized: false,
      servername: 'kubernetes',
    };
    const copy = cloneableRequestOptions({ ...plain, agent: new http.Agent(), timeout: undefined });
    expect(copy).toEqual(plain);
    expect(copy).not.toHaveProperty('agent');
    expect(copy).not.toHaveProperty('timeout');
    // What it returns can be copied to another thread (Buffers arrive as Uint8Arrays).
    const cloned = structuredClone(copy) as Record<string, unknown>;
    expect(Buffer.from(cloned.ca as Uint8Array).toString()).toBe('ca');
    expect(cloned.headers).toEqual(copy?.headers);
  });

  it('refuses options holding a function', () => {
    expect(cloneableRequestOptions({ method: 'GET', checkServerIdentity: () => undefined })).toBe(
      undefined,
    );
  });

  it('refuses class instances, at any depth', () => {
    expect(
      cloneableRequestOptions({ method: 'GET', headers: { x: new URL('http://a') } as never }),
    ).toBe(undefined);
    expect(cloneableRequestOptions({ method: 'GET', lookup: new Map() as never })).toBe(undefined);
  });
});
