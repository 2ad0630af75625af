import { describe, expect, it } from 'vitest';
import { authorize } from './authorize.js';
import { openPolicy } from './open-policy.js';
import { requestAttributesFrom } from './request-attributes.js';

const served = [
  { group: '', plural: 'configmaps' },
  { group: '', plural: 'secrets' },
  { group: '', plural: 'serviceaccounts' },
  { group: 'rbac.authorization.k8s.io', plural: 'clusterrolebindings' },
];
const anonymous = { name: 'system:anonymous', groups: ['system:unauthenticated'] };
const jane = { name: 'jane', groups: ['system:authenticated'] };
const allowed = (user: typeof jane, method: string, path: string) =>
  authorize(requestAttributesFrom(method, path, undefined, user), openPolicy({}, served)).allowed;

describe('openPolicy', () => {
  it('lets authenticated users do anything', () => {
    expect(allowed(jane, 'GET', '/api/v1/namespaces/a/secrets/x')).toBe(true);
    expect(allowed(jane, 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings')).toBe(
      true,
    );
  });

  it('lets anonymous callers use ordinary verbs but never on Secrets, tokens or RBAC writes', () => {
    expect(allowed(anonymous, 'POST', '/api/v1/namespaces/a/configmaps')).toBe(true);
    expect(allowed(anonymous, 'GET', '/api/v1/namespaces/a/configmaps?watch=true')).toBe(true);
    expect(allowed(anonymous, 'GET', '/openapi/v2')).toBe(true);
    expect(allowed(anonymous, 'GET', '/api/v1/namespaces/a/secrets/x')).toBe(false);
    expect(allowed(anonymous, 'GET', '/api/v1/secrets')).toBe(false);
    expect(allowed(anonymous, 'POST', '/api/v1/namespaces/a/serviceaccounts/sa/token')).toBe(false);
    expect(
      allowed(anonymous, 'GET', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings'),
    ).toBe(true);
    expect(
      allowed(anonymous, 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings'),
    ).toBe(false);
    expect(allowed(anonymous, 'POST', '/__ops/tokens')).toBe(false);
  });
});
