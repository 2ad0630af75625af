import { describe, expect, it } from 'vitest';
import { corpus } from './index.js';

describe('corpus', () => {
  it('names each scenario area/topic, once, with a description', () => {
    const names = corpus.map((scenario) => scenario.name);
    expect(new Set(names).size).toBe(names.length);
    for (const scenario of corpus) {
      expect(scenario.name).toMatch(/^[a-z-]+\/[a-z-]+$/);
      expect(scenario.description.length).toBeGreaterThan(10);
    }
  });

  it('covers each concept of the issue', () => {
    const areas = new Set(corpus.map((scenario) => scenario.name.split('/')[0]));
    expect([...areas].sort()).toEqual([
      'admission',
      'crud',
      'custom-resource',
      'discovery',
      'errors',
      'list',
      'metadata',
      'openapi',
      'patch',
      'subresource',
      'table',
      'watch',
    ]);
  });
});
