import { describe, expect, it } from 'vitest';
import { normalizationRules, normalizeAnswer } from './normalize.js';
import type { Answer } from './scenario.js';

const answer = (body: unknown, extra: Partial<Answer> = {}): Answer => ({
  status: 200,
  contentType: 'application/json',
  warnings: [],
  body,
  ...extra,
});

describe('normalizeAnswer', () => {
  it('replaces uids wherever they stand, messages included', () => {
    const uid = '5b251e69-fd81-4717-b612-7b83269df680';
    const normalized = normalizeAnswer(
      answer({
        metadata: { uid, ownerReferences: [{ uid }] },
        message: `the UID in the precondition (${uid}) does not match`,
      }),
    );
    expect(normalized.body).toEqual({
      metadata: { uid: '<uid>', ownerReferences: [{ uid: '<uid>' }] },
      message: 'the UID in the precondition (<uid>) does not match',
    });
  });

  it('replaces RFC 3339 times, with or without fractions, but not other strings', () => {
    const normalized = normalizeAnswer(
      answer({
        creationTimestamp: '2026-11-24T19:25:41Z',
        renewTime: '2026-11-24T19:25:41.123456Z',
        offset: '2026-11-24T19:25:41+01:00',
        date: '2026-11-24',
        text: 'at 2026-11-24T19:25:41Z',
      }),
    );
    expect(normalized.body).toEqual({
      creationTimestamp: '<time>',
      renewTime: '<time>',
      offset: '<time>',
      date: '2026-11-24',
      text: 'at 2026-11-24T19:25:41Z',
    });
  });

  it('replaces non-empty resourceVersions and continue tokens, and keeps empty ones', () => {
    const normalized = normalizeAnswer(
      answer({
        metadata: { resourceVersion: '211', continue: 'eyJ2IjoibWV0YS', remainingItemCount: 2 },
        items: [{ metadata: { resourceVersion: '12' } }],
        other: { resourceVersion: '', continue: '' },
      }),
    );
    expect(normalized.body).toEqual({
      metadata: { resourceVersion: '<rv>', continue: '<continue>', remainingItemCount: 2 },
      items: [{ metadata: { resourceVersion: '<rv>' } }],
      other: { resourceVersion: '', continue: '' },
    });
  });

  it('replaces the resourceVersions of a too-old message', () => {
    const normalized = normalizeAnswer(answer({ message: 'too old resource version: 1 (205)' }));
    expect(normalized.body).toEqual({ message: 'too old resource version: <rv> (<rv>)' });
  });

  it('keeps the prefix of a generated name and nothing else of it', () => {
    const normalized = normalizeAnswer(
      answer({
        generated: { generateName: 'gen-', name: 'gen-x7k2p' },
        named: { generateName: 'gen-', name: 'other' },
      }),
    );
    expect(normalized.body).toEqual({
      generated: { generateName: 'gen-', name: 'gen-<suffix>' },
      named: { generateName: 'gen-', name: 'other' },
    });
  });

  it("masks the cells of a Table's Age column only", () => {
    const normalized = normalizeAnswer(
      answer({
        kind: 'Table',
        columnDefinitions: [{ name: 'Name' }, { name: 'Age' }],
        rows: [{ cells: ['one', '3s'] }, { cells: ['two', '2m'] }],
      }),
    );
    expect((normalized.body as { rows: unknown }).rows).toEqual([
      { cells: ['one', '<age>'] },
      { cells: ['two', '<age>'] },
    ]);
  });

  it('turns verbs and short names into sets and sorts Status causes', () => {
    const normalized = normalizeAnswer(
      answer({
        verbs: ['list', 'get'],
        shortNames: ['cm'],
        details: {
          causes: [
            { field: 'b', reason: 'FieldValueRequired' },
            { field: 'a', reason: 'FieldValueInvalid' },
          ],
        },
      }),
    );
    expect(normalized.body).toEqual({
      verbs: { 'item=get': true, 'item=list': true },
      shortNames: { 'item=cm': true },
      details: {
        causes: [
          { field: 'a', reason: 'FieldValueInvalid' },
          { field: 'b', reason: 'FieldValueRequired' },
        ],
      },
    });
  });

  it('keys discovery lists by name, so their order does not matter', () => {
    const one = normalizeAnswer(
      answer({ kind: 'APIResourceList', resources: [{ name: 'pods' }, { name: 'configmaps' }] }),
    );
    const other = normalizeAnswer(
      answer({ kind: 'APIResourceList', resources: [{ name: 'configmaps' }, { name: 'pods' }] }),
    );
    expect(one).toEqual(other);
    expect(one.body).toEqual({
      kind: 'APIResourceList',
      resources: { 'name=configmaps': { name: 'configmaps' }, 'name=pods': { name: 'pods' } },
    });
    const groups = normalizeAnswer(answer({ kind: 'APIGroupList', groups: [{ name: 'apps' }] }));
    expect(groups.body).toEqual({
      kind: 'APIGroupList',
      groups: { 'name=apps': { name: 'apps' } },
    });
  });

  it('keys aggregated discovery by group, resource and subresource, keeping version order', () => {
    const normalized = normalizeAnswer(
      answer({
        kind: 'APIGroupDiscoveryList',
        items: [
          {
            metadata: { name: 'apps' },
            versions: [
              {
                version: 'v1',
                resources: [{ resource: 'deployments', subresources: [{ subresource: 'scale' }] }],
              },
            ],
          },
        ],
      }),
    );
    expect(normalized.body).toEqual({
      kind: 'APIGroupDiscoveryList',
      items: {
        'name=apps': {
          metadata: { name: 'apps' },
          versions: [
            {
              version: 'v1',
              resources: {
                'resource=deployments': {
                  resource: 'deployments',
                  subresources: { 'subresource=scale': { subresource: 'scale' } },
                },
              },
            },
          ],
        },
      },
    });
  });

  it('leaves a list with duplicate or missing names as a list', () => {
    const normalized = normalizeAnswer(
      answer({ kind: 'APIResourceList', resources: [{ name: 'a' }, { name: 'a' }, {}] }),
    );
    expect((normalized.body as { resources: unknown }).resources).toEqual([
      { name: 'a' },
      { name: 'a' },
      {},
    ]);
  });

  it('keeps fields only one server writes, such as managedFields', () => {
    const body = { metadata: { name: 'a', managedFields: [{ manager: 'kubectl' }] } };
    expect(normalizeAnswer(answer(body)).body).toEqual(body);
  });

  it('applies select first, then unordered and mask', () => {
    const normalized = normalizeAnswer(
      answer({
        ignored: true,
        items: [{ name: 'b' }, { name: 'a' }],
        webhooks: [{ url: 'https://127.0.0.1:1/x' }, { url: 'https://127.0.0.1:2/y' }],
      }),
      {
        select: (body) => {
          const { ignored: _ignored, ...rest } = body as Record<string, unknown>;
          return rest;
        },
        unordered: ['body.items'],
        mask: ['body.webhooks.*.url', 'body.absent.path'],
      },
    );
    expect(normalized.body).toEqual({
      items: [{ name: 'a' }, { name: 'b' }],
      webhooks: [{ url: '<masked>' }, { url: '<masked>' }],
    });
  });

  it('fails on an unordered path that names something other than an array', () => {
    expect(() =>
      normalizeAnswer(answer({ items: { a: 1 } }), { unordered: ['body.items'] }),
    ).toThrow('unordered path "body.items" names a object, not an array');
  });

  it('normalizes warnings and keeps status and content type', () => {
    const normalized = normalizeAnswer(
      answer('text', {
        status: 404,
        contentType: 'text/plain',
        warnings: ['object 5b251e69-fd81-4717-b612-7b83269df680 is deprecated'],
      }),
    );
    expect(normalized).toEqual({
      status: 404,
      contentType: 'text/plain',
      warnings: ['object <uid> is deprecated'],
      body: 'text',
    });
  });

  it('does not change the answer it is given', () => {
    const original = answer({
      metadata: { resourceVersion: '5' },
      verbs: ['b', 'a'],
      items: [2, 1],
    });
    const copy = structuredClone(original);
    normalizeAnswer(original, { unordered: ['body.items'], mask: ['body.metadata'] });
    expect(original).toEqual(copy);
  });

  it('documents every rule it applies', () => {
    expect(normalizationRules.map((rule) => rule.name)).toEqual([
      'uids',
      'timestamps',
      'resourceVersions',
      'generated names',
      'table ages',
      'unordered sets',
      'per request',
    ]);
    for (const rule of normalizationRules) expect(rule.description.length).toBeGreaterThan(20);
  });
});
