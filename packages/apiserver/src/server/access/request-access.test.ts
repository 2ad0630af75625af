import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ResourceRegistry } from '../../registry/resource-registry.js';
import { ObjectStore } from '../../store/object-store.js';
import { RequestAccess } from './request-access.js';

const request = (headers: Record<string, string[]>): IncomingMessage =>
  ({
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.join(', ')])),
    headersDistinct: headers,
    url: '/api/v1/namespaces/default/secrets',
  }) as unknown as IncomingMessage;

describe('RequestAccess', () => {
  const store = new ObjectStore({ historySize: 10 });
  const access = new RequestAccess(store, new ResourceRegistry(), {
    rbac: false,
    now: () => new Date(),
  });
  const query = new URLSearchParams();

  it('admits authenticated users to anything without RBAC, anonymous ones not to Secrets', () => {
    const token = access.tokens.issueUserToken({ name: 'jane', groups: ['system:authenticated'] });
    const jane = request({ authorization: [`Bearer ${token}`] });
    expect(access.admit(jane, 'GET', '/api/v1/namespaces/default/secrets', query).name).toBe(
      'jane',
    );
    expect(() =>
      access.admit(request({}), 'GET', '/api/v1/namespaces/default/secrets', query),
    ).toThrow(
      'secrets is forbidden: User "system:anonymous" cannot list resource "secrets" in API group "" in the namespace "default"',
    );
    expect(() =>
      access.admit(request({ authorization: ['Bearer nope'] }), 'GET', '/version', query),
    ).toThrow('Unauthorized');
  });

  it('decides by the stored policy once RBAC is on, for the impersonated user', () => {
    access.rbac = true;
    const token = access.tokens.issueUserToken({ name: 'root', groups: ['system:masters'] });
    // The store holds no RBAC objects: the impersonated bob may do nothing.
    const asBob = (path: string) =>
      access.admit(
        request({ authorization: [`Bearer ${token}`], 'impersonate-user': ['bob'] }),
        'GET',
        path,
        query,
      );
    expect(() => asBob('/version')).toThrow('forbidden: User "bob" cannot get path "/version"');
    expect(() => asBob('/api/v1/namespaces/default/secrets')).toThrow(
      'secrets is forbidden: User "bob" cannot list resource "secrets"',
    );
    access.rbac = false;
  });
});
