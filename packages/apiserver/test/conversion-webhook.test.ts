// The local API server with a CRD whose conversion webhook this test serves over HTTPS: a
// watch in the version not stored ends at an event the webhook refuses to convert (as
// kube-apiserver ends a watch whose event it cannot encode), and status.storedVersions
// follows the storage version as kube-apiserver keeps it. The conformance suite
// (packages/envtest/test/conformance/conversion.test.ts) covers the rest on both planes.
import { request as httpRequest } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiServer, createServingCertificates } from '../src/index.js';
import { rawRequest } from './raw-http.js';

type Json = Record<string, any>;

const group = 'watch.ops.dev';
const crdPath = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/things.${group}`;
const things = (version: string) => `/apis/${group}/${version}/namespaces/default/things`;

let server: ApiServer;
let webhook: Server;

beforeAll(async () => {
  server = await ApiServer.start({ https: false, cluster: false });
  const certificates = await createServingCertificates(['127.0.0.1']);
  // Converts by rewriting apiVersion; refuses objects labelled refuse=yes.
  webhook = createServer({ cert: certificates.cert, key: certificates.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const { request } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const refused = request.objects.some((o: Json) => o.metadata?.labels?.refuse === 'yes');
      const response = refused
        ? { uid: request.uid, result: { status: 'Failure', message: 'refused' } }
        : {
            uid: request.uid,
            result: { status: 'Success' },
            convertedObjects: request.objects.map((o: Json) => ({
              ...o,
              apiVersion: request.desiredAPIVersion,
            })),
          };
      res.setHeader('Content-Type', 'application/json');
      res.end(
        JSON.stringify({
          apiVersion: 'apiextensions.k8s.io/v1',
          kind: 'ConversionReview',
          response,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
  const schema = {
    openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
  };
  const created = await rawRequest(
    server,
    'POST',
    '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
    JSON.stringify({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `things.${group}` },
      spec: {
        group,
        scope: 'Namespaced',
        names: { plural: 'things', singular: 'thing', kind: 'Thing', listKind: 'ThingList' },
        versions: [
          { name: 'v1beta1', served: true, storage: false, schema },
          { name: 'v1', served: true, storage: true, schema },
        ],
        conversion: {
          strategy: 'Webhook',
          webhook: {
            clientConfig: {
              url: `https://127.0.0.1:${(webhook.address() as AddressInfo).port}/convert`,
              caBundle: Buffer.from(certificates.caCert).toString('base64'),
            },
            conversionReviewVersions: ['v1'],
          },
        },
      },
    }),
  );
  expect(created.status).toBe(201);
});
afterAll(async () => {
  await server?.stop();
  webhook?.closeAllConnections();
  await new Promise((resolve) => webhook?.close(resolve));
});

/** Opens a watch and collects its events until the server ends it. */
function watch(path: string): Promise<{ events: Json[]; ended: Promise<void> }> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const events: Json[] = [];
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path,
        headers: { authorization: `Bearer ${server.adminToken}` },
      },
      (res) => {
        let buffer = '';
        const ended = new Promise<void>((done) => res.on('end', () => done()));
        res.on('data', (chunk: Buffer) => {
          buffer += chunk.toString('utf8');
          for (let newline = buffer.indexOf('\n'); newline !== -1; newline = buffer.indexOf('\n')) {
            events.push(JSON.parse(buffer.slice(0, newline)));
            buffer = buffer.slice(newline + 1);
          }
        });
        resolve({ events, ended });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const thing = (name: string, labels: Record<string, string> = {}) =>
  JSON.stringify({
    apiVersion: `${group}/v1`,
    kind: 'Thing',
    metadata: { name, labels },
    spec: { n: 1 },
  });

describe('a watch in a version a conversion webhook converts', () => {
  it('sends the converted events, and ends at one the webhook refuses', async () => {
    const stream = await watch(`${things('v1beta1')}?watch=true&timeoutSeconds=60`);
    expect((await rawRequest(server, 'POST', things('v1'), thing('a'))).status).toBe(201);
    expect(
      (await rawRequest(server, 'POST', things('v1'), thing('b', { refuse: 'yes' }))).status,
    ).toBe(201);
    expect((await rawRequest(server, 'POST', things('v1'), thing('c'))).status).toBe(201);
    await stream.ended;
    expect(
      stream.events.map((event) => [
        event.type,
        event.object.apiVersion,
        event.object.metadata.name,
      ]),
    ).toEqual([['ADDED', `${group}/v1beta1`, 'a']]);
  });
});

describe('status.storedVersions', () => {
  it('gains a new storage version on a spec update, and is set as written by a status update', async () => {
    const current = (await rawRequest(server, 'GET', crdPath)).json();
    expect(current.status.storedVersions).toEqual(['v1']);
    current.spec.versions[0].storage = true;
    current.spec.versions[1].storage = false;
    const updated = await rawRequest(server, 'PUT', crdPath, JSON.stringify(current));
    expect(updated.json().status.storedVersions).toEqual(['v1', 'v1beta1']);
    const written = await rawRequest(
      server,
      'PATCH',
      `${crdPath}/status`,
      JSON.stringify({ status: { storedVersions: ['v1beta1'] } }),
      { 'content-type': 'application/merge-patch+json' },
    );
    expect(written.json().status.storedVersions).toEqual(['v1beta1']);
    const again = (await rawRequest(server, 'GET', crdPath)).json();
    const relabelled = await rawRequest(
      server,
      'PUT',
      crdPath,
      JSON.stringify({ ...again, metadata: { ...again.metadata, labels: { touched: 'yes' } } }),
    );
    expect(relabelled.json().status.storedVersions).toEqual(['v1beta1']);
  });
});
