import { describe, expect, it } from 'vitest';
import { breakdownRule, uncoveredRules } from './rules-cover.js';

describe('breakdownRule', () => {
  it('splits a rule into one verb, group, resource and name each, then URL and verb pairs', () => {
    expect(
      breakdownRule({
        apiGroups: ['', 'apps'],
        resources: ['pods'],
        verbs: ['get', 'list'],
        resourceNames: ['a'],
        nonResourceURLs: ['/healthz'],
      }),
    ).toEqual([
      { apiGroups: [''], resources: ['pods'], verbs: ['get'], resourceNames: ['a'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['list'], resourceNames: ['a'] },
      { apiGroups: ['apps'], resources: ['pods'], verbs: ['get'], resourceNames: ['a'] },
      { apiGroups: ['apps'], resources: ['pods'], verbs: ['list'], resourceNames: ['a'] },
      { nonResourceURLs: ['/healthz'], verbs: ['get'] },
      { nonResourceURLs: ['/healthz'], verbs: ['list'] },
    ]);
  });

  it('yields nothing for a rule without verbs, and reads malformed fields as empty', () => {
    expect(breakdownRule({ apiGroups: [''], resources: ['pods'] })).toEqual([]);
    expect(breakdownRule({ apiGroups: 'x' as never, resources: ['pods'], verbs: ['get'] })).toEqual(
      [],
    );
  });
});

describe('uncoveredRules', () => {
  it('covers by wildcard verb, group and resource', () => {
    expect(
      uncoveredRules(
        [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }],
        [{ apiGroups: ['apps'], resources: ['deployments/scale'], verbs: ['update'] }],
      ),
    ).toEqual([]);
  });

  it('covers a subresource by */<subresource>, never a resource by its subresource', () => {
    const owner = [{ apiGroups: [''], resources: ['*/status'], verbs: ['get'] }];
    expect(
      uncoveredRules(owner, [{ apiGroups: [''], resources: ['pods/status'], verbs: ['get'] }]),
    ).toEqual([]);
    expect(
      uncoveredRules(owner, [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]),
    ).toEqual([{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]);
  });

  it('needs an owner rule without names to cover a rule without names', () => {
    const named = [
      { apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: ['a'] },
    ];
    expect(
      uncoveredRules(named, [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]),
    ).toHaveLength(1);
    expect(uncoveredRules(named, named)).toEqual([]);
    expect(
      uncoveredRules([{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }], named),
    ).toEqual([]);
  });

  it('covers non-resource URLs exactly or by a trailing *', () => {
    const owner = [{ nonResourceURLs: ['/apis/*'], verbs: ['get'] }];
    expect(uncoveredRules(owner, [{ nonResourceURLs: ['/apis/apps'], verbs: ['get'] }])).toEqual(
      [],
    );
    expect(uncoveredRules(owner, [{ nonResourceURLs: ['/api'], verbs: ['get'] }])).toEqual([
      { nonResourceURLs: ['/api'], verbs: ['get'] },
    ]);
  });

  it('lists each uncovered piece when rules are only partly held', () => {
    expect(
      uncoveredRules(
        [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
        [{ apiGroups: [''], resources: ['configmaps', 'secrets'], verbs: ['get', 'delete'] }],
      ),
    ).toEqual([
      { apiGroups: [''], resources: ['configmaps'], verbs: ['delete'] },
      { apiGroups: [''], resources: ['secrets'], verbs: ['get'] },
      { apiGroups: [''], resources: ['secrets'], verbs: ['delete'] },
    ]);
  });
});
