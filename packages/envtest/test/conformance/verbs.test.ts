import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type TestCluster } from '../cluster.js';

let cluster: TestCluster;
beforeAll(async () => {
  // API semantics only: no simulated controllers writing status behind the test's back.
  cluster = await startCluster({ apiServer: { cluster: false } });
});
afterAll(async () => {
  await cluster.stop();
});

const cm = (
  name: string,
  data: Record<string, string> = { a: '1' },
  labels?: Record<string, string>,
) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...(labels ? { labels } : {}) },
  data,
});

describe('create, get, update, delete', () => {
  it('creates with uid, creationTimestamp, resourceVersion and namespace from the URL', async () => {
    const res = await cluster.request('POST', '/api/v1/namespaces/default/configmaps', cm('one'));
    expect(res.status).toBe(201);
    expect(res.body.metadata).toMatchObject({ name: 'one', namespace: 'default' });
    expect(res.body.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Number(res.body.metadata.resourceVersion)).toBeGreaterThan(0);
    const got = await cluster.request('GET', '/api/v1/namespaces/default/configmaps/one');
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  it('answers AlreadyExists, NotFound and Invalid as kube-apiserver does', async () => {
    await cluster.request('POST', '/api/v1/namespaces/default/configmaps', cm('dup'));
    const again = await cluster.request('POST', '/api/v1/namespaces/default/configmaps', cm('dup'));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'AlreadyExists',
      code: 409,
      message: 'configmaps "dup" already exists',
      details: { name: 'dup', kind: 'configmaps' },
    });
    const missing = await cluster.request(
      'GET',
      '/apis/apps/v1/namespaces/default/deployments/nope',
    );
    expect(missing.body).toMatchObject({
      reason: 'NotFound',
      code: 404,
      message: 'deployments.apps "nope" not found',
      details: { group: 'apps' },
    });
    const invalid = await cluster.request(
      'POST',
      '/api/v1/namespaces/default/configmaps',
      cm('Bad_Name'),
    );
    expect(invalid.status).toBe(422);
    expect(invalid.body.reason).toBe('Invalid');
    expect(invalid.body.message).toMatch(
      /^ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/,
    );
    expect(invalid.body.details.causes[0]).toMatchObject({
      reason: 'FieldValueInvalid',
      field: 'metadata.name',
    });
  });

  it('generates names from generateName', async () => {
    const res = await cluster.request('POST', '/api/v1/namespaces/default/configmaps', {
      metadata: { generateName: 'gen-' },
      data: {},
    });
    expect(res.status).toBe(201);
    expect(res.body.metadata.name).toMatch(/^gen-[a-z0-9]{5}$/);
  });

  it('rejects a namespace mismatch, a missing namespace and bad JSON', async () => {
    const mismatch = await cluster.request('POST', '/api/v1/namespaces/default/configmaps', {
      metadata: { name: 'x', namespace: 'other' },
    });
    expect(mismatch).toMatchObject({
      status: 400,
      body: {
        reason: 'BadRequest',
        message:
          'the namespace of the provided object does not match the namespace sent on the request',
      },
    });
    const noNamespace = await cluster.request(
      'POST',
      '/api/v1/namespaces/nowhere/configmaps',
      cm('x'),
    );
    expect(noNamespace.body).toMatchObject({
      code: 404,
      message: 'namespaces "nowhere" not found',
    });
    const malformed = await cluster.request(
      'POST',
      '/api/v1/namespaces/default/configmaps',
      '{"metadata":',
    );
    expect(malformed.status).toBe(400);
    expect(malformed.body.reason).toBe('BadRequest');
    const unknownKind = await cluster.request('GET', '/apis/nothing.example.com/v1/things');
    expect(unknownKind.status).toBe(404);
  });

  it('updates with optimistic concurrency: a stale resourceVersion is a 409 Conflict', async () => {
    const created = (
      await cluster.request('POST', '/api/v1/namespaces/default/configmaps', cm('occ'))
    ).body;
    const updated = await cluster.request('PUT', '/api/v1/namespaces/default/configmaps/occ', {
      ...created,
      data: { a: '2' },
    });
    expect(updated.status).toBe(200);
    expect(Number(updated.body.metadata.resourceVersion)).toBeGreaterThan(
      Number(created.metadata.resourceVersion),
    );
    const stale = await cluster.request('PUT', '/api/v1/namespaces/default/configmaps/occ', {
      ...created,
      data: { a: '3' },
    });
    expect(stale.body).toMatchObject({
      code: 409,
      reason: 'Conflict',
      message:
        'Operation cannot be fulfilled on configmaps "occ": the object has been modified; please apply your changes to the latest version and try again',
    });
  });

  it('writes nothing for a no-op update: the resourceVersion stays', async () => {
    const created = (
      await cluster.request('POST', '/api/v1/namespaces/default/configmaps', cm('noop'))
    ).body;
    const same = await cluster.request(
      'PUT',
      '/api/v1/namespaces/default/configmaps/noop',
      created,
    );
    expect(same.body.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
  });

  it('bumps generation on spec changes only and keeps status out of main-resource writes', async () => {
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'c', image: 'nginx' }] },
        },
      },
      status: { replicas: 99 },
    };
    const created = (
      await cluster.request('POST', '/apis/apps/v1/namespaces/default/deployments', deployment)
    ).body;
    expect(created.metadata.generation).toBe(1);
    expect(created.status?.replicas).not.toBe(99);
    expect(created.spec.replicas).toBe(1);
    const labelled = await cluster.request(
      'PATCH',
      '/apis/apps/v1/namespaces/default/deployments/web',
      { metadata: { labels: { x: 'y' } } },
      { contentType: 'application/merge-patch+json' },
    );
    expect(labelled.body.metadata.generation).toBe(1);
    const scaled = await cluster.request(
      'PATCH',
      '/apis/apps/v1/namespaces/default/deployments/web',
      { spec: { replicas: 3 }, status: { replicas: 5 } },
      { contentType: 'application/merge-patch+json' },
    );
    expect(scaled.body.metadata.generation).toBe(2);
    expect(scaled.body.status?.replicas).not.toBe(5);
    const status = await cluster.request(
      'PUT',
      '/apis/apps/v1/namespaces/default/deployments/web/status',
      { ...scaled.body, spec: { ...scaled.body.spec, replicas: 7 }, status: { replicas: 3 } },
    );
    expect(status.body.status.replicas).toBe(3);
    expect(status.body.spec.replicas).toBe(3);
    expect(status.body.metadata.generation).toBe(2);
  });

  it('serves the scale subresource', async () => {
    const scale = await cluster.request(
      'GET',
      '/apis/apps/v1/namespaces/default/deployments/web/scale',
    );
    expect(scale.body).toMatchObject({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      spec: { replicas: 3 },
    });
    const updated = await cluster.request(
      'PUT',
      '/apis/apps/v1/namespaces/default/deployments/web/scale',
      {
        apiVersion: 'autoscaling/v1',
        kind: 'Scale',
        metadata: { name: 'web', namespace: 'default' },
        spec: { replicas: 4 },
      },
    );
    expect(updated.body.spec.replicas).toBe(4);
  });

  it('deletes at once without finalizers, and waits for finalizers with a deletionTimestamp', async () => {
    await cluster.request('POST', '/api/v1/namespaces/default/configmaps', cm('gone'));
    const deleted = await cluster.request('DELETE', '/api/v1/namespaces/default/configmaps/gone');
    expect(deleted.status).toBe(200);
    expect(
      (await cluster.request('GET', '/api/v1/namespaces/default/configmaps/gone')).status,
    ).toBe(404);

    const held = (
      await cluster.request('POST', '/api/v1/namespaces/default/configmaps', {
        ...cm('held'),
        metadata: { name: 'held', finalizers: ['example.com/hold'] },
      })
    ).body;
    const marked = await cluster.request('DELETE', '/api/v1/namespaces/default/configmaps/held');
    expect(marked.body.metadata.deletionTimestamp).toBeDefined();
    const still = await cluster.request('GET', '/api/v1/namespaces/default/configmaps/held');
    expect(still.status).toBe(200);
    const more = await cluster.request(
      'PATCH',
      '/api/v1/namespaces/default/configmaps/held',
      { metadata: { finalizers: ['example.com/hold', 'example.com/new'] } },
      { contentType: 'application/merge-patch+json' },
    );
    expect(more.status).toBe(422);
    expect(more.body.message).toContain(
      'no new finalizers can be added if the object is being deleted',
    );
    const released = await cluster.request(
      'PATCH',
      '/api/v1/namespaces/default/configmaps/held',
      [{ op: 'remove', path: '/metadata/finalizers' }],
      { contentType: 'application/json-patch+json' },
    );
    expect(released.status).toBe(200);
    expect(
      (await cluster.request('GET', '/api/v1/namespaces/default/configmaps/held')).status,
    ).toBe(404);
    expect(held.metadata.finalizers).toEqual(['example.com/hold']);
  });

  it('honours delete preconditions and dryRun', async () => {
    const created = (
      await cluster.request('POST', '/api/v1/namespaces/default/configmaps', cm('pre'))
    ).body;
    const wrong = await cluster.request('DELETE', '/api/v1/namespaces/default/configmaps/pre', {
      preconditions: { uid: 'not-it' },
    });
    expect(wrong.body).toMatchObject({ code: 409, reason: 'Conflict' });
    expect(wrong.body.message).toBe(
      `Operation cannot be fulfilled on ConfigMap "pre": the UID in the precondition (not-it) does not match the UID in record (${created.metadata.uid}). The object might have been deleted and then recreated`,
    );
    const dry = await cluster.request(
      'DELETE',
      '/api/v1/namespaces/default/configmaps/pre?dryRun=All',
    );
    expect(dry.status).toBe(200);
    expect((await cluster.request('GET', '/api/v1/namespaces/default/configmaps/pre')).status).toBe(
      200,
    );
    const dryCreate = await cluster.request(
      'POST',
      '/api/v1/namespaces/default/configmaps?dryRun=All',
      cm('dry'),
    );
    expect(dryCreate.status).toBe(201);
    expect((await cluster.request('GET', '/api/v1/namespaces/default/configmaps/dry')).status).toBe(
      404,
    );
  });
});

describe('lists', () => {
  beforeAll(async () => {
    await cluster.request('POST', '/api/v1/namespaces', { metadata: { name: 'lists' } });
    for (let i = 0; i < 25; i++) {
      await cluster.request(
        'POST',
        '/api/v1/namespaces/lists/configmaps',
        cm(
          `item-${String(i).padStart(2, '0')}`,
          {},
          { tier: i % 2 ? 'odd' : 'even', index: String(i) },
        ),
      );
    }
  });

  it('filters by label selector and field selector', async () => {
    const odd = await cluster.request(
      'GET',
      '/api/v1/namespaces/lists/configmaps?labelSelector=tier%3Dodd',
    );
    expect(odd.body.items).toHaveLength(12);
    const set = await cluster.request(
      'GET',
      `/api/v1/namespaces/lists/configmaps?labelSelector=${encodeURIComponent('index in (1,2,3),tier!=odd')}`,
    );
    expect(set.body.items.map((i: any) => i.metadata.name)).toEqual(['item-02']);
    const named = await cluster.request(
      'GET',
      '/api/v1/configmaps?fieldSelector=metadata.name%3Ditem-07',
    );
    expect(named.body.items).toHaveLength(1);
    const bad = await cluster.request(
      'GET',
      '/api/v1/namespaces/lists/configmaps?fieldSelector=data.a%3Db',
    );
    expect(bad.body).toMatchObject({
      code: 400,
      message: '"data.a" is not a known field selector: only "metadata.name", "metadata.namespace"',
    });
    const badLabels = await cluster.request(
      'GET',
      '/api/v1/namespaces/lists/configmaps?labelSelector=a%20in%20b',
    );
    expect(badLabels.status).toBe(400);
  });

  it('pages a selected list without guessing how many of the rest match', async () => {
    // kube's storage counts what follows a page only when nothing is filtered out: with a
    // selector, remainingItemCount is left out rather than estimated.
    const names: string[] = [];
    let token = '';
    let pages = 0;
    do {
      const page = await cluster.request(
        'GET',
        `/api/v1/namespaces/lists/configmaps?labelSelector=tier%3Deven&limit=5${token ? `&continue=${token}` : ''}`,
      );
      expect(page.status).toBe(200);
      expect(page.body.metadata.remainingItemCount).toBeUndefined();
      names.push(...page.body.items.map((i: any) => i.metadata.name));
      token = page.body.metadata.continue ?? '';
      pages++;
    } while (token && pages < 10);
    expect(names).toEqual(
      Array.from({ length: 13 }, (_, i) => `item-${String(i * 2).padStart(2, '0')}`),
    );
  });

  it('pages with limit and continue at one consistent resourceVersion', async () => {
    const first = await cluster.request('GET', '/api/v1/namespaces/lists/configmaps?limit=10');
    expect(first.body.items).toHaveLength(10);
    expect(first.body.metadata.remainingItemCount).toBe(15);
    // A change after the first page must not show up in later pages.
    await cluster.request('DELETE', '/api/v1/namespaces/lists/configmaps/item-24');
    const names: string[] = first.body.items.map((i: any) => i.metadata.name);
    let token = first.body.metadata.continue;
    while (token) {
      const page = await cluster.request(
        'GET',
        `/api/v1/namespaces/lists/configmaps?limit=10&continue=${token}`,
      );
      expect(page.body.metadata.resourceVersion).toBe(first.body.metadata.resourceVersion);
      names.push(...page.body.items.map((i: any) => i.metadata.name));
      token = page.body.metadata.continue;
    }
    expect(names).toHaveLength(25);
    expect(names).toContain('item-24');
    const bogus = await cluster.request(
      'GET',
      '/api/v1/namespaces/lists/configmaps?limit=10&continue=bogus',
    );
    expect(bogus.status).toBe(400);
  });

  it('lists across namespaces and answers a too-large resourceVersion with 504', async () => {
    const all = await cluster.request('GET', '/api/v1/configmaps');
    expect(all.body.kind).toBe('ConfigMapList');
    expect(all.body.items.length).toBeGreaterThan(24);
    const future = await cluster.request(
      'GET',
      '/api/v1/configmaps?resourceVersion=999999999&resourceVersionMatch=NotOlderThan',
    );
    expect(future.status).toBe(504);
  });

  it('reads an exact older resourceVersion from history', async () => {
    const before = await cluster.request('GET', '/api/v1/namespaces/lists/configmaps');
    await cluster.request('DELETE', '/api/v1/namespaces/lists/configmaps/item-00');
    const exact = await cluster.request(
      'GET',
      `/api/v1/namespaces/lists/configmaps?resourceVersion=${before.body.metadata.resourceVersion}&resourceVersionMatch=Exact`,
    );
    expect(exact.body.items.map((i: any) => i.metadata.name)).toEqual(
      before.body.items.map((i: any) => i.metadata.name),
    );
  });
});

describe('deletecollection', () => {
  it('deletes the objects a label selector picks, and only those', async () => {
    await cluster.request('POST', '/api/v1/namespaces', { metadata: { name: 'collection' } });
    for (const [name, tier] of [
      ['a', 'web'],
      ['b', 'web'],
      ['c', 'db'],
    ]) {
      await cluster.request('POST', '/api/v1/namespaces/collection/configmaps', {
        metadata: { name, labels: { tier } },
      });
    }
    const deleted = await cluster.request(
      'DELETE',
      '/api/v1/namespaces/collection/configmaps?labelSelector=tier%3Dweb',
    );
    expect(deleted.status).toBe(200);
    const left = await cluster.request('GET', '/api/v1/namespaces/collection/configmaps');
    expect(
      left.body.items.map((item: { metadata: { name: string } }) => item.metadata.name),
    ).toEqual(['c']);
  });
});

describe('discovery', () => {
  it('serves /version, /api, /apis and group versions', async () => {
    expect((await cluster.request('GET', '/version')).body.major).toBe('1');
    expect((await cluster.request('GET', '/api')).body.versions).toEqual(['v1']);
    const groups = (await cluster.request('GET', '/apis')).body.groups.map((g: any) => g.name);
    expect(groups).toEqual(
      expect.arrayContaining([
        'apps',
        'coordination.k8s.io',
        'rbac.authorization.k8s.io',
        'apiextensions.k8s.io',
        'admissionregistration.k8s.io',
      ]),
    );
    const core = (await cluster.request('GET', '/api/v1')).body;
    expect(core.resources.find((r: any) => r.name === 'pods')).toMatchObject({
      namespaced: true,
      kind: 'Pod',
      shortNames: ['po'],
    });
    expect(core.resources.some((r: any) => r.name === 'pods/status')).toBe(true);
    const apps = (await cluster.request('GET', '/apis/apps/v1')).body;
    expect(apps.resources.find((r: any) => r.name === 'deployments/scale')).toMatchObject({
      kind: 'Scale',
      group: 'autoscaling',
    });
  });
});
