import { describe, expect, it } from 'vitest';
import { compareAnswers, formatPath, formatPattern } from './compare.js';
import type { NormalizedAnswer } from './normalize.js';

const answer = (body: unknown, status = 200): NormalizedAnswer => ({
  status,
  contentType: 'application/json',
  warnings: [],
  body,
});

describe('compareAnswers', () => {
  it('finds no difference between equal answers', () => {
    const body = { metadata: { name: 'a', labels: { x: '1' } }, data: { k: 'v' } };
    expect(compareAnswers(answer(body), answer(structuredClone(body)))).toEqual([]);
  });

  it('names each differing field, its kind and both values, ordered by path', () => {
    const differences = compareAnswers(
      answer({ metadata: { name: 'a', generation: 1 }, data: { k: 'v' } }, 200),
      answer({ metadata: { name: 'a', managedFields: [{ manager: 'm' }] }, data: { k: 'w' } }, 201),
    );
    expect(differences).toEqual([
      { path: 'body.data.k', pattern: 'body.data.k', kind: 'differs', local: 'v', real: 'w' },
      {
        path: 'body.metadata.generation',
        pattern: 'body.metadata.generation',
        kind: 'only locally',
        local: 1,
      },
      {
        path: 'body.metadata.managedFields',
        pattern: 'body.metadata.managedFields',
        kind: 'missing locally',
        real: [{ manager: 'm' }],
      },
      { path: 'status', pattern: 'status', kind: 'differs', local: 200, real: 201 },
    ]);
  });

  it('compares a JSON body with a text body as one difference', () => {
    expect(compareAnswers(answer({ kind: 'Status' }), answer('404 page not found\n'))).toEqual([
      {
        path: 'body',
        pattern: 'body',
        kind: 'differs',
        local: { kind: 'Status' },
        real: '404 page not found\n',
      },
    ]);
  });

  it('names array elements by index and extra ones as missing', () => {
    const differences = compareAnswers(answer({ items: [1] }), answer({ items: [1, 2] }));
    expect(differences).toEqual([
      { path: 'body.items[1]', pattern: 'body.items[*]', kind: 'missing locally', real: 2 },
    ]);
  });
});

describe('formatPath and formatPattern', () => {
  it('writes identifiers with dots, indices and other keys in brackets', () => {
    const segments = ['body', 'items', 0, 'metadata', 'labels', 'app.kubernetes.io/name'];
    expect(formatPath(segments)).toBe('body.items[0].metadata.labels["app.kubernetes.io/name"]');
    expect(formatPattern(segments)).toBe('body.items[*].metadata.labels["app.kubernetes.io/name"]');
  });

  it('writes discovery keys in brackets, and as [*] in patterns', () => {
    const segments = ['body', 'resources', 'name=pods/status', 'verbs', 'item=get'];
    expect(formatPath(segments)).toBe('body.resources[name=pods/status].verbs[item=get]');
    expect(formatPattern(segments)).toBe('body.resources[*].verbs[*]');
  });
});
