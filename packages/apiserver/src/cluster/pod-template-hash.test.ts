import { describe, expect, it } from 'vitest';
import { podTemplateHash } from './pod-template-hash.js';

describe('podTemplateHash', () => {
  const template = {
    metadata: { labels: { app: 'web' } },
    spec: { containers: [{ name: 'c', image: 'nginx' }] },
  };

  it('is stable whatever the key order, and uses the safe alphabet', () => {
    const reordered = {
      spec: { containers: [{ image: 'nginx', name: 'c' }] },
      metadata: { labels: { app: 'web' } },
    };
    expect(podTemplateHash(template)).toBe(podTemplateHash(reordered));
    expect(podTemplateHash(template)).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
  });

  it('changes with the template and with the collision count', () => {
    const other = { ...template, spec: { containers: [{ name: 'c', image: 'nginx:2' }] } };
    expect(podTemplateHash(other)).not.toBe(podTemplateHash(template));
    expect(podTemplateHash(template, 1)).not.toBe(podTemplateHash(template));
    expect(podTemplateHash(template, 0)).toBe(podTemplateHash(template));
  });
});
