import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { KubernetesObject } from '@ops/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversionWebhook } from '../registry/resource-type.js';
import { ObjectStore } from '../store/object-store.js';
import { createServingCertificates } from '../tls/certificates.js';
import { ConversionError } from './conversion-error.js';
import { WebhookConverter } from './webhook-converter.js';

type Json = Record<string, any>;

/** How the test webhook answers the next review: a function of the review's request. */
let answer: (request: Json) => { status?: number; body: unknown };
const convertAll = (request: Json) => ({
  body: {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'ConversionReview',
    response: {
      uid: request.uid,
      result: { status: 'Success' },
      convertedObjects: request.objects.map((o: Json) => ({
        ...o,
        apiVersion: request.desiredAPIVersion,
        spec: { converted: true },
      })),
    },
  },
});
const paths: string[] = [];

let server: Server;
let port: number;
let caBundle: string;
const store = new ObjectStore();
const converter = new WebhookConverter({ store });

beforeAll(async () => {
  const certificates = await createServingCertificates(['127.0.0.1']);
  caBundle = Buffer.from(certificates.caCert).toString('base64');
  server = createServer({ cert: certificates.cert, key: certificates.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      paths.push(req.url ?? '');
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const { status = 200, body } = answer(review.request);
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  converter.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const byUrl = (): ConversionWebhook => ({
  crdName: 'gadgets.g.dev',
  clientConfig: { url: `https://127.0.0.1:${port}/convert`, caBundle },
  conversionReviewVersions: ['v1'],
});
const object: KubernetesObject = {
  apiVersion: 'g.dev/v1beta1',
  kind: 'Gadget',
  metadata: {
    name: 'a',
    namespace: 'ns',
    uid: 'u-1',
    resourceVersion: '7',
    labels: { app: 'x' },
  },
  spec: { old: true },
};

/** The error message of a conversion expected to fail. */
async function failure(webhook: ConversionWebhook = byUrl()): Promise<string> {
  const error = await converter.convert(webhook, object, 'g.dev/v1').catch((e: unknown) => e);
  expect(ConversionError.isInstance(error)).toBe(true);
  return (error as Error).message;
}

describe('WebhookConverter', () => {
  it('converts through the webhook, keeping the metadata but for labels and annotations', async () => {
    answer = (request) => {
      const converted = convertAll(request);
      const item = converted.body.response.convertedObjects[0];
      item.metadata = { ...item.metadata, labels: { app: 'y' }, resourceVersion: '999' };
      return converted;
    };
    const converted = await converter.convert(byUrl(), object, 'g.dev/v1');
    expect(converted).toEqual({
      apiVersion: 'g.dev/v1',
      kind: 'Gadget',
      metadata: { ...object.metadata, labels: { app: 'y' } },
      spec: { converted: true },
    });
    expect(paths.at(-1)).toBe('/convert?timeout=30s');
  });

  it('does not call the webhook for an object already at the desired version', async () => {
    const before = paths.length;
    expect(await converter.convert(byUrl(), object, 'g.dev/v1beta1')).toBe(object);
    expect(paths.length).toBe(before);
  });

  it('routes a service config through the Service and its Endpoints', async () => {
    answer = convertAll;
    const service = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'hook', namespace: 'sys' },
    };
    store.create(
      '/services',
      'sys/hook',
      { ...service, spec: { ports: [{ port: 443 }] } },
      store.nextRevision(),
    );
    store.create(
      '/endpoints',
      'sys/hook',
      {
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: { name: 'hook', namespace: 'sys' },
        subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ port }] }],
      },
      store.nextRevision(),
    );
    const webhook: ConversionWebhook = {
      ...byUrl(),
      clientConfig: {
        service: { namespace: 'sys', name: 'hook', port: 443, path: '/by-service' },
        caBundle,
      },
    };
    const error = await converter.convert(webhook, object, 'g.dev/v1').catch((e: unknown) => e);
    // The certificate names 127.0.0.1, not hook.sys.svc: the call went there and TLS refused.
    expect((error as Error).message).toBe(
      'conversion webhook for g.dev/v1beta1, Kind=Gadget failed: Post "https://hook.sys.svc:443/by-service?timeout=30s": tls: failed to verify certificate: x509: certificate is valid for 127.0.0.1, not hook.sys.svc',
    );
  });

  it('names the webhook failure, as kube-apiserver does', async () => {
    const gvk = 'conversion webhook for g.dev/v1beta1, Kind=Gadget';
    answer = (request) => ({
      body: {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'ConversionReview',
        response: { uid: request.uid, result: { status: 'Failure', message: 'cannot' } },
      },
    });
    expect(await failure()).toBe(`${gvk} failed: cannot`);
    answer = () => ({ body: 'this is not JSON' });
    expect(await failure()).toBe(
      `${gvk} failed: couldn't get version/kind; json parse error: json: cannot unmarshal string into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    );
    answer = (request) => {
      const converted = convertAll(request);
      converted.body.response.convertedObjects = [];
      return converted;
    };
    expect(await failure()).toBe(`${gvk} returned 0 objects, expected 1`);
    const changing = (change: (item: Json) => void) => (request: Json) => {
      const converted = convertAll(request);
      change(converted.body.response.convertedObjects[0]);
      return converted;
    };
    answer = changing((item) => {
      item.apiVersion = 'g.dev/v1beta1';
    });
    expect(await failure()).toBe(
      `${gvk} returned invalid object at index 0: invalid groupVersion (expected g.dev/v1, received g.dev/v1beta1)`,
    );
    answer = changing((item) => {
      item.kind = 'Gizmo';
    });
    expect(await failure()).toBe(
      `${gvk} returned invalid object at index 0: invalid kind (expected Gadget, received Gizmo)`,
    );
    answer = changing((item) => {
      item.metadata = { ...item.metadata, name: 'b' };
    });
    expect(await failure()).toBe(`${gvk} returned invalid object: must have the same name: a != b`);
    answer = changing((item) => {
      item.metadata = { ...item.metadata, uid: 'u-2' };
    });
    expect(await failure()).toBe(
      `${gvk} returned invalid object: must have the same UID: u-1 != u-2`,
    );
    answer = changing((item) => {
      item.metadata = { ...item.metadata, labels: { 'bad key': 'x' } };
    });
    expect(await failure()).toMatch(
      new RegExp(`^${gvk} returned invalid metadata: metadata.labels: Invalid value: "bad key": `),
    );
    // Without metadata the name differs first, as kube-apiserver checks it before restoring.
    answer = changing((item) => {
      delete item.metadata;
    });
    expect(await failure()).toBe(`${gvk} returned invalid object: must have the same name: a != `);
    answer = () => ({ status: 500, body: 'boom' });
    expect(await failure()).toBe(
      `${gvk} failed: an error on the server ("unknown") has prevented the request from succeeding`,
    );
  });

  it('says the webhook is unreachable as Go does', async () => {
    const closed = { ...byUrl(), clientConfig: { url: 'https://127.0.0.1:1/convert', caBundle } };
    expect(await failure(closed)).toBe(
      'conversion webhook for g.dev/v1beta1, Kind=Gadget failed: Post "https://127.0.0.1:1/convert?timeout=30s": dial tcp 127.0.0.1:1: connect: connection refused',
    );
  });

  it('refuses a CRD that names no ConversionReview version it speaks', async () => {
    expect(await failure({ ...byUrl(), conversionReviewVersions: ['v9'] })).toBe(
      'no supported conversion review versions',
    );
  });
});
