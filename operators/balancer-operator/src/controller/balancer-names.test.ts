import { describe, expect, it } from 'vitest';
import { balancerNameProblems } from './balancer-names.js';

describe('balancerNameProblems', () => {
  it('accepts the sample and any name whose children all fit', () => {
    expect(balancerNameProblems('balancer-sample', ['v1', 'v2', 'v3'])).toEqual([]);
    expect(balancerNameProblems('b'.repeat(50), ['v1'])).toEqual([]);
  });

  it('refuses a name too long for the front Service and the proxy label, saying what fits', () => {
    const problems = balancerNameProblems('b'.repeat(64), ['v1']);
    expect(problems.length).toBeGreaterThanOrEqual(2);
    expect(problems.join('\n')).toContain('front Service name');
    expect(problems.join('\n')).toContain('label balancer.exposer.hliangzhao.io/balancer-name');
    expect(problems.join('\n')).toMatch(/use a Balancer name of at most \d+ characters/);
  });

  it('refuses a backend whose Service name would pass 63 characters, naming the backend', () => {
    const problems = balancerNameProblems('b'.repeat(40), ['v1', 'x'.repeat(20)]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(`Service name of backend "${'x'.repeat(20)}"`);
  });
});
