import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiServer } from '../src/index.js';
import { rawRequest } from './raw-http.js';

// A custom resource's /scale follows its CRD's subresources.scale paths, as kube-apiserver's
// ScaleREST does: here the replicas live at .spec.size, the observed ones at .status.ready and
// the selector at .status.labels.
let server: ApiServer;
const group = 'scale.ops.dev';
const pools = `/apis/${group}/v1/namespaces/default/pools`;

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `pools.${group}` },
  spec: {
    group,
    scope: 'Namespaced',
    names: { plural: 'pools', singular: 'pool', kind: 'Pool', listKind: 'PoolList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: {
          status: {},
          scale: {
            specReplicasPath: '.spec.size',
            statusReplicasPath: '.status.ready',
            labelSelectorPath: '.status.labels',
          },
        },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: {
                  size: { type: 'integer', maximum: 10 },
                  replicas: { type: 'integer' },
                },
              },
              status: {
                type: 'object',
                properties: { ready: { type: 'integer' }, labels: { type: 'string' } },
              },
            },
          },
        },
      },
    ],
  },
};

const send = (method: string, path: string, body?: unknown, contentType?: string) =>
  rawRequest(
    server,
    method,
    path,
    body === undefined ? undefined : JSON.stringify(body),
    contentType ? { 'content-type': contentType } : {},
  );

async function createPool(name: string, spec: Record<string, unknown>): Promise<void> {
  const made = await send('POST', pools, {
    apiVersion: `${group}/v1`,
    kind: 'Pool',
    metadata: { name },
    spec,
  });
  expect(made.status, made.text).toBe(201);
}

beforeAll(async () => {
  server = await ApiServer.start({ https: false, cluster: false });
  const made = await send('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
  expect(made.status, made.text).toBe(201);
});
afterAll(async () => {
  await server.stop();
});

describe('/scale of a custom resource', () => {
  it("GET builds the Scale from the CRD's paths; a missing status path reads as 0", async () => {
    await createPool('a', { size: 3, replicas: 9 });
    const scale = await send('GET', `${pools}/a/scale`);
    expect(scale.status, scale.text).toBe(200);
    expect(scale.json()).toMatchObject({
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata: { name: 'a', namespace: 'default' },
      spec: { replicas: 3 },
      status: { replicas: 0 },
    });
    expect(scale.json().status.selector).toBeUndefined();
    const status = await send(
      'PATCH',
      `${pools}/a/status`,
      { status: { ready: 2, labels: 'app=a' } },
      'application/merge-patch+json',
    );
    expect(status.status, status.text).toBe(200);
    expect((await send('GET', `${pools}/a/scale`)).json()).toMatchObject({
      spec: { replicas: 3 },
      status: { replicas: 2, selector: 'app=a' },
    });
  });

  it('PUT and PATCH write spec.replicas to specReplicasPath and leave the rest alone', async () => {
    await createPool('b', { size: 1, replicas: 9 });
    const current = (await send('GET', `${pools}/b/scale`)).json();
    const put = await send('PUT', `${pools}/b/scale`, { ...current, spec: { replicas: 4 } });
    expect(put.status, put.text).toBe(200);
    expect(put.json().spec).toEqual({ replicas: 4 });
    expect((await send('GET', `${pools}/b`)).json().spec).toEqual({ size: 4, replicas: 9 });
    const merge = await send(
      'PATCH',
      `${pools}/b/scale`,
      { spec: { replicas: 6 } },
      'application/merge-patch+json',
    );
    expect(merge.status, merge.text).toBe(200);
    const json = await send(
      'PATCH',
      `${pools}/b/scale`,
      [{ op: 'replace', path: '/spec/replicas', value: 7 }],
      'application/json-patch+json',
    );
    expect(json.status, json.text).toBe(200);
    expect(json.json().spec).toEqual({ replicas: 7 });
    expect((await send('GET', `${pools}/b`)).json().spec).toEqual({ size: 7, replicas: 9 });
  });

  it('refuses as kube-apiserver does: a missing spec path, a negative count, a stale version, the schema', async () => {
    await createPool('c', { replicas: 2 });
    const missing = await send('GET', `${pools}/c/scale`);
    expect(missing.status).toBe(500);
    expect(missing.json()).toMatchObject({
      reason: 'InternalError',
      message: 'Internal error occurred: the spec replicas field ".spec.size" does not exist',
      details: { causes: [{ message: 'the spec replicas field ".spec.size" does not exist' }] },
    });
    const empty = await send(
      'PATCH',
      `${pools}/c/scale`,
      { metadata: { labels: { x: 'y' } } },
      'application/merge-patch+json',
    );
    expect(empty.status, empty.text).toBe(400);
    expect(empty.json().message).toBe('the spec replicas field ".spec.size" cannot be empty');
    // A PUT without replicas sets 0, as decoding into an int32 does.
    const put = await send('PUT', `${pools}/c/scale`, { metadata: { name: 'c' }, spec: {} });
    expect(put.status, put.text).toBe(200);
    expect((await send('GET', `${pools}/c`)).json().spec).toEqual({ replicas: 2, size: 0 });

    const negative = await send(
      'PATCH',
      `${pools}/c/scale`,
      { spec: { replicas: -1 } },
      'application/merge-patch+json',
    );
    expect(negative.status).toBe(422);
    expect(negative.json().message).toBe(
      'Scale.autoscaling "c" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    );
    const stale = await send('PUT', `${pools}/c/scale`, {
      metadata: { name: 'c', resourceVersion: '1' },
      spec: { replicas: 1 },
    });
    expect(stale.status).toBe(409);
    expect(stale.json().reason).toBe('Conflict');
    const tooMany = await send(
      'PATCH',
      `${pools}/c/scale`,
      { spec: { replicas: 11 } },
      'application/merge-patch+json',
    );
    expect(tooMany.status).toBe(422);
    expect(tooMany.json().message).toContain('spec.size: Invalid value: 11');
  });
});

describe('with the real kubectl', () => {
  const run = promisify(execFile);
  const kubectl = process.env.KUBECTL ?? 'kubectl';

  it('kubectl scale prints scaled and changes .spec.size', async () => {
    const secure = await ApiServer.start({ cluster: false });
    const dir = await mkdtemp(join(tmpdir(), 'scale-subresource-'));
    try {
      const kubeconfig = join(dir, 'kubeconfig');
      await secure.writeKubeconfig(kubeconfig);
      const kube = (...args: string[]) => run(kubectl, ['--kubeconfig', kubeconfig, ...args]);
      const crdFile = join(dir, 'crd.json');
      const poolFile = join(dir, 'pool.json');
      await writeFile(crdFile, JSON.stringify(crd));
      await writeFile(
        poolFile,
        JSON.stringify({
          apiVersion: `${group}/v1`,
          kind: 'Pool',
          metadata: { name: 'web', namespace: 'default' },
          spec: { size: 1 },
        }),
      );
      await kube('apply', '-f', crdFile);
      await kube('apply', '-f', poolFile);
      const scaled = await kube('scale', 'pools.scale.ops.dev/web', '--replicas=5');
      expect(scaled.stdout.trim()).toBe('pool.scale.ops.dev/web scaled');
      const size = await kube('get', 'pools.scale.ops.dev/web', '-o', 'jsonpath={.spec.size}');
      expect(size.stdout).toBe('5');
      // With a precondition, kubectl reads the Scale and PUTs it back.
      const again = await kube(
        'scale',
        'pools.scale.ops.dev/web',
        '--current-replicas=5',
        '--replicas=2',
      );
      expect(again.stdout.trim()).toBe('pool.scale.ops.dev/web scaled');
      expect(
        (await kube('get', 'pools.scale.ops.dev/web', '-o', 'jsonpath={.spec.size}')).stdout,
      ).toBe('2');
    } finally {
      await secure.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
