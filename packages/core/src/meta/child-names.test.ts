import { describe, expect, it } from 'vitest';
import { type ChildName, childNameBudget, childNameProblems } from './child-names.js';

const applicationChildren: ChildName[] = [
  { what: 'Deployment name', rule: 'dns1123-subdomain', prefix: 'app-' },
  { what: 'label app.kubernetes.io/instance', rule: 'label-value' },
];

describe('childNameBudget', () => {
  it('is the longest name every derived string fits, never above 253', () => {
    expect(childNameBudget([])).toBe(253);
    expect(childNameBudget([{ what: 'Pod name', rule: 'dns1123-subdomain' }])).toBe(253);
    expect(childNameBudget([applicationChildren[0] as ChildName])).toBe(249);
    expect(childNameBudget(applicationChildren)).toBe(63);
    expect(
      childNameBudget([{ what: 'Service name', rule: 'dns1123-label', suffix: '-headless' }]),
    ).toBe(54);
  });
});

describe('childNameProblems', () => {
  const owner = (name: string) => ({ kind: 'Application', name });

  it('finds nothing wrong with names within the budget', () => {
    expect(childNameProblems(owner('demo'), applicationChildren)).toEqual([]);
    expect(childNameProblems(owner('a'.repeat(63)), applicationChildren)).toEqual([]);
  });

  it('names the object, the derived string, the rule broken and the fix', () => {
    const name = 'a'.repeat(64);
    expect(childNameProblems(owner(name), applicationChildren)).toEqual([
      `Application name "${name}" (64 characters) cannot be served: its label app.kubernetes.io/instance "${name}" would be invalid: must be no more than 63 characters; use an Application name of at most 63 characters`,
    ]);
    const long = `${'b'.repeat(120)}.${'c'.repeat(129)}`;
    const problems = childNameProblems(owner(long), applicationChildren);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain(
      `its Deployment name "app-${'b'.repeat(36)}...${'c'.repeat(20)}" would be invalid: must be no more than 253 characters`,
    );
  });

  it('asks for a name without dots when a derived string must be a DNS label', () => {
    const [problem] = childNameProblems({ kind: 'Database', name: 'my.db' }, [
      { what: 'Service name', rule: 'dns1123-label' },
    ]);
    expect(problem).toMatch(/a lowercase RFC 1123 label must consist of/);
    expect(problem).toMatch(/use a Database name of at most 63 characters without dots$/);
  });
});
