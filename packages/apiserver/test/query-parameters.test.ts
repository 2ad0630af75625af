import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiServer } from '../src/index.js';
import { expectRefusal, rawRequest } from './raw-http.js';

// Every query parameter as kube-apiserver parses it (apimachinery's parameter codec and
// ValidateListOptions/ValidateCreateOptions/ValidateDeleteOptions), over real HTTP; the
// expected texts were taken from kube-apiserver 1.37 answering the same requests.
let server: ApiServer;
const configMaps = '/api/v1/namespaces/default/configmaps';
const body = (name: string) =>
  JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: '1' } });

beforeAll(async () => {
  server = await ApiServer.start({ https: false, cluster: false });
  const created = await rawRequest(server, 'POST', configMaps, body('keep'));
  expect(created.status).toBe(201);
});
afterAll(async () => {
  await server.stop();
});

const expectStatus = (method: string, path: string, code: number, message: string, body?: string) =>
  expectRefusal(server, { method, path, body, code, message });

describe('integer parameters', () => {
  it.each([
    ['limit=abc', 'strconv.ParseInt: parsing "abc": invalid syntax'],
    ['limit=1e3', 'strconv.ParseInt: parsing "1e3": invalid syntax'],
    ['limit=', 'strconv.ParseInt: parsing "": invalid syntax'],
    ['limit=%205', 'strconv.ParseInt: parsing " 5": invalid syntax'],
    [
      'limit=99999999999999999999',
      'strconv.ParseInt: parsing "99999999999999999999": value out of range',
    ],
    ['limit=abc&limit=5', 'strconv.ParseInt: parsing "abc": invalid syntax'],
    ['watch=1&timeoutSeconds=abc', 'strconv.ParseInt: parsing "abc": invalid syntax'],
    ['timeoutSeconds=1.5', 'strconv.ParseInt: parsing "1.5": invalid syntax'],
  ])('GET ?%s is a 400 with Go strconv text', async (query, message) => {
    const status = await expectStatus('GET', `${configMaps}?${query}`, 400, message);
    expect(status.reason).toBe('BadRequest');
  });

  it('reads only the first value, as kube does (limit=1&limit=abc lists one)', async () => {
    const res = await rawRequest(server, 'GET', `${configMaps}?limit=1&limit=abc`);
    expect(res.status).toBe(200);
    expect(res.json().items).toHaveLength(1);
  });

  it('refuses gracePeriodSeconds=abc on DELETE and deletes nothing', async () => {
    await expectStatus(
      'DELETE',
      `${configMaps}/keep?gracePeriodSeconds=abc`,
      400,
      'strconv.ParseInt: parsing "abc": invalid syntax',
    );
    expect((await rawRequest(server, 'GET', `${configMaps}/keep`)).status).toBe(200);
  });

  it('refuses a resourceVersion that is not a uint64', async () => {
    await expectStatus(
      'GET',
      `${configMaps}?resourceVersion=-1`,
      400,
      'invalid resource version: resourceVersion: Invalid value: "-1": strconv.ParseUint: parsing "-1": invalid syntax',
    );
    await expectStatus(
      'GET',
      `${configMaps}/keep?resourceVersion=abc`,
      400,
      'invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax',
    );
  });
});

describe('list options validation', () => {
  it('refuses resourceVersionMatch misuse with every cause, as a 422 on ListOptions', async () => {
    const status = await expectStatus(
      'GET',
      `${configMaps}?resourceVersionMatch=foo`,
      422,
      'ListOptions.meta.k8s.io "" is invalid: [resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided, resourceVersionMatch: Unsupported value: "foo": supported values: "Exact", "NotOlderThan", ""]',
    );
    expect(status.details.causes).toEqual([
      {
        reason: 'FieldValueForbidden',
        message: 'Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
        field: 'resourceVersionMatch',
      },
      {
        reason: 'FieldValueNotSupported',
        message: 'Unsupported value: "foo": supported values: "Exact", "NotOlderThan", ""',
        field: 'resourceVersionMatch',
      },
    ]);
  });

  it('refuses sendInitialEvents on a list and resourceVersionMatch on a plain watch', async () => {
    await expectStatus(
      'GET',
      `${configMaps}?sendInitialEvents=true`,
      422,
      'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list',
    );
    await expectStatus(
      'GET',
      `${configMaps}?watch=1&resourceVersion=5&resourceVersionMatch=Exact`,
      422,
      'ListOptions.meta.k8s.io "" is invalid: [resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided, resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"]',
    );
  });
});

describe('write options validation', () => {
  it('refuses an unknown dryRun value (422 on CreateOptions) and creates nothing', async () => {
    await expectStatus(
      'POST',
      `${configMaps}?dryRun=All&dryRun=foo`,
      422,
      'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["All","foo"]: supported values: "All"',
      body('dry'),
    );
    expect((await rawRequest(server, 'GET', `${configMaps}/dry`)).status).toBe(404);
  });

  it('refuses fieldValidation values other than "", Ignore, Strict and Warn (case matters)', async () => {
    await expectStatus(
      'POST',
      `${configMaps}?fieldValidation=strict`,
      422,
      'CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "strict": supported values: "", "Ignore", "Strict", "Warn"',
      body('strict'),
    );
    await expectStatus(
      'PUT',
      `${configMaps}/keep?fieldValidation=Yes`,
      422,
      'UpdateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Yes": supported values: "", "Ignore", "Strict", "Warn"',
      body('keep'),
    );
  });

  it('refuses a fieldManager with a non-printable character', async () => {
    await expectStatus(
      'PATCH',
      `${configMaps}/keep?fieldManager=a%01`,
      422,
      'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Invalid value: "a\\u0001": invalid character U+0001 (at position 1)',
      '{}',
    );
  });

  it('refuses an unknown propagationPolicy (422 on DeleteOptions) and deletes nothing', async () => {
    await expectStatus(
      'DELETE',
      `${configMaps}/keep?propagationPolicy=foo`,
      422,
      'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "foo": supported values: "Foreground", "Background", "Orphan", "nil"',
    );
    expect((await rawRequest(server, 'GET', `${configMaps}/keep`)).status).toBe(200);
  });

  it('honours dryRun=All: nothing is stored', async () => {
    const res = await rawRequest(server, 'POST', `${configMaps}?dryRun=All`, body('ghost'));
    expect(res.status).toBe(201);
    expect((await rawRequest(server, 'GET', `${configMaps}/ghost`)).status).toBe(404);
  });

  it('reads orphanDependents leniently (t is true): a dry-run delete adds the orphan finalizer', async () => {
    const res = await rawRequest(
      server,
      'DELETE',
      `${configMaps}/keep?orphanDependents=t&dryRun=All`,
    );
    expect(res.status, res.text).toBe(200);
    expect(res.json().metadata.finalizers).toEqual(['orphan']);
    expect(
      (await rawRequest(server, 'GET', `${configMaps}/keep`)).json().metadata.finalizers,
    ).toBeUndefined();
  });
});

describe('lenient booleans', () => {
  it.each(['True', 'TRUE', 't', '1', 'yes', ''])('watch=%s starts a watch', async (value) => {
    const res = await rawRequest(server, 'GET', `${configMaps}?watch=${value}&timeoutSeconds=1`);
    expect(res.status).toBe(200);
    const first = JSON.parse(res.text.split('\n')[0] ?? '');
    expect(first).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'keep' } } });
  });

  it.each(['false', 'False', 'FALSE', '0'])('watch=%s lists', async (value) => {
    const res = await rawRequest(server, 'GET', `${configMaps}?watch=${value}`);
    expect(res.status).toBe(200);
    expect(res.json().kind).toBe('ConfigMapList');
  });

  it('reads sendInitialEvents and allowWatchBookmarks leniently (the initial-events-end bookmark comes)', async () => {
    const res = await rawRequest(
      server,
      'GET',
      `${configMaps}?watch=True&sendInitialEvents=True&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=TRUE&timeoutSeconds=1`,
    );
    expect(res.status).toBe(200);
    const events = res.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(events.map((e) => e.type).slice(0, 2)).toEqual(['ADDED', 'BOOKMARK']);
    expect(events[1].object.metadata.annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
  });

  it('authorizes watch=True as the watch verb under RBAC', async () => {
    const rbacServer = await ApiServer.start({ https: false, cluster: false, rbac: true });
    try {
      const token = rbacServer.issueToken({ name: 'lister', groups: ['system:authenticated'] });
      const grant = async (path: string, object: unknown) =>
        expect((await rawRequest(rbacServer, 'POST', path, JSON.stringify(object))).status).toBe(
          201,
        );
      await grant('/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles', {
        metadata: { name: 'list-only' },
        rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['list'] }],
      });
      await grant('/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', {
        metadata: { name: 'lister' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'list-only' },
        subjects: [{ kind: 'User', name: 'lister' }],
      });
      const auth = { authorization: `Bearer ${token}` };
      expect((await rawRequest(rbacServer, 'GET', configMaps, undefined, auth)).status).toBe(200);
      const watch = await rawRequest(
        rbacServer,
        'GET',
        `${configMaps}?watch=True`,
        undefined,
        auth,
      );
      expect(watch.status).toBe(403);
      expect(watch.json().message).toBe(
        'configmaps is forbidden: User "lister" cannot watch resource "configmaps" in API group "" in the namespace "default"',
      );
    } finally {
      await rbacServer.stop();
    }
  });
});
