import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiServer } from '../src/index.js';
import { expectRefusal, rawRequest } from './raw-http.js';

// Built-in kinds are decoded against the schemas the server publishes at /openapi/v3, with
// kube-apiserver's messages (taken from kube-apiserver 1.37 answering the same bodies).
let server: ApiServer;
const configMaps = '/api/v1/namespaces/default/configmaps';
const replicaSets = '/apis/apps/v1/namespaces/default/replicasets';
const replicaSet = (
  name: string,
  spec: Record<string, unknown> = {},
  container: Record<string, unknown> = {},
) =>
  JSON.stringify({
    metadata: { name },
    spec: {
      ...spec,
      selector: { matchLabels: { a: 'b' } },
      template: {
        metadata: { labels: { a: 'b' } },
        spec: { containers: [{ name: 'c', image: 'i', ...container }] },
      },
    },
  });

beforeAll(async () => {
  server = await ApiServer.start({ https: false, cluster: false });
});
afterAll(async () => {
  await server.stop();
});

const expectBadRequest = (
  method: string,
  path: string,
  body: string,
  message: string,
  contentType?: string,
) =>
  expectRefusal(server, { method, path, body, code: 400, message, contentType }, [
    configMaps,
    '/apis/apps/v1/replicasets',
  ]);

describe('wrong JSON types', () => {
  const cannot =
    'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal';
  it.each([
    [
      '{"metadata":{"name":"l1","labels":"x"}}',
      'string into Go struct field ObjectMeta.metadata.labels of type map[string]string',
    ],
    [
      '{"metadata":{"name":"l2","finalizers":"x"}}',
      'string into Go struct field ObjectMeta.metadata.finalizers of type []string',
    ],
    [
      '{"metadata":{"name":5}}',
      'number into Go struct field ObjectMeta.metadata.name of type string',
    ],
    [
      '{"metadata":{"name":"d1"},"data":{"a":1}}',
      'number into Go struct field ConfigMap.data of type string',
    ],
    [
      '{"metadata":{"name":"d2","labels":{"a":1}}}',
      'number into Go struct field ObjectMeta.metadata.labels of type string',
    ],
    ['{"metadata":"x"}', 'string into Go struct field ConfigMap.metadata of type v1.ObjectMeta'],
    [
      '{"metadata":{"name":"d3"},"immutable":"yes"}',
      'string into Go struct field ConfigMap.immutable of type bool',
    ],
  ])('refuses %s with a 400', async (body, message) => {
    await expectBadRequest('POST', configMaps, body, `${cannot} ${message}`);
  });

  it('checks integer types and int32 range (replicas: "abc", 1e12, 1.5)', async () => {
    const cannot =
      'ReplicaSet in version "v1" cannot be handled as a ReplicaSet: json: cannot unmarshal';
    await expectBadRequest(
      'POST',
      replicaSets,
      replicaSet('r1', { replicas: 'abc' }),
      `${cannot} string into Go struct field ReplicaSetSpec.spec.replicas of type int32`,
    );
    // kube quotes the number as sent (1e12); JSON.parse has already made it 1000000000000.
    await expectBadRequest(
      'POST',
      replicaSets,
      replicaSet('r1', { replicas: 1e12 }),
      `${cannot} number 1000000000000 into Go struct field ReplicaSetSpec.spec.replicas of type int32`,
    );
    await expectBadRequest(
      'POST',
      replicaSets,
      replicaSet('r1', { replicas: 1.5 }),
      `${cannot} number 1.5 into Go struct field ReplicaSetSpec.spec.replicas of type int32`,
    );
    await expectBadRequest(
      'POST',
      replicaSets,
      replicaSet('r1', {}, { ports: [{ containerPort: 'http' }] }),
      `${cannot} string into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32`,
    );
    expect((await rawRequest(server, 'GET', `${replicaSets}/r1`)).status).toBe(404);
  });

  it('checks updates and patch results too, leaving the stored object as it was', async () => {
    expect(
      (
        await rawRequest(
          server,
          'POST',
          configMaps,
          '{"metadata":{"name":"typed"},"data":{"a":"1"}}',
        )
      ).status,
    ).toBe(201);
    await expectBadRequest(
      'PUT',
      `${configMaps}/typed`,
      '{"metadata":{"name":"typed"},"data":["a"]}',
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal array into Go struct field ConfigMap.data of type map[string]string',
    );
    await expectBadRequest(
      'PATCH',
      `${configMaps}/typed`,
      '{"metadata":{"labels":{"a":true}}}',
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.labels of type string',
      'application/merge-patch+json',
    );
    expect((await rawRequest(server, 'GET', `${configMaps}/typed`)).json().data).toEqual({
      a: '1',
    });
  });

  it('accepts int-or-string and quantities in either form', async () => {
    const res = await rawRequest(
      server,
      'POST',
      replicaSets,
      replicaSet(
        'flexible',
        {},
        {
          resources: { limits: { cpu: 1, memory: '1Gi' } },
          ports: [{ containerPort: 80 }],
          readinessProbe: { httpGet: { port: 'http' } },
        },
      ),
    );
    expect(res.status, res.text).toBe(201);
  });
});

describe('unknown fields', () => {
  const body = replicaSet('extra', { foo: 1 }, { bar: 2 });

  it('drops them with a Warning header each under the default (Warn)', async () => {
    const res = await rawRequest(server, 'POST', replicaSets, body);
    expect(res.status, res.text).toBe(201);
    expect(res.headers.warning).toBe(
      '299 - "unknown field \\"spec.foo\\"", 299 - "unknown field \\"spec.template.spec.containers[0].bar\\""',
    );
    const stored = (await rawRequest(server, 'GET', `${replicaSets}/extra`)).json();
    expect(stored.spec.foo).toBeUndefined();
    expect(stored.spec.template.spec.containers[0]).toMatchObject({ name: 'c', image: 'i' });
    expect(stored.spec.template.spec.containers[0].bar).toBeUndefined();
  });

  it("refuses them under fieldValidation=Strict with kube's message", async () => {
    await expectBadRequest(
      'POST',
      `${replicaSets}?fieldValidation=Strict`,
      replicaSet('strict', { foo: 1 }, { bar: 2 }),
      'ReplicaSet in version "v1" cannot be handled as a ReplicaSet: strict decoding error: unknown field "spec.foo", unknown field "spec.template.spec.containers[0].bar"',
    );
    expect((await rawRequest(server, 'GET', `${replicaSets}/strict`)).status).toBe(404);
  });

  it('drops them silently under fieldValidation=Ignore', async () => {
    const res = await rawRequest(
      server,
      'POST',
      `${replicaSets}?fieldValidation=Ignore`,
      replicaSet('quiet', { foo: 1 }),
    );
    expect(res.status).toBe(201);
    expect(res.headers.warning).toBeUndefined();
    expect(res.json().spec.foo).toBeUndefined();
  });
});

describe('the published schema', () => {
  it('is the one the checks use: /openapi/v3 types ReplicaSetSpec.replicas as int32 and ConfigMap.data as a string map', async () => {
    const apps = (await rawRequest(server, 'GET', '/openapi/v3/apis/apps/v1')).json();
    expect(
      apps.components.schemas['io.k8s.api.apps.v1.ReplicaSetSpec'].properties.replicas,
    ).toEqual({
      type: 'integer',
      format: 'int32',
    });
    const core = (await rawRequest(server, 'GET', '/openapi/v3/api/v1')).json();
    const configMap = Object.values(core.components.schemas).find((s: any) =>
      s['x-kubernetes-group-version-kind']?.some((g: any) => g.kind === 'ConfigMap'),
    ) as any;
    expect(configMap.properties.data).toEqual({
      type: 'object',
      additionalProperties: { type: 'string' },
    });
    expect(configMap.properties.metadata).toEqual({
      $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
    });
    expect(
      core.components.schemas['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'].properties.labels,
    ).toEqual({
      type: 'object',
      additionalProperties: { type: 'string' },
    });
  });
});

describe('with the real kubectl (server-side field validation)', () => {
  const run = promisify(execFile);
  const kubectl = process.env.KUBECTL ?? 'kubectl';

  it("shows kube's messages: strict refusal by default, a warning with --validate=warn, silence with --validate=false", async () => {
    const secure = await ApiServer.start({ cluster: false });
    const dir = await mkdtemp(join(tmpdir(), 'builtin-types-'));
    try {
      const kubeconfig = join(dir, 'kubeconfig');
      await secure.writeKubeconfig(kubeconfig);
      const manifest = join(dir, 'rs.json');
      await writeFile(
        manifest,
        JSON.stringify({
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          ...JSON.parse(replicaSet('k', { foo: 1 })),
        }),
      );
      const kube = (...args: string[]) =>
        run(kubectl, ['--kubeconfig', kubeconfig, ...args]).then(
          ({ stdout, stderr }) => ({ ok: true, stdout, stderr }),
          (error: { stdout: string; stderr: string }) => ({
            ok: false,
            stdout: error.stdout,
            stderr: error.stderr,
          }),
        );
      const strict = await kube('create', '-f', manifest);
      expect(strict.ok).toBe(false);
      expect(strict.stderr).toContain(
        'ReplicaSet in version "v1" cannot be handled as a ReplicaSet: strict decoding error: unknown field "spec.foo"',
      );
      const warned = await kube('create', '--validate=warn', '-f', manifest);
      expect(warned.ok, warned.stderr).toBe(true);
      expect(warned.stderr).toContain('Warning: unknown field "spec.foo"');
      await kube('delete', 'replicaset', 'k');
      const quiet = await kube('create', '--validate=false', '-f', manifest);
      expect(quiet.ok, quiet.stderr).toBe(true);
      expect(quiet.stderr).toBe('');
    } finally {
      await secure.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
