import { describe, expect, it } from 'vitest';
import { StatusError } from '../api/status-error.js';
import type { ResourceType } from '../registry/resource-type.js';
import type { AdmissionAttributes } from './admission.js';
import { webhooksOf } from './webhook-configuration.js';
import {
  admissionNamespace,
  isExemptFromWebhooks,
  type MatchLookups,
  matchWebhook,
  type RuleSubject,
  ruleMatches,
} from './webhook-matcher.js';

const resourceType = (
  group: string,
  version: string,
  kind: string,
  plural: string,
  namespaced: boolean,
): ResourceType => ({
  group,
  version,
  kind,
  plural,
  singular: kind.toLowerCase(),
  listKind: `${kind}List`,
  namespaced,
  shortNames: [],
  categories: [],
  verbs: [],
  subresources: { status: true, scale: false },
  selectableFields: [],
  printerColumns: [],
  custom: false,
  storageVersion: version,
});

const pods = resourceType('', 'v1', 'Pod', 'pods', true);
const namespaces = resourceType('', 'v1', 'Namespace', 'namespaces', false);
const nodes = resourceType('', 'v1', 'Node', 'nodes', false);
const widgets = resourceType('example.com', 'v2', 'Widget', 'widgets', true);

const attributes = (
  type: ResourceType,
  extra: Partial<AdmissionAttributes> = {},
): AdmissionAttributes => ({
  type,
  subresource: '',
  operation: 'CREATE',
  namespace: type.namespaced ? 'team' : '',
  name: 'thing',
  user: { name: 'jane', groups: [] },
  dryRun: false,
  options: {},
  ...extra,
});

const subject: RuleSubject = {
  group: '',
  version: 'v1',
  resource: 'pods',
  subresource: '',
  operation: 'CREATE',
  namespace: 'team',
};

const rule = (extra: Record<string, unknown> = {}) => ({
  operations: ['CREATE'],
  apiGroups: [''],
  apiVersions: ['v1'],
  resources: ['pods'],
  scope: '*',
  ...extra,
});

const webhook = (extra: Record<string, unknown> = {}) => {
  const [parsed] = webhooksOf('validating', {
    metadata: { name: 'config' },
    webhooks: [{ name: 'w.example.com', rules: [rule()], ...extra }],
  });
  if (parsed === undefined) throw new Error('no webhook parsed');
  return parsed;
};

const lookups: MatchLookups = {
  namespaceLabels: (name) => ({ team: { env: 'prod' }, dev: { env: 'dev' } })[name],
};

describe('ruleMatches', () => {
  it('matches operations, groups, versions and resources exactly or by *', () => {
    expect(ruleMatches(rule(), subject)).toBe(true);
    expect(ruleMatches(rule({ operations: ['*'] }), { ...subject, operation: 'DELETE' })).toBe(
      true,
    );
    expect(ruleMatches(rule(), { ...subject, operation: 'UPDATE' })).toBe(false);
    expect(ruleMatches(rule({ apiGroups: ['apps'] }), subject)).toBe(false);
    expect(
      ruleMatches(rule({ apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }), subject),
    ).toBe(true);
    expect(ruleMatches(rule({ apiVersions: ['v2'] }), subject)).toBe(false);
    expect(ruleMatches(rule({ resources: ['services'] }), subject)).toBe(false);
  });

  it('matches subresources only by resource/subresource entries', () => {
    const status = { ...subject, operation: 'UPDATE', subresource: 'status' };
    expect(ruleMatches(rule({ operations: ['UPDATE'] }), status)).toBe(false);
    expect(ruleMatches(rule({ operations: ['UPDATE'], resources: ['pods/status'] }), status)).toBe(
      true,
    );
    expect(ruleMatches(rule({ operations: ['UPDATE'], resources: ['*/status'] }), status)).toBe(
      true,
    );
    expect(ruleMatches(rule({ operations: ['UPDATE'], resources: ['pods/*'] }), status)).toBe(true);
    // As in kube-apiserver, a `*` subresource also matches the main resource.
    expect(
      ruleMatches(rule({ operations: ['UPDATE'], resources: ['pods/*'] }), {
        ...status,
        subresource: '',
      }),
    ).toBe(true);
    expect(
      ruleMatches(rule({ operations: ['UPDATE'], resources: ['*/status'] }), {
        ...status,
        subresource: '',
      }),
    ).toBe(false);
    expect(ruleMatches(rule({ operations: ['UPDATE'], resources: ['pods/scale'] }), status)).toBe(
      false,
    );
  });

  it('matches scope, counting Namespaces as cluster-scoped', () => {
    expect(ruleMatches(rule({ scope: 'Namespaced' }), subject)).toBe(true);
    expect(ruleMatches(rule({ scope: 'Cluster' }), subject)).toBe(false);
    const namespace = { ...subject, resource: 'namespaces', namespace: 'team' };
    expect(ruleMatches(rule({ scope: 'Namespaced', resources: ['namespaces'] }), namespace)).toBe(
      false,
    );
    expect(ruleMatches(rule({ scope: 'Cluster', resources: ['namespaces'] }), namespace)).toBe(
      true,
    );
    const node = { ...subject, resource: 'nodes', namespace: '' };
    expect(ruleMatches(rule({ scope: 'Cluster', resources: ['nodes'] }), node)).toBe(true);
    expect(ruleMatches(rule({ scope: 'Namespaced', resources: ['nodes'] }), node)).toBe(false);
    expect(ruleMatches(rule({ scope: 'Elsewhere' }), subject)).toBe(false);
  });
});

describe('admissionNamespace', () => {
  it('is the name of a Namespace itself except on CREATE', () => {
    expect(admissionNamespace(attributes(pods))).toBe('team');
    expect(admissionNamespace(attributes(nodes))).toBe('');
    expect(admissionNamespace(attributes(namespaces, { name: 'team' }))).toBe('');
    expect(admissionNamespace(attributes(namespaces, { name: 'team', operation: 'UPDATE' }))).toBe(
      'team',
    );
  });
});

describe('matchWebhook', () => {
  it('applies the namespaceSelector to the labels of the object Namespace', () => {
    const selective = webhook({ namespaceSelector: { matchLabels: { env: 'prod' } } });
    expect(
      matchWebhook(
        selective,
        { attributes: attributes(pods), object: {}, old: undefined },
        lookups,
      ),
    ).toEqual({
      webhook: selective,
      version: 'v1',
    });
    const dev = attributes(pods, { namespace: 'dev' });
    expect(
      matchWebhook(selective, { attributes: dev, object: {}, old: undefined }, lookups),
    ).toBeUndefined();
  });

  it('answers 404 for a missing Namespace, but only when a rule matches', () => {
    const selective = webhook({ namespaceSelector: { matchLabels: { env: 'prod' } } });
    const missing = attributes(pods, { namespace: 'gone' });
    let thrown: unknown;
    try {
      matchWebhook(selective, { attributes: missing, object: {}, old: undefined }, lookups);
    } catch (error) {
      thrown = error;
    }
    expect(StatusError.isInstance(thrown) && thrown.code).toBe(404);
    expect((thrown as Error).message).toBe('namespaces "gone" not found');
    const other = webhook({
      namespaceSelector: { matchLabels: { env: 'prod' } },
      rules: [rule({ resources: ['services'] })],
    });
    expect(
      matchWebhook(other, { attributes: missing, object: {}, old: undefined }, lookups),
    ).toBeUndefined();
  });

  it('uses a Namespace own new labels on CREATE and UPDATE, and never filters other cluster-scoped objects', () => {
    const selective = webhook({
      namespaceSelector: { matchLabels: { env: 'prod' } },
      rules: [rule({ operations: ['*'], resources: ['namespaces', 'nodes'] })],
    });
    const prodNamespace = { metadata: { name: 'new', labels: { env: 'prod' } } };
    const create = attributes(namespaces, { name: 'new' });
    expect(
      matchWebhook(
        selective,
        { attributes: create, object: prodNamespace, old: undefined },
        lookups,
      ),
    ).toBeDefined();
    expect(
      matchWebhook(
        selective,
        { attributes: create, object: { metadata: { name: 'new' } }, old: undefined },
        lookups,
      ),
    ).toBeUndefined();
    const remove = attributes(namespaces, { name: 'dev', operation: 'DELETE' });
    expect(
      matchWebhook(
        selective,
        { attributes: remove, object: undefined, old: prodNamespace },
        lookups,
      ),
    ).toBeUndefined();
    expect(
      matchWebhook(
        selective,
        { attributes: attributes(nodes), object: {}, old: undefined },
        lookups,
      ),
    ).toBeDefined();
  });

  it('applies the objectSelector to the new object or the old one', () => {
    const selective = webhook({
      objectSelector: { matchLabels: { app: 'web' } },
      rules: [rule({ operations: ['*'] })],
    });
    const labelled = { metadata: { labels: { app: 'web' } } };
    const plain = { metadata: {} };
    const update = attributes(pods, { operation: 'UPDATE' });
    expect(
      matchWebhook(selective, { attributes: update, object: plain, old: labelled }, lookups),
    ).toBeDefined();
    expect(
      matchWebhook(selective, { attributes: update, object: labelled, old: plain }, lookups),
    ).toBeDefined();
    expect(
      matchWebhook(selective, { attributes: update, object: plain, old: plain }, lookups),
    ).toBeUndefined();
    const remove = attributes(pods, { operation: 'DELETE' });
    expect(
      matchWebhook(selective, { attributes: remove, object: undefined, old: labelled }, lookups),
    ).toBeDefined();
  });

  it('reports a selector that does not compile as a 500', () => {
    const broken = webhook({
      objectSelector: { matchExpressions: [{ key: 'a', operator: 'Near' }] },
    });
    expect(() =>
      matchWebhook(broken, { attributes: attributes(pods), object: {}, old: undefined }, lookups),
    ).toThrow(/Internal error occurred: invalid label selector/);
  });

  it('matches other served versions only with matchPolicy Equivalent', () => {
    const served: MatchLookups = { ...lookups, servedVersions: () => ['v1', 'v2'] };
    const v1Rule = [rule({ apiGroups: ['example.com'], resources: ['widgets'] })];
    const equivalent = webhook({ rules: v1Rule });
    const exact = webhook({ rules: v1Rule, matchPolicy: 'Exact' });
    const write = { attributes: attributes(widgets), object: {}, old: undefined };
    expect(matchWebhook(equivalent, write, served)).toEqual({ webhook: equivalent, version: 'v1' });
    expect(matchWebhook(exact, write, served)).toBeUndefined();
    expect(matchWebhook(equivalent, write, lookups)).toBeUndefined();
  });

  it('calls a webhook with matchConditions as if they held', () => {
    const conditional = webhook({ matchConditions: [{ name: 'never', expression: 'false' }] });
    expect(
      matchWebhook(
        conditional,
        { attributes: attributes(pods), object: {}, old: undefined },
        lookups,
      ),
    ).toBeDefined();
  });

  it('never matches the admission configuration kinds', () => {
    const config = resourceType(
      'admissionregistration.k8s.io',
      'v1',
      'ValidatingWebhookConfiguration',
      'validatingwebhookconfigurations',
      false,
    );
    expect(isExemptFromWebhooks(config)).toBe(true);
    expect(isExemptFromWebhooks(pods)).toBe(false);
    const everything = webhook({
      rules: [rule({ apiGroups: ['*'], apiVersions: ['*'], resources: ['*'], operations: ['*'] })],
    });
    expect(
      matchWebhook(
        everything,
        { attributes: attributes(config), object: {}, old: undefined },
        lookups,
      ),
    ).toBeUndefined();
  });
});
