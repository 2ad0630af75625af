import { describe, expect, it } from 'vitest';
import type { PolicyRule } from './rbac-policy.js';
import type { RequestAttributes } from './request-attributes.js';
import { nonResourceURLMatches, resourceMatches, ruleAllows } from './rule-allows.js';

const user = { name: 'jane', groups: [] };

const resource = (overrides: Partial<RequestAttributes> = {}): RequestAttributes => ({
  user,
  verb: 'get',
  isResourceRequest: true,
  apiGroup: '',
  apiVersion: 'v1',
  resource: 'pods',
  subresource: '',
  namespace: 'ns',
  name: 'web',
  path: '/api/v1/namespaces/ns/pods/web',
  ...overrides,
});

const nonResource = (verb: string, path: string): RequestAttributes => ({
  user,
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

describe('ruleAllows on resource requests', () => {
  const podsReader: PolicyRule = { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] };

  it('needs the verb, the group, the resource and the name to match', () => {
    expect(ruleAllows(resource(), podsReader)).toBe(true);
    expect(ruleAllows(resource({ verb: 'delete' }), podsReader)).toBe(false);
    expect(ruleAllows(resource({ apiGroup: 'apps' }), podsReader)).toBe(false);
    expect(ruleAllows(resource({ resource: 'services' }), podsReader)).toBe(false);
  });

  it('takes * for verbs, groups and resources', () => {
    const all: PolicyRule = { verbs: ['*'], apiGroups: ['*'], resources: ['*'] };
    expect(
      ruleAllows(resource({ verb: 'escalate', apiGroup: 'x.io', resource: 'things' }), all),
    ).toBe(true);
    expect(ruleAllows(resource({ subresource: 'status' }), all)).toBe(true);
  });

  it('keeps subresources apart from their resource', () => {
    expect(ruleAllows(resource({ subresource: 'status' }), podsReader)).toBe(false);
    const status: PolicyRule = { verbs: ['update'], apiGroups: [''], resources: ['pods/status'] };
    expect(ruleAllows(resource({ verb: 'update', subresource: 'status' }), status)).toBe(true);
    expect(ruleAllows(resource({ verb: 'update' }), status)).toBe(false);
    expect(ruleAllows(resource({ verb: 'update', subresource: 'log' }), status)).toBe(false);
  });

  it('reads */subresource as that subresource of every resource', () => {
    const scale: PolicyRule = { verbs: ['*'], apiGroups: ['*'], resources: ['*/scale'] };
    expect(ruleAllows(resource({ resource: 'deployments', subresource: 'scale' }), scale)).toBe(
      true,
    );
    expect(ruleAllows(resource({ resource: 'deployments' }), scale)).toBe(false);
    expect(ruleAllows(resource({ resource: 'deployments', subresource: 'status' }), scale)).toBe(
      false,
    );
    expect(resourceMatches({ resources: ['*/scale'] }, 'x', 'cale')).toBe(false);
  });

  it('limits a rule with resourceNames to those names', () => {
    const named: PolicyRule = { ...podsReader, resourceNames: ['web', 'db'] };
    expect(ruleAllows(resource({ name: 'db' }), named)).toBe(true);
    expect(ruleAllows(resource({ name: 'cache' }), named)).toBe(false);
    expect(ruleAllows(resource({ name: '', verb: 'list' }), named)).toBe(false);
    expect(
      ruleAllows(resource({ name: '', verb: 'list' }), { ...podsReader, resourceNames: [] }),
    ).toBe(true);
  });

  it('never matches a resource request with a non-resource rule', () => {
    expect(ruleAllows(resource(), { verbs: ['*'], nonResourceURLs: ['*'] })).toBe(false);
  });
});

describe('ruleAllows on non-resource requests', () => {
  it('matches exact paths, * and trailing-* prefixes', () => {
    const rule: PolicyRule = { verbs: ['get'], nonResourceURLs: ['/healthz', '/logs/*'] };
    expect(ruleAllows(nonResource('get', '/healthz'), rule)).toBe(true);
    expect(ruleAllows(nonResource('get', '/healthz/ping'), rule)).toBe(false);
    expect(ruleAllows(nonResource('get', '/logs/'), rule)).toBe(true);
    expect(ruleAllows(nonResource('get', '/logs/kubelet.log'), rule)).toBe(true);
    expect(ruleAllows(nonResource('get', '/logs'), rule)).toBe(false);
    expect(ruleAllows(nonResource('post', '/healthz'), rule)).toBe(false);
    expect(
      ruleAllows(nonResource('post', '/anything'), { verbs: ['*'], nonResourceURLs: ['*'] }),
    ).toBe(true);
    expect(nonResourceURLMatches({ nonResourceURLs: ['/api**'] }, '/apis')).toBe(true);
  });

  it('never matches a non-resource request with a resource rule', () => {
    expect(
      ruleAllows(nonResource('get', '/healthz'), {
        verbs: ['*'],
        apiGroups: ['*'],
        resources: ['*'],
      }),
    ).toBe(false);
  });
});

describe('ruleAllows on malformed rules', () => {
  it('allows nothing and does not throw', () => {
    expect(ruleAllows(resource(), {})).toBe(false);
    expect(ruleAllows(resource(), null as unknown as PolicyRule)).toBe(false);
    expect(
      ruleAllows(resource(), { verbs: 'get', resources: 'pods' } as unknown as PolicyRule),
    ).toBe(false);
    expect(
      ruleAllows(resource(), {
        verbs: [7, 'get'],
        apiGroups: [''],
        resources: ['pods'],
      } as unknown as PolicyRule),
    ).toBe(true);
  });
});
