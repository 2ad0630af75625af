// A CRD that promotes v1beta1 to v1 with a conversion webhook served by this test over HTTPS
// (by URL, with its CA bundle): the server converts every read, write, list and watch in the
// version it does not store, fails requests as kube-apiserver does when the webhook fails or
// is down (losing nothing), keeps status.storedVersions, and migrateStorageVersion rewrites
// the objects stored before the upgrade. The same file runs on the local API server (`pnpm
// test`) and on kube-apiserver (`pnpm test:binaries`).
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createServingCertificates } from '@ops/apiserver';
import { Client, type KubernetesObject } from '@ops/core';
import { migrateStorageVersion } from '@ops/core/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../src/index.js';
import { startCluster, type TestCluster } from '../cluster.js';

const group = 'conversion.ops.dev';
const crdName = `gadgets.${group}`;
const ns = 'default';
const path = (version: string, name = '') =>
  `/apis/${group}/${version}/namespaces/${ns}/gadgets${name ? `/${name}` : ''}`;

type Json = Record<string, any>;

/** v1beta1 keeps `spec.image` and `spec.port`; v1 nests them in `spec.container`. */
function convert(object: Json, desiredAPIVersion: string): Json {
  const spec = object.spec ?? {};
  if (desiredAPIVersion === `${group}/v1`) {
    const { image, port, ...rest } = spec;
    return {
      ...object,
      apiVersion: desiredAPIVersion,
      spec: { ...rest, container: { image, port } },
    };
  }
  const { container, ...rest } = spec;
  return { ...object, apiVersion: desiredAPIVersion, spec: { ...rest, ...container } };
}

/** How the webhook answers: converting, or refusing every conversion. */
let mode: 'convert' | 'refuse' = 'convert';
const calls: string[] = [];
let server: Server | undefined;
let port = 0;
let caCert = '';

let certificates: { cert: string; key: string; caCert: string } | undefined;

/** Serves the webhook on its port (a free one the first time), with the same certificate. */
async function startWebhook(): Promise<void> {
  certificates ??= await createServingCertificates(['127.0.0.1']);
  caCert = certificates.caCert;
  const started = createServer({ cert: certificates.cert, key: certificates.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const { uid, desiredAPIVersion, objects } = review.request;
      calls.push(desiredAPIVersion);
      const response =
        mode === 'refuse'
          ? { uid, result: { status: 'Failure', message: 'refusing on purpose' } }
          : {
              uid,
              result: { status: 'Success' },
              convertedObjects: objects.map((o: Json) => convert(o, desiredAPIVersion)),
            };
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: review.kind, response }));
    });
  });
  await new Promise<void>((resolve) => started.listen(port, '127.0.0.1', resolve));
  port = (started.address() as AddressInfo).port;
  server = started;
}

/** Takes the webhook down: its port refuses connections until {@link startWebhook}. */
async function stopWebhook(): Promise<void> {
  const running = server;
  server = undefined;
  if (running === undefined) return;
  running.closeAllConnections();
  await new Promise((resolve) => running.close(resolve));
}

const schemaOf = (spec: Json) => ({
  openAPIV3Schema: {
    type: 'object',
    properties: { spec: { type: 'object', properties: spec } },
  },
});
const v1beta1 = (storage: boolean) => ({
  name: 'v1beta1',
  served: true,
  storage,
  schema: schemaOf({ image: { type: 'string' }, port: { type: 'integer' } }),
});
const v1 = {
  name: 'v1',
  served: true,
  storage: true,
  schema: schemaOf({
    container: {
      type: 'object',
      properties: { image: { type: 'string' }, port: { type: 'integer' } },
    },
  }),
};
const crd = (versions: Json[], conversion?: Json) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: crdName },
  spec: {
    group,
    scope: 'Namespaced',
    names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
    versions,
    ...(conversion ? { conversion } : {}),
  },
});
const gadget = (version: 'v1beta1' | 'v1', name: string, image: string) => ({
  apiVersion: `${group}/${version}`,
  kind: 'Gadget',
  metadata: { name },
  spec: version === 'v1' ? { container: { image, port: 80 } } : { image, port: 80 },
});

let cluster: TestCluster;
let client: Client;

beforeAll(async () => {
  cluster = await startCluster();
  client = new Client({ kubeConfig: cluster.kubeConfig });
  await startWebhook();
}, 120_000);
afterAll(async () => {
  client?.close();
  await stopWebhook();
  await cluster?.stop();
});

const slow = { timeout: 60_000 };
const wait = { timeoutMs: 45_000 };

describe('a CRD promoted from v1beta1 to v1 with a conversion webhook', () => {
  it(
    'keeps objects stored as v1beta1 before the upgrade, and reads them as v1 after',
    slow,
    async () => {
      await cluster.env.installCrds([crd([v1beta1(true)])]);
      for (const name of ['old-a', 'old-b']) {
        const created = await cluster.request(
          'POST',
          path('v1beta1'),
          gadget('v1beta1', name, `${name}:1`),
        );
        expect(created.status).toBe(201);
      }
      await cluster.env.installCrds([
        crd([v1beta1(false), v1], {
          strategy: 'Webhook',
          webhook: {
            clientConfig: {
              url: `https://127.0.0.1:${port}/convert`,
              caBundle: Buffer.from(caCert).toString('base64'),
            },
            conversionReviewVersions: ['v1'],
          },
        }),
      ]);
      const read = await eventually(async () => {
        const answer = await cluster.request('GET', path('v1', 'old-a'));
        return answer.status === 200 && answer.body.spec.container !== undefined && answer;
      }, wait);
      expect(read.body.apiVersion).toBe(`${group}/v1`);
      expect(read.body.spec).toEqual({ container: { image: 'old-a:1', port: 80 } });
      expect(calls).toContain(`${group}/v1`);
      const definition = await cluster.request(
        'GET',
        `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crdName}`,
      );
      expect(definition.body.status.storedVersions).toEqual(['v1beta1', 'v1']);
    },
  );

  it(
    'converts writes, reads, lists and watches in the version it does not store',
    slow,
    async () => {
      const created = await cluster.request(
        'POST',
        path('v1beta1'),
        gadget('v1beta1', 'new', 'new:1'),
      );
      expect(created.status).toBe(201);
      expect(created.body.apiVersion).toBe(`${group}/v1beta1`);
      expect(created.body.spec).toEqual({ image: 'new:1', port: 80 });
      const stored = await cluster.request('GET', path('v1', 'new'));
      expect(stored.body.spec).toEqual({ container: { image: 'new:1', port: 80 } });

      const inV1 = await cluster.request('GET', path('v1'));
      expect(inV1.body.items.map((item: Json) => item.spec.container.image)).toEqual([
        'new:1',
        'old-a:1',
        'old-b:1',
      ]);
      const inV1beta1 = await cluster.request('GET', path('v1beta1'));
      expect(inV1beta1.body.apiVersion).toBe(`${group}/v1beta1`);
      expect(inV1beta1.body.items.map((item: Json) => [item.apiVersion, item.spec.image])).toEqual([
        [`${group}/v1beta1`, 'new:1'],
        [`${group}/v1beta1`, 'old-a:1'],
        [`${group}/v1beta1`, 'old-b:1'],
      ]);

      const watch = await cluster.watch(
        `${path('v1beta1')}?watch=true&resourceVersion=${inV1beta1.body.metadata.resourceVersion}`,
      );
      try {
        const updated = await cluster.request('PUT', path('v1', 'new'), {
          ...gadget('v1', 'new', 'new:2'),
          metadata: { name: 'new', resourceVersion: stored.body.metadata.resourceVersion },
        });
        expect(updated.status).toBe(200);
        const [event] = await watch.next(1, 30_000);
        expect(event).toMatchObject({
          type: 'MODIFIED',
          object: { apiVersion: `${group}/v1beta1`, spec: { image: 'new:2', port: 80 } },
        });
      } finally {
        watch.close();
      }

      const patched = await cluster.request(
        'PATCH',
        path('v1beta1', 'new'),
        { spec: { port: 8080 } },
        {
          contentType: 'application/merge-patch+json',
        },
      );
      expect(patched.status).toBe(200);
      expect(patched.body.spec).toEqual({ image: 'new:2', port: 8080 });
      const after = await cluster.request('GET', path('v1', 'new'));
      expect(after.body.spec).toEqual({ container: { image: 'new:2', port: 8080 } });
    },
  );

  it(
    'fails requests as kube-apiserver does when the webhook refuses, and stores nothing',
    slow,
    async () => {
      mode = 'refuse';
      try {
        const read = await cluster.request('GET', path('v1beta1', 'new'));
        // kube-apiserver 1.37 converts in its storage layer (500 InternalError, `StorageError:
        // corrupt object, ... object not decodable revision=<rv>: ...`, as this server answers);
        // 1.35 in its handler (500, the converter's message alone). Both quote the converter.
        expect(read.status).toBe(500);
        expect(read.body.message).toContain(
          `conversion webhook for ${group}/v1, Kind=Gadget failed: refusing on purpose`,
        );
        const written = await cluster.request(
          'POST',
          path('v1beta1'),
          gadget('v1beta1', 'refused', 'x:1'),
        );
        expect(written.status).toBe(500);
        expect(written.body.message).toBe(
          `conversion webhook for ${group}/v1beta1, Kind=Gadget failed: refusing on purpose`,
        );
        // No list here: kube-apiserver serves lists from a watch cache per version, which
        // holds objects as converted when they were written: its answer depends on that cache.
      } finally {
        mode = 'convert';
      }
      expect((await cluster.request('GET', path('v1', 'refused'))).status).toBe(404);
      expect((await cluster.request('GET', path('v1beta1', 'new'))).status).toBe(200);
    },
  );

  it(
    'fails requests as kube-apiserver does when the webhook is down, and loses nothing',
    slow,
    async () => {
      await stopWebhook();
      try {
        const read = await cluster.request('GET', path('v1beta1', 'new'));
        expect(read.status).toBe(500);
        expect(read.body.message).toMatch(
          new RegExp(
            `conversion webhook for ${group}/v1, Kind=Gadget failed: Post "https://127\\.0\\.0\\.1:${port}/convert\\?timeout=30s": dial tcp 127\\.0\\.0\\.1:${port}: connect: connection refused$`,
          ),
        );
        const written = await cluster.request(
          'POST',
          path('v1beta1'),
          gadget('v1beta1', 'lost', 'x:1'),
        );
        expect(written.status).toBe(500);
        // Stored at v1, read at v1: no conversion, so the webhook being down does not matter.
        expect((await cluster.request('GET', path('v1', 'new'))).status).toBe(200);
      } finally {
        await startWebhook();
      }
      expect((await cluster.request('GET', path('v1', 'lost'))).status).toBe(404);
      const all = await cluster.request('GET', path('v1beta1'));
      expect(all.body.items.map((item: Json) => item.metadata.name)).toEqual([
        'new',
        'old-a',
        'old-b',
      ]);
    },
  );

  it(
    'migrates the objects stored as v1beta1 to v1 and drops v1beta1 from storedVersions',
    slow,
    async () => {
      // Before: old-a is stored as v1beta1, so reading it as v1 needs the webhook.
      await stopWebhook();
      try {
        expect((await cluster.request('GET', path('v1', 'old-a'))).status).toBe(500);
      } finally {
        await startWebhook();
      }
      const result = await migrateStorageVersion(client, crdName);
      expect(result).toEqual({
        storageVersion: 'v1',
        method: 'rewrite',
        rewritten: 3,
        previousStoredVersions: ['v1beta1', 'v1'],
        storedVersions: ['v1'],
      });
      const definition = await client.get<KubernetesObject & { status: Json }>(
        'apiextensions.k8s.io/v1',
        'CustomResourceDefinition',
        crdName,
      );
      expect(definition.status.storedVersions).toEqual(['v1']);
      // After: every object is stored as v1; with the webhook down, v1 reads need no conversion.
      await stopWebhook();
      try {
        for (const name of ['old-a', 'old-b', 'new']) {
          const read = await cluster.request('GET', path('v1', name));
          expect(read.status, name).toBe(200);
        }
      } finally {
        await startWebhook();
      }
    },
  );
});
