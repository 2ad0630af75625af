import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type TestCluster } from '../cluster.js';

// Hostile and faulty input answered alike by the local API server and kube-apiserver: query
// parameters as apimachinery parses them, built-in kinds decoded as Go decodes them, sizes
// and depths refused before anything is stored.
let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startCluster({ apiServer: { cluster: false } });
});
afterAll(async () => {
  await cluster.stop();
});

const configMaps = '/api/v1/namespaces/default/configmaps';
const replicaSet = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: { name },
  spec: {
    ...spec,
    selector: { matchLabels: { a: 'b' } },
    template: {
      metadata: { labels: { a: 'b' } },
      spec: { containers: [{ name: 'c', image: 'i' }] },
    },
  },
});

async function expectAnswer(
  method: string,
  path: string,
  body: unknown,
  code: number,
  message: string,
) {
  const res = await cluster.request(method, path, body);
  expect(res.status, JSON.stringify(res.body).slice(0, 400)).toBe(code);
  expect(res.body.message).toBe(message);
  const list = await cluster.request('GET', configMaps);
  expect(list.status).toBe(200);
}

describe('query parameters', () => {
  it("refuses integers Go cannot parse with strconv's text", async () => {
    await expectAnswer(
      'GET',
      `${configMaps}?limit=abc`,
      undefined,
      400,
      'strconv.ParseInt: parsing "abc": invalid syntax',
    );
    await expectAnswer(
      'GET',
      `${configMaps}?watch=1&timeoutSeconds=1e3`,
      undefined,
      400,
      'strconv.ParseInt: parsing "1e3": invalid syntax',
    );
  });

  it('validates option values as 422s on meta.k8s.io options', async () => {
    await expectAnswer(
      'POST',
      `${configMaps}?dryRun=foo`,
      { metadata: { name: 'x' } },
      422,
      'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["foo"]: supported values: "All"',
    );
    await expectAnswer(
      'POST',
      `${configMaps}?fieldValidation=strict`,
      { metadata: { name: 'x' } },
      422,
      'CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "strict": supported values: "", "Ignore", "Strict", "Warn"',
    );
    await expectAnswer(
      'GET',
      `${configMaps}?sendInitialEvents=true`,
      undefined,
      422,
      'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list',
    );
  });

  it('starts a watch for watch=True', async () => {
    await cluster.request('POST', configMaps, { metadata: { name: 'watched' } });
    const res = await cluster.request('GET', `${configMaps}?watch=True&timeoutSeconds=1`);
    expect(res.status).toBe(200);
    // One event parses as JSON on its own; several are lines.
    const first =
      typeof res.body === 'string' ? JSON.parse(res.body.split('\n')[0] ?? '') : res.body;
    expect(first.type).toBe('ADDED');
  });
});

describe('built-in kinds decoded as Go decodes them', () => {
  it("refuses wrong JSON types with the decoder's message", async () => {
    await expectAnswer(
      'POST',
      configMaps,
      { metadata: { name: 'l1', labels: 'x' } },
      400,
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal string into Go struct field ObjectMeta.metadata.labels of type map[string]string',
    );
    await expectAnswer(
      'POST',
      '/apis/apps/v1/namespaces/default/replicasets',
      replicaSet('r1', { replicas: 'abc' }),
      400,
      'ReplicaSet in version "v1" cannot be handled as a ReplicaSet: json: cannot unmarshal string into Go struct field ReplicaSetSpec.spec.replicas of type int32',
    );
  });

  it('refuses unknown fields under fieldValidation=Strict, and warns of them by default', async () => {
    await expectAnswer(
      'POST',
      '/apis/apps/v1/namespaces/default/replicasets?fieldValidation=Strict',
      replicaSet('r2', { foo: 1 }),
      400,
      'ReplicaSet in version "v1" cannot be handled as a ReplicaSet: strict decoding error: unknown field "spec.foo"',
    );
    const warned = await cluster.request('POST', `${configMaps}?dryRun=All`, {
      metadata: { name: 'w' },
      extra: 1,
    });
    expect(warned.status).toBe(201);
    expect(warned.headers.get('warning')).toBe('299 - "unknown field \\"extra\\""');
    expect(warned.body.extra).toBeUndefined();
  });
});

describe('limits', () => {
  it('holds ConfigMap data to 1 MiB', async () => {
    await expectAnswer(
      'POST',
      configMaps,
      { metadata: { name: 'big' }, data: { a: 'x'.repeat(1024 * 1024), b: 'y' } },
      422,
      'ConfigMap "big" is invalid: []: Too long: may not be more than 1048576 bytes',
    );
  });

  it('refuses a body over 3 MiB', async () => {
    await expectAnswer(
      'POST',
      configMaps,
      { metadata: { name: 'huge' }, data: { a: 'x'.repeat(3 * 1024 * 1024) } },
      413,
      'Request entity too large: limit is 3145728',
    );
  });

  it('refuses a 10,000-level body with a 400 and stores nothing', async () => {
    const deep = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
    const res = await cluster.request(
      'POST',
      configMaps,
      `{"metadata":{"name":"deep"},"x":${deep}}`,
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('exceeded max depth');
    expect((await cluster.request('GET', `${configMaps}/deep`)).status).toBe(404);
  });
});
