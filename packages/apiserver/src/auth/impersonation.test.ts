import { describe, expect, it } from 'vitest';
import { StatusError } from '../api/status-error.js';
import { impersonatedUser, impersonationRequests } from './impersonation.js';
import { type RequestAttributes, requestAttributesFrom } from './request-attributes.js';

const admin = { name: 'admin', groups: ['system:masters'] };
const allowAll = () => ({ allowed: true, reason: '' });

describe('impersonationRequests', () => {
  it('reads user, groups, extras and uid in kube order; a valid account name is a ServiceAccount', () => {
    expect(
      impersonationRequests(
        {
          'impersonate-uid': ['u1'],
          'impersonate-extra-scopes': ['a', 'b'],
          'impersonate-group': ['g1', 'g2'],
          'impersonate-user': ['system:serviceaccount:ns:sa'],
        },
        '/api',
      ).map((r) => `${r.kind}:${r.namespace}/${r.name}${r.fieldPath ? `@${r.fieldPath}` : ''}`),
    ).toEqual([
      'ServiceAccount:ns/sa',
      'Group:/g1',
      'Group:/g2',
      'UserExtra:/a@scopes',
      'UserExtra:/b@scopes',
      'UID:/u1',
    ]);
  });

  it('takes an account name that is not valid as a plain user name', () => {
    for (const name of [
      'system:serviceaccount:NS:sa',
      'system:serviceaccount:ns',
      'system:serviceaccount:ns:a:b',
    ])
      expect(impersonationRequests({ 'impersonate-user': [name] }, '/')[0]?.kind).toBe('User');
  });

  it('answers 500 for groups without a user, formatting the references as Go', () => {
    const attempt = () =>
      impersonationRequests({ 'impersonate-extra-a%2fb': ['v'] }, '/api/v1/pods?x=1');
    expect(attempt).toThrow(StatusError);
    expect(attempt).toThrow(
      'Internal Server Error: "/api/v1/pods?x=1": requested [{UserExtra  v  authentication.k8s.io/v1  a/b}] without impersonating a user',
    );
  });
});

describe('impersonatedUser', () => {
  it('is the requestor itself without headers', () => {
    expect(impersonatedUser(admin, {}, '/', allowAll)).toBe(admin);
  });

  it('adds system:authenticated unless a group says who the user is, and unauthenticated for anonymous', () => {
    expect(impersonatedUser(admin, { 'impersonate-user': ['jane'] }, '/', allowAll).groups).toEqual(
      ['system:authenticated'],
    );
    expect(
      impersonatedUser(
        admin,
        { 'impersonate-user': ['jane'], 'impersonate-group': ['system:unauthenticated'] },
        '/',
        allowAll,
      ).groups,
    ).toEqual(['system:unauthenticated']);
    expect(
      impersonatedUser(admin, { 'impersonate-user': ['system:anonymous'] }, '/', allowAll).groups,
    ).toEqual(['system:unauthenticated']);
    expect(
      impersonatedUser(
        admin,
        { 'impersonate-user': ['system:serviceaccount:ns:sa'], 'impersonate-group': ['x'] },
        '/',
        allowAll,
      ).groups,
    ).toEqual(['x', 'system:authenticated']);
  });

  it('asks the authorizer once per value, and refuses at the first denial with its reason', () => {
    const asked: RequestAttributes[] = [];
    const authorize = (attributes: RequestAttributes) => {
      asked.push(attributes);
      return { allowed: attributes.resource !== 'groups', reason: 'RBAC: nope' };
    };
    expect(() =>
      impersonatedUser(
        admin,
        { 'impersonate-user': ['jane'], 'impersonate-group': ['ops'] },
        '/',
        authorize,
      ),
    ).toThrow(
      'groups "ops" is forbidden: User "admin" cannot impersonate resource "groups" in API group "" at the cluster scope: RBAC: nope',
    );
    expect(asked.map((a) => [a.verb, a.resource, a.name])).toEqual([
      ['impersonate', 'users', 'jane'],
      ['impersonate', 'groups', 'ops'],
    ]);
  });

  it('checks the constrained action, then each identity, and falls back to the legacy verb', () => {
    const action = requestAttributesFrom('GET', '/api/v1/namespaces/team/pods', undefined, admin);
    const asked: string[] = [];
    const only = (allowed: string[]) => (attributes: RequestAttributes) => {
      const key = `${attributes.verb} ${attributes.apiGroup}/${attributes.resource} ${attributes.namespace}/${attributes.name}`;
      asked.push(key);
      return { allowed: allowed.includes(key), reason: '' };
    };
    const headers = {
      'impersonate-user': ['system:serviceaccount:team:ci'],
      'impersonate-group': ['g'],
    };
    const constrained = [
      'impersonate-on:serviceaccount:list /pods team/',
      'impersonate:serviceaccount authentication.k8s.io/serviceaccounts team/ci',
      'impersonate:user-info authentication.k8s.io/groups /g',
    ];
    expect(impersonatedUser(admin, headers, '/', only(constrained), action)).toEqual({
      name: 'system:serviceaccount:team:ci',
      groups: ['g', 'system:authenticated'],
    });
    expect(asked).toEqual(constrained);
    asked.length = 0;
    const legacy = ['impersonate /serviceaccounts team/ci', 'impersonate /groups /g'];
    expect(impersonatedUser(admin, headers, '/', only(legacy), action).name).toBe(
      'system:serviceaccount:team:ci',
    );
    expect(asked).toEqual([constrained[0], ...legacy]);
    expect(() =>
      impersonatedUser(admin, headers, '/', only([constrained[0] ?? '']), action),
    ).toThrow(
      'serviceaccounts.authentication.k8s.io "ci" is forbidden: User "admin" cannot impersonate:serviceaccount resource "serviceaccounts" in API group "authentication.k8s.io" in the namespace "team"',
    );
    expect(() =>
      impersonatedUser(admin, { 'impersonate-user': ['system:node:n1'] }, '/', only([]), action),
    ).toThrow(
      'pods is forbidden: User "admin" cannot impersonate-on:arbitrary-node:list resource "pods" in API group "" in the namespace "team"',
    );
  });
});
