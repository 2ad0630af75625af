import { describe, expect, it } from 'vitest';
import { PolicyRuleError } from '../errors/policy-rule-error.js';
import { mergePolicyRules } from './cluster-role.js';
import {
  customResourcePermissions,
  type PolicyRule,
  permission,
  rbacRules,
} from './policy-rule.js';

const all = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] as const;

describe('permission and rbacRules', () => {
  it('builds resource and non-resource rules', () => {
    expect(permission({ group: ['core', 'apps'], resources: 'pods', verbs: ['get'] })).toEqual({
      apiGroups: ['', 'apps'],
      resources: ['pods'],
      verbs: ['get'],
    });
    expect(permission({ nonResourceURLs: ['/metrics'], verbs: ['get'] })).toEqual({
      nonResourceURLs: ['/metrics'],
      verbs: ['get'],
    });
  });

  it('gives the permissions kubebuilder scaffolds for a custom resource', () => {
    expect(customResourcePermissions({ group: 'example.com', plural: 'things' })).toEqual([
      { apiGroups: ['example.com'], resources: ['things'], verbs: [...all] },
      {
        apiGroups: ['example.com'],
        resources: ['things/status'],
        verbs: ['get', 'update', 'patch'],
      },
      { apiGroups: ['example.com'], resources: ['things/finalizers'], verbs: ['update'] },
    ]);
  });

  it('flattens lists and copies the rules', () => {
    const rule: PolicyRule = { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get'] };
    const [copy, second] = rbacRules(rule, [rule]);
    expect(copy).toEqual(rule);
    expect(copy).not.toBe(rule);
    expect(second).toEqual(rule);
    copy?.verbs.push('list');
    expect(rule.verbs).toEqual(['get']);
  });

  const invalid: [string, PolicyRule, RegExp][] = [
    ['no verbs', { apiGroups: [''], resources: ['pods'], verbs: [] }, /at least one verb/],
    ['an empty verb', { apiGroups: [''], resources: ['pods'], verbs: [''] }, /non-empty strings/],
    ['no groups', { resources: ['pods'], verbs: ['get'] }, /apiGroups must list/],
    ['no resources', { apiGroups: [''], verbs: ['get'] }, /resources must list/],
    [
      'URLs and resources',
      { apiGroups: [''], resources: ['pods'], nonResourceURLs: ['/x'], verbs: ['get'] },
      /not both/,
    ],
    ['a relative URL', { nonResourceURLs: ['metrics'], verbs: ['get'] }, /must start with \//],
    [
      'resource names on URLs',
      { nonResourceURLs: ['/x'], resourceNames: ['a'], verbs: ['get'] },
      /resourceNames/,
    ],
  ];

  it.each(invalid)('rejects a rule with %s, showing the rule', (_name, rule, message) => {
    let error: unknown;
    try {
      rbacRules(rule);
    } catch (caught) {
      error = caught;
    }
    expect(PolicyRuleError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toContain(JSON.stringify(rule));
    expect(() => mergePolicyRules([rule])).toThrow(message);
  });
});
