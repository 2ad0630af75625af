import { describe, expect, it } from 'vitest';
import { buildReport, formatReport, preview } from './report.js';
import type { CorpusResult } from './run-corpus.js';

const corpus = [
  { name: 'crud/configmap', description: 'ConfigMaps', run: async () => undefined },
  { name: 'patch/apply', description: 'apply', run: async () => undefined },
];

const result: CorpusResult = {
  exchanges: [
    {
      id: 'crud/configmap: create',
      scenario: 'crud/configmap',
      label: 'create',
      method: 'POST',
      path: '/api/v1/namespaces/x/configmaps',
      match: false,
      differences: [
        {
          path: 'body.metadata.managedFields',
          pattern: 'body.metadata.managedFields',
          kind: 'missing locally',
          real: [{ manager: 'ops-fidelity' }],
        },
      ],
      status: { local: 201, real: 201 },
    },
    {
      id: 'crud/configmap: list',
      scenario: 'crud/configmap',
      label: 'list',
      method: 'GET',
      path: '/api/v1/namespaces/x/configmaps',
      match: false,
      differences: [
        {
          path: 'body.items[0].kind',
          pattern: 'body.items[*].kind',
          kind: 'only locally',
          local: 'ConfigMap',
        },
        {
          path: 'body.items[1].kind',
          pattern: 'body.items[*].kind',
          kind: 'only locally',
          local: 'ConfigMap',
        },
      ],
      status: { local: 200, real: 200 },
    },
    {
      id: 'crud/configmap: get',
      scenario: 'crud/configmap',
      label: 'get',
      method: 'GET',
      path: '/api/v1/namespaces/x/configmaps/a',
      match: true,
      differences: [],
      status: { local: 200, real: 200 },
    },
    {
      id: 'patch/apply: create',
      scenario: 'patch/apply',
      label: 'create',
      method: 'PATCH',
      path: '/api/v1/namespaces/x/configmaps/a?fieldManager=m',
      match: false,
      differences: [
        { path: 'status', pattern: 'status', kind: 'differs', local: 415, real: 201 },
        {
          path: 'body.kind',
          pattern: 'body.kind',
          kind: 'differs',
          local: 'Status',
          real: 'ConfigMap',
        },
      ],
      status: { local: 415, real: 201 },
    },
  ],
  failures: [{ scenario: 'patch/apply', server: 'local', message: 'stopped' }],
};

describe('buildReport', () => {
  it('counts requests and matches, per scenario too', () => {
    const report = buildReport(corpus, result, { local: 'v1.33.0-ops.0', real: 'v1.37.2' });
    expect(report.requests).toBe(4);
    expect(report.matches).toBe(1);
    expect(report.scenarios).toEqual([
      { name: 'crud/configmap', description: 'ConfigMaps', requests: 3, matches: 1 },
      { name: 'patch/apply', description: 'apply', requests: 1, matches: 0 },
    ]);
    expect(report.failures).toEqual(result.failures);
    expect(report.normalizations.length).toBeGreaterThan(0);
  });

  it('groups like differences, counting each request once, largest group first', () => {
    const report = buildReport(corpus, result, { local: 'l', real: 'r' });
    expect(report.groups).toEqual([
      {
        pattern: 'body.items[*].kind',
        kind: 'only locally',
        requests: 1,
        alone: 1,
        exchanges: ['crud/configmap: list'],
      },
      {
        pattern: 'body.kind',
        kind: 'differs',
        requests: 1,
        alone: 0,
        exchanges: ['patch/apply: create'],
      },
      {
        pattern: 'body.metadata.managedFields',
        kind: 'missing locally',
        requests: 1,
        alone: 1,
        exchanges: ['crud/configmap: create'],
      },
      {
        pattern: 'status',
        kind: 'differs',
        requests: 1,
        alone: 0,
        exchanges: ['patch/apply: create'],
      },
    ]);
  });
});

describe('formatReport', () => {
  it('prints the totals, scenarios, stopped scenarios, groups and each difference', () => {
    const text = formatReport(
      buildReport(corpus, result, { local: 'v1.33.0-ops.0', real: 'v1.37.2' }),
    );
    const lines = text.split('\n');
    expect(lines[0]).toBe(
      'Fidelity of the local API server (v1.33.0-ops.0) against kube-apiserver v1.37.2',
    );
    expect(lines[1]).toBe('4 requests, 1 match (25.0%), 3 differ');
    expect(text).toContain('  crud/configmap      1/3  ConfigMaps');
    expect(text).toContain('  patch/apply on the local server: stopped');
    expect(text).toContain('     1    1  body.metadata.managedFields  missing locally');
    expect(text).toContain('     1    0  status  differs');
    expect(text).toContain(
      '  patch/apply: create  (PATCH /api/v1/namespaces/x/configmaps/a?fieldManager=m)\n    status: 415  vs  201',
    );
    expect(text).toContain(
      '    body.metadata.managedFields: (absent)  vs  [{"manager":"ops-fidelity"}]',
    );
    expect(text).not.toContain('crud/configmap: get  (');
  });
});

describe('preview', () => {
  it('writes a value as JSON on one line, cut to the width', () => {
    expect(preview(undefined)).toBe('(absent)');
    expect(preview({ a: 'b' })).toBe('{"a":"b"}');
    expect(preview('x'.repeat(200), 10)).toBe(`"${'x'.repeat(8)}…`);
  });
});
