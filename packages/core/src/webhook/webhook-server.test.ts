import { randomUUID, X509Certificate } from 'node:crypto';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import type { KubernetesObject } from '@ops/api';
import jsonPatch from 'fast-json-patch';
import { pino } from 'pino';
import { generate } from 'selfsigned';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { widgetConversion } from '../crd/test-widget.js';
import { WebhookCertificateError } from '../errors/webhook-certificate-error.js';
import { WebhookServerError } from '../errors/webhook-server-error.js';
import { MetricsRegistry } from '../metrics/metrics-registry.js';
import {
  type AdmissionHandler,
  type AdmissionResult,
  admissionAllowed,
} from './admission-handler.js';
import type { AdmissionOperation, AdmissionRequest, AdmissionReview } from './admission-review.js';
import { mutatingWebhook } from './mutating-webhook.js';
import { validatingWebhook } from './validating-webhook.js';
import {
  defaultCertDir,
  defaultMaxRequestBytes,
  defaultWebhookPort,
  WebhookServer,
} from './webhook-server.js';

interface Pair {
  cert: string;
  key: string;
  fingerprint256: string;
}

/** A self-signed pair for localhost; `name` must differ between pairs trusted together. */
async function makePair(name: string): Promise<Pair> {
  const pems = await generate([{ name: 'commonName', value: name }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  return {
    cert: pems.cert,
    key: pems.private,
    fingerprint256: new X509Certificate(pems.cert).fingerprint256,
  };
}

async function writeAtomically(path: string, content: string): Promise<void> {
  await writeFile(`${path}.tmp`, content);
  await rename(`${path}.tmp`, path);
}

async function writePair(dir: string, pair: Pair): Promise<void> {
  await writeAtomically(join(dir, 'tls.key'), pair.key);
  await writeAtomically(join(dir, 'tls.crt'), pair.cert);
}

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: AdmissionReview;
  fingerprint256: string;
}

interface Call {
  path?: string;
  method?: string;
  body?: string | Buffer | undefined;
  contentType?: string | null;
  headers?: Record<string, string | number>;
  /** Writes these chunks (chunked encoding) instead of `body`. */
  chunks?: Buffer[];
  /** Sends the headers only and waits for the answer. */
  headersOnly?: boolean;
}

let ca: string[] = [];

function call(port: number, options: Call): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...options.headers };
    if (options.contentType !== null)
      headers['content-type'] = options.contentType ?? 'application/json';
    const req = httpsRequest(
      {
        host: '127.0.0.1',
        port,
        path: options.path ?? '/validate',
        method: options.method ?? 'POST',
        ca,
        servername: 'localhost',
        agent: false,
        headers,
      },
      (res) => {
        const fingerprint256 = (res.socket as TLSSocket).getPeerCertificate().fingerprint256;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: JSON.parse(text),
              fingerprint256,
            });
          } catch (error) {
            reject(new Error(`response is not JSON: ${text} (${error})`));
          }
        });
      },
    );
    req.on('error', reject);
    if (options.headersOnly) {
      req.flushHeaders();
      return;
    }
    for (const chunk of options.chunks ?? []) req.write(chunk);
    req.end(options.body);
  });
}

/** The peer certificate's fingerprint seen by a fresh TLS connection. */
function peerFingerprint(port: number): Promise<string> {
  return call(port, { path: '/nowhere', method: 'GET' }).then((reply) => reply.fingerprint256);
}

interface Application extends KubernetesObject {
  spec: { image: string; replicas?: number };
}

const app = (image = 'nginx:1.27'): Application => ({
  apiVersion: 'core.crd.lixueduan.com/v1',
  kind: 'Application',
  metadata: { name: 'demo', namespace: 'default' },
  spec: { image },
});

function review(
  operation: AdmissionOperation,
  fields: Partial<AdmissionRequest> = {},
): AdmissionReview {
  return {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: randomUUID(),
      kind: { group: 'core.crd.lixueduan.com', version: 'v1', kind: 'Application' },
      resource: { group: 'core.crd.lixueduan.com', version: 'v1', resource: 'applications' },
      requestKind: { group: 'core.crd.lixueduan.com', version: 'v1', kind: 'Application' },
      requestResource: { group: 'core.crd.lixueduan.com', version: 'v1', resource: 'applications' },
      name: 'demo',
      namespace: 'default',
      operation,
      userInfo: { username: 'kubernetes-admin', groups: ['system:masters'] },
      ...(operation === 'DELETE' ? { object: null, oldObject: app() } : { object: app() }),
      dryRun: false,
      ...fields,
    },
  };
}

const post = (port: number, path: string, body: AdmissionReview) =>
  call(port, { path, body: JSON.stringify(body) });

/** A handler that holds each request until `release()`, then allows it; `entered` once called. */
function heldHandler() {
  const held = {
    entered: false,
    release: (): void => undefined,
    handler: (): Promise<AdmissionResult> =>
      new Promise((resolve) => {
        held.entered = true;
        held.release = () => resolve(admissionAllowed());
      }),
  };
  return held;
}

let first: Pair;
let second: Pair;
let certDir: string;
let server: WebhookServer;
let port: number;
const logLines: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  [first, second] = await Promise.all([makePair('webhook-first'), makePair('webhook-second')]);
  ca = [first.cert, second.cert];
  certDir = await mkdtemp(join(tmpdir(), 'webhook-server-'));
  await writePair(certDir, first);
  server = new WebhookServer({
    port: 0,
    host: '127.0.0.1',
    certDir,
    maxRequestBytes: 64 * 1024,
    certPollIntervalMs: 500,
    logger: pino({ level: 'info' }, { write: (line: string) => logLines.push(JSON.parse(line)) }),
  });
  server
    .register(
      '/mutate',
      mutatingWebhook<Application>((obj, request) => {
        if (obj.spec.image === 'nginx:1.27') return obj;
        request.warn('spec.replicas defaulted to 1');
        obj.spec.replicas ??= 1;
        obj.metadata = {
          ...obj.metadata,
          labels: { 'app.kubernetes.io/name': obj.metadata?.name ?? '' },
        };
        return obj;
      }),
    )
    .register(
      '/validate',
      validatingWebhook<Application>((obj, _old, request) => {
        if (request.operation === 'DELETE') {
          return [
            { field: 'metadata.name', message: `application ${obj.metadata?.name} is protected` },
          ];
        }
        if (obj.spec.image.endsWith(':latest')) request.warn('spec.image uses the latest tag');
        return obj.spec.image === '' || obj.spec.image === 'bad:latest'
          ? [{ field: 'spec.image', message: `invalid image name: ${obj.spec.image}` }]
          : [];
      }),
    )
    .register('/throw', () => {
      throw new Error('database unavailable');
    })
    .register(widgetConversion);
  await expect(server.readinessCheck()).rejects.toThrow('it has not been started');
  await server.start();
  port = server.port ?? 0;
});

afterAll(async () => {
  await server.stop();
  await rm(certDir, { recursive: true, force: true });
});

afterEach(() => {
  logLines.length = 0;
});

describe('WebhookServer defaults', () => {
  it('follows controller-runtime', () => {
    expect(defaultWebhookPort).toBe(9443);
    expect(defaultMaxRequestBytes).toBe(7 * 1024 * 1024);
    expect(defaultCertDir()).toBe(join(tmpdir(), 'k8s-webhook-server', 'serving-certs'));
  });
});

describe('WebhookServer lifecycle', () => {
  it('binds a free port and is ready', async () => {
    expect(port).toBeGreaterThan(0);
    expect(server.started).toBe(true);
    expect(server.isReady()).toBe(true);
    await expect(server.readinessCheck()).resolves.toBeUndefined();
    expect(server.paths).toEqual(['/mutate', '/validate', '/throw', '/convert']);
  });

  it('refuses a second start and bad registrations', async () => {
    await expect(server.start()).rejects.toSatisfy(
      (error) => WebhookServerError.isInstance(error) && error.reason === 'AlreadyStarted',
    );
    expect(() => server.register('/validate', () => admissionAllowed())).toThrow(
      'a webhook is already registered at /validate',
    );
    expect(() => server.register('validate', () => admissionAllowed())).toThrow(WebhookServerError);
    expect(() => server.register('/v?x=1', () => admissionAllowed())).toThrow(
      'leave out any query',
    );
  });

  it('fails to start with a clear error when the certificate directory is missing', async () => {
    const missing = join(certDir, 'missing');
    const other = new WebhookServer({ port: 0, certDir: missing });
    const error = await other.start().catch((caught: unknown) => caught);
    expect(WebhookCertificateError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(
      `webhook serving certificate directory ${missing} does not exist`,
    );
    expect(other.started).toBe(false);
    await other.stop();
  });

  it('reports a port in use and can be started again after', async () => {
    const other = new WebhookServer({ port, host: '127.0.0.1', certDir });
    await expect(other.start()).rejects.toThrow(/EADDRINUSE/);
    const retry = new WebhookServer({ port: 0, host: '127.0.0.1', certDir });
    await retry.start();
    expect(retry.port).toBeGreaterThan(0);
    await retry.stop();
  });
});

describe('WebhookServer mutating webhooks', () => {
  it('answers a JSONPatch that kube-apiserver can apply', async () => {
    const sent = review('CREATE', { object: app('nginx:1.28') });
    const reply = await post(port, '/mutate', sent);
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.body.apiVersion).toBe('admission.k8s.io/v1');
    expect(reply.body.kind).toBe('AdmissionReview');
    const response = reply.body.response;
    expect(response?.uid).toBe(sent.request?.uid);
    expect(response?.allowed).toBe(true);
    expect(response?.patchType).toBe('JSONPatch');
    expect(response?.warnings).toEqual(['spec.replicas defaulted to 1']);
    const operations = JSON.parse(Buffer.from(response?.patch ?? '', 'base64').toString('utf8'));
    const patched = jsonPatch.applyPatch(
      structuredClone(sent.request?.object),
      operations,
    ).newDocument;
    expect(patched).toEqual({
      ...app('nginx:1.28'),
      metadata: {
        name: 'demo',
        namespace: 'default',
        labels: { 'app.kubernetes.io/name': 'demo' },
      },
      spec: { image: 'nginx:1.28', replicas: 1 },
    });
    expect(logLines.find((line) => line.msg === 'admission patched')).toMatchObject({
      webhook: '/mutate',
      uid: sent.request?.uid,
      operation: 'CREATE',
      apiVersion: 'core.crd.lixueduan.com/v1',
      kind: 'Application',
      namespace: 'default',
      name: 'demo',
      allowed: true,
      patched: true,
    });
  });

  it('answers no patch for a no-op mutation', async () => {
    const sent = review('UPDATE', { oldObject: app() });
    const reply = await post(port, '/mutate', sent);
    expect(reply.body.response).toEqual({ uid: sent.request?.uid, allowed: true });
    expect(logLines.filter((line) => String(line.msg).startsWith('admission '))).toHaveLength(1);
    expect(logLines.find((line) => line.msg === 'admission allowed')).toMatchObject({
      operation: 'UPDATE',
    });
  });
});

describe('WebhookServer validating webhooks', () => {
  it('allows a valid object', async () => {
    const sent = review('CREATE');
    const reply = await post(port, '/validate', sent);
    expect(reply.status).toBe(200);
    expect(reply.body.response).toEqual({ uid: sent.request?.uid, allowed: true });
  });

  it('denies an invalid object with the exact message and the causes', async () => {
    const sent = review('CREATE', { object: app('') });
    const reply = await post(port, '/validate', sent);
    expect(reply.status).toBe(200);
    expect(reply.body.response).toEqual({
      uid: sent.request?.uid,
      allowed: false,
      status: {
        status: 'Failure',
        code: 403,
        reason: 'Forbidden',
        message: 'invalid image name: ',
        details: {
          name: 'demo',
          group: 'core.crd.lixueduan.com',
          kind: 'Application',
          causes: [
            { reason: 'FieldValueInvalid', message: 'invalid image name: ', field: 'spec.image' },
          ],
        },
      },
    });
    expect(logLines.find((line) => line.msg === 'admission denied')).toMatchObject({
      uid: sent.request?.uid,
      allowed: false,
      code: 403,
      message: 'invalid image name: ',
    });
  });

  it('returns warnings with allowed and denied answers', async () => {
    const allowed = await post(
      port,
      '/validate',
      review('CREATE', { object: app('nginx:latest') }),
    );
    expect(allowed.body.response).toMatchObject({
      allowed: true,
      warnings: ['spec.image uses the latest tag'],
    });
    const denied = await post(port, '/validate', review('CREATE', { object: app('bad:latest') }));
    expect(denied.body.response).toMatchObject({
      allowed: false,
      warnings: ['spec.image uses the latest tag'],
    });
  });

  it('validates the oldObject of a DELETE', async () => {
    const sent = review('DELETE');
    const reply = await post(port, '/validate', sent);
    expect(reply.body.response).toMatchObject({
      uid: sent.request?.uid,
      allowed: false,
      status: { message: 'application demo is protected' },
    });
  });

  it('answers 400 inside the review when a DELETE has no oldObject', async () => {
    const sent = review('DELETE', { oldObject: null });
    const reply = await post(port, '/validate', sent);
    expect(reply.status).toBe(200);
    expect(reply.body.response).toMatchObject({
      uid: sent.request?.uid,
      allowed: false,
      status: { code: 400 },
    });
  });
});

describe('WebhookServer handler failures', () => {
  it('denies with 500 and the error message when a handler throws', async () => {
    const sent = review('CREATE');
    const reply = await post(port, '/throw', sent);
    expect(reply.status).toBe(200);
    expect(reply.body.response).toEqual({
      uid: sent.request?.uid,
      allowed: false,
      status: {
        status: 'Failure',
        code: 500,
        reason: 'InternalError',
        message: 'database unavailable',
      },
    });
    expect(logLines.find((line) => line.level === 50)).toMatchObject({
      msg: 'admission handler failed: database unavailable',
      uid: sent.request?.uid,
    });
    // The server is still serving.
    expect((await post(port, '/validate', review('CREATE'))).body.response?.allowed).toBe(true);
  });

  it('denies with 500 when a handler registered after start returns no decision', async () => {
    server.register('/undecided', (() => undefined) as unknown as AdmissionHandler);
    const sent = review('CREATE');
    const reply = await post(port, '/undecided', sent);
    expect(reply.body.response).toMatchObject({
      uid: sent.request?.uid,
      allowed: false,
      status: { code: 500 },
    });
    expect(reply.body.response?.status?.message).toContain('returned no decision');
  });
});

describe('WebhookServer bad requests', () => {
  const errorOf = (reply: Reply) => ({
    status: reply.status,
    allowed: reply.body.response?.allowed,
    code: reply.body.response?.status?.code,
    message: reply.body.response?.status?.message,
  });

  it('answers 404 for an unknown path', async () => {
    const reply = await post(port, '/nowhere', review('CREATE'));
    expect(errorOf(reply)).toMatchObject({ status: 404, allowed: false, code: 404 });
    expect(reply.body.response?.status?.message).toMatch(
      /^no webhook is registered at \/nowhere; registered paths: \/mutate, \/validate, \/throw/,
    );
  });

  it('routes on the path alone, ignoring the query', async () => {
    const reply = await call(port, {
      path: '/validate?timeout=10s',
      body: JSON.stringify(review('CREATE')),
    });
    expect(reply.body.response?.allowed).toBe(true);
  });

  it('answers 405 for a method other than POST', async () => {
    const reply = await call(port, { method: 'GET', contentType: null });
    expect(errorOf(reply)).toMatchObject({ status: 405, code: 405 });
    expect(reply.headers.allow).toBe('POST');
  });

  it('answers 415 for a content type other than application/json', async () => {
    const body = JSON.stringify(review('CREATE'));
    const yaml = await call(port, { body, contentType: 'application/yaml' });
    expect(errorOf(yaml)).toEqual({
      status: 415,
      allowed: false,
      code: 415,
      message:
        'content type "application/yaml" is not supported: send the AdmissionReview as application/json',
    });
    expect((await call(port, { body, contentType: null })).status).toBe(415);
    const withCharset = await call(port, { body, contentType: 'application/json; charset=utf-8' });
    expect(withCharset.body.response?.allowed).toBe(true);
  });

  it('answers 400 for an empty body', async () => {
    expect(errorOf(await call(port, { body: '' }))).toMatchObject({
      status: 400,
      message: 'request body is empty: POST an AdmissionReview',
    });
  });

  it('answers 400 for malformed JSON', async () => {
    const reply = await call(port, { body: '{"apiVersion": ' });
    expect(reply.status).toBe(400);
    expect(reply.body.response?.status?.message).toMatch(/^request body is not valid JSON: /);
  });

  it('answers 400 for JSON that is not an AdmissionReview', async () => {
    const reply = await call(port, { body: JSON.stringify({ apiVersion: 'v1', kind: 'Pod' }) });
    expect(errorOf(reply)).toMatchObject({ status: 400, code: 400 });
    expect(reply.body.response?.status?.message).toContain(
      'request body is not an AdmissionReview',
    );
  });

  it('echoes the uid of a review with an unknown operation', async () => {
    const sent = review('CREATE');
    const body = JSON.stringify({ ...sent, request: { ...sent.request, operation: 'PATCH' } });
    const reply = await call(port, { body });
    expect(reply.status).toBe(400);
    expect(reply.body.response?.uid).toBe(sent.request?.uid);
  });

  it('answers 413 when Content-Length is over the limit, without reading the body', async () => {
    const reply = await call(port, { headers: { 'content-length': 65 * 1024 }, headersOnly: true });
    expect(errorOf(reply)).toMatchObject({ status: 413, code: 413 });
    expect(reply.body.response?.status?.message).toContain(
      'request body is larger than 65536 bytes',
    );
    expect(reply.headers.connection).toBe('close');
  });

  it('answers 413 when a chunked body grows over the limit', async () => {
    const chunk = Buffer.alloc(40 * 1024, 0x20);
    const reply = await call(port, { chunks: [chunk, chunk] });
    expect(errorOf(reply)).toMatchObject({ status: 413, code: 413 });
    // Still serving.
    expect((await post(port, '/validate', review('CREATE'))).body.response?.allowed).toBe(true);
  });
});

describe('WebhookServer conversion webhooks', () => {
  const conversionReview = (objects: unknown[], desiredAPIVersion = 'example.com/v1alpha1') => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'ConversionReview',
    request: { uid: 'conv-1', desiredAPIVersion, objects },
  });
  const widgetV1 = (name: string, replicas: number) => ({
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name, namespace: 'default', uid: `uid-${name}` },
    spec: { scale: { replicas, max: 10 } },
  });
  const convert = (body: unknown) =>
    call(port, { path: '/convert', body: JSON.stringify(body) }) as unknown as Promise<{
      status: number;
      body: {
        apiVersion: string;
        kind: string;
        response: {
          uid: string;
          convertedObjects: Array<Record<string, unknown>>;
          result: { status: string; code?: number; message?: string };
        };
      };
    }>;

  it('converts every object of a ConversionReview at /convert', async () => {
    const reply = await convert(conversionReview([widgetV1('a', 1), widgetV1('b', 2)]));
    expect(reply.status).toBe(200);
    expect(reply.body.apiVersion).toBe('apiextensions.k8s.io/v1');
    expect(reply.body.kind).toBe('ConversionReview');
    expect(reply.body.response.uid).toBe('conv-1');
    expect(reply.body.response.result).toEqual({ status: 'Success' });
    const inV1alpha1 = (name: string, replicas: number) => ({
      apiVersion: 'example.com/v1alpha1',
      kind: 'Widget',
      metadata: {
        name,
        namespace: 'default',
        uid: `uid-${name}`,
        annotations: { 'example.com/conversion-data': '{"spec":{"scale":{"max":10}}}' },
      },
      spec: { replicas },
    });
    expect(reply.body.response.convertedObjects).toEqual([inV1alpha1('a', 1), inV1alpha1('b', 2)]);
    expect(logLines.some((line) => line.msg === 'converted' && line.objects === 2)).toBe(true);
  });

  it('answers 200 with result Failure naming the object and the reason', async () => {
    const reply = await convert(conversionReview([widgetV1('a', 1), widgetV1('huge', 101)]));
    expect(reply.status).toBe(200);
    expect(reply.body.response).toEqual({
      uid: 'conv-1',
      convertedObjects: [],
      result: {
        status: 'Failure',
        code: 422,
        message:
          'Widget default/huge: converting example.com/v1 to example.com/v1alpha1 failed: spec.scale.replicas 101 does not fit v1alpha1 (at most 100): read it as example.com/v1',
      },
    });
  });

  it('answers a malformed review with 400 and a ConversionReview saying what is wrong', async () => {
    const notAReview = await convert(review('CREATE'));
    expect(notAReview.status).toBe(400);
    expect(notAReview.body.kind).toBe('ConversionReview');
    expect(notAReview.body.response.result).toEqual({
      status: 'Failure',
      code: 400,
      message:
        'not a ConversionReview: expected apiVersion apiextensions.k8s.io/v1 and kind ConversionReview, got "admission.k8s.io/v1" and "AdmissionReview" (list v1 in the CRD\'s conversionReviewVersions)',
    });
    const noObjects = await convert({
      ...conversionReview([]),
      request: { uid: 'u-9', desiredAPIVersion: 'example.com/v1' },
    });
    expect(noObjects.status).toBe(400);
    expect(noObjects.body.response.uid).toBe('u-9');
    expect(noObjects.body.response.result.message).toBe(
      'not a ConversionReview: request.objects is not a list',
    );
    const broken = (await call(port, { path: '/convert', body: '{' })) as unknown as Awaited<
      ReturnType<typeof convert>
    >;
    expect(broken.status).toBe(400);
    expect(broken.body.response.result.message).toMatch(/^request body is not valid JSON: /);
    const get = (await call(port, {
      path: '/convert',
      method: 'GET',
      contentType: null,
    })) as unknown as Awaited<ReturnType<typeof convert>>;
    expect(get.status).toBe(405);
    expect(get.body.response.result.message).toBe(
      'method GET is not allowed: POST a ConversionReview to /convert',
    );
  });

  it('serves the conversions of several kinds at one path, refusing a path taken by an admission handler', () => {
    const other = new WebhookServer({ port: 0 });
    other.register(widgetConversion);
    expect(other.paths).toEqual(['/convert']);
    expect(() => other.register(widgetConversion)).toThrow(
      'the conversion of widgets.example.com is registered twice',
    );
    expect(() =>
      other.register('/convert', admissionAllowed as unknown as AdmissionHandler),
    ).toThrow('a webhook is already registered at /convert');
    const admission = new WebhookServer({ port: 0 });
    admission.register('/convert', () => admissionAllowed());
    expect(() => admission.register(widgetConversion)).toThrow(
      'a webhook is already registered at /convert',
    );
  });
});

describe('WebhookServer certificate rotation', () => {
  it('serves a new certificate written into the directory to new connections', async () => {
    expect(await peerFingerprint(port)).toBe(first.fingerprint256);
    await writePair(certDir, second);
    await vi.waitFor(async () => expect(await peerFingerprint(port)).toBe(second.fingerprint256), {
      timeout: 10_000,
      interval: 50,
    });
    expect(server.certificate?.fingerprint256).toBe(second.fingerprint256);
  });

  it('keeps the current certificate when the new one is bad', async () => {
    const before = server.certificate?.fingerprint256;
    await writeAtomically(join(certDir, 'tls.crt'), 'garbage');
    expect(await server.certWatcher.reload()).toBe(false);
    await vi.waitFor(() => expect(logLines.some((line) => line.level === 50)).toBe(true), {
      timeout: 5_000,
    });
    expect(logLines.find((line) => line.level === 50)?.msg).toContain(
      'new webhook serving certificate rejected, keeping the previous one',
    );
    expect(await peerFingerprint(port)).toBe(before);
    expect(server.isReady()).toBe(true);
    // Put a valid pair back so the rest of the suite has one.
    await writePair(certDir, first);
    await vi.waitFor(async () => expect(await peerFingerprint(port)).toBe(first.fingerprint256), {
      timeout: 10_000,
      interval: 50,
    });
  });
});

describe('WebhookServer metrics', () => {
  /** The sample lines of `text` for the family `metric` (no HELP/TYPE). */
  const samples = (text: string, metric: string) =>
    text.split('\n').filter((line) => line.startsWith(`${metric}{`));

  it('records in-flight requests, requests by code and latency per registered path, as controller-runtime', async () => {
    const metrics = new MetricsRegistry();
    const other = new WebhookServer({ port: 0, host: '127.0.0.1', certDir });
    const slow = heldHandler();
    other.register('/slow', slow.handler);
    expect(other.instrument(metrics)).toBe(other);
    // Harmless again with the same registry; paths registered later are recorded too.
    other.instrument(metrics);
    other.register('/allow', () => admissionAllowed());
    await other.start();
    try {
      const otherPort = other.port ?? 0;
      // Before any request: in-flight and the 200 and 500 counters at zero, no latency series.
      const before = await metrics.metrics();
      expect(samples(before, 'controller_runtime_webhook_requests_in_flight').sort()).toEqual([
        'controller_runtime_webhook_requests_in_flight{webhook="/allow"} 0',
        'controller_runtime_webhook_requests_in_flight{webhook="/slow"} 0',
      ]);
      expect(samples(before, 'controller_runtime_webhook_requests_total').sort()).toEqual([
        'controller_runtime_webhook_requests_total{webhook="/allow",code="200"} 0',
        'controller_runtime_webhook_requests_total{webhook="/allow",code="500"} 0',
        'controller_runtime_webhook_requests_total{webhook="/slow",code="200"} 0',
        'controller_runtime_webhook_requests_total{webhook="/slow",code="500"} 0',
      ]);
      expect(samples(before, 'controller_runtime_webhook_latency_seconds_count')).toEqual([]);

      const answer = post(otherPort, '/slow', review('CREATE'));
      await vi.waitFor(() => expect(slow.entered).toBe(true), { timeout: 5_000 });
      expect(await metrics.metrics()).toContain(
        'controller_runtime_webhook_requests_in_flight{webhook="/slow"} 1',
      );
      slow.release();
      expect((await answer).body.response?.allowed).toBe(true);

      expect((await post(otherPort, '/allow', review('CREATE'))).status).toBe(200);
      expect((await call(otherPort, { path: '/allow', body: '{' })).status).toBe(400);
      expect((await call(otherPort, { path: '/allow', method: 'GET' })).status).toBe(405);
      // An unknown path is answered before any webhook: not recorded.
      expect((await call(otherPort, { path: '/nowhere', body: '{}' })).status).toBe(404);

      const after = await metrics.metrics();
      expect(samples(after, 'controller_runtime_webhook_requests_total').sort()).toEqual([
        'controller_runtime_webhook_requests_total{webhook="/allow",code="200"} 1',
        'controller_runtime_webhook_requests_total{webhook="/allow",code="400"} 1',
        'controller_runtime_webhook_requests_total{webhook="/allow",code="405"} 1',
        'controller_runtime_webhook_requests_total{webhook="/allow",code="500"} 0',
        'controller_runtime_webhook_requests_total{webhook="/slow",code="200"} 1',
        'controller_runtime_webhook_requests_total{webhook="/slow",code="500"} 0',
      ]);
      expect(after).toContain('controller_runtime_webhook_requests_in_flight{webhook="/slow"} 0');
      expect(after).toContain('controller_runtime_webhook_requests_in_flight{webhook="/allow"} 0');
      expect(after).toContain(
        'controller_runtime_webhook_latency_seconds_count{webhook="/slow"} 1',
      );
      expect(after).toContain(
        'controller_runtime_webhook_latency_seconds_count{webhook="/allow"} 3',
      );
      // The slow request took at least until it was released: over 10 ns, so not in the first bucket.
      expect(after).toContain(
        'controller_runtime_webhook_latency_seconds_bucket{le="1e-8",webhook="/slow"} 0',
      );
      expect(after).toContain(
        'controller_runtime_webhook_latency_seconds_bucket{le="+Inf",webhook="/slow"} 1',
      );
      expect(after).not.toContain('webhook="/nowhere"');
    } finally {
      await other.stop();
    }
  });

  it('records into one registry only', () => {
    const other = new WebhookServer({ certDir }).instrument(new MetricsRegistry());
    expect(() => other.instrument(new MetricsRegistry())).toThrow(
      expect.objectContaining({
        name: 'WebhookServerError',
        reason: 'AlreadyInstrumented',
        message: expect.stringMatching(/give one WebhookServer to one Manager/),
      }),
    );
  });
});

describe('WebhookServer.stop', () => {
  let stopDir: string;

  beforeAll(async () => {
    stopDir = await mkdtemp(join(tmpdir(), 'webhook-server-stop-'));
    await writePair(stopDir, first);
  });

  afterAll(async () => {
    await rm(stopDir, { recursive: true, force: true });
  });

  it('lets in-flight requests finish, closes connections, and cannot restart', async () => {
    const other = new WebhookServer({ port: 0, host: '127.0.0.1', certDir: stopDir });
    const slow = heldHandler();
    other.register('/slow', slow.handler);
    await other.start();
    const otherPort = other.port ?? 0;
    const inFlight = post(otherPort, '/slow', review('CREATE'));
    await vi.waitFor(() => expect(slow.entered).toBe(true), { timeout: 5_000 });
    let stopped = false;
    const stopping = other.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stopped).toBe(false);
    slow.release();
    const reply = await inFlight;
    expect(reply.body.response?.allowed).toBe(true);
    expect(reply.headers.connection).toBe('close');
    await stopping;
    expect(stopped).toBe(true);
    expect(other.started).toBe(false);
    await expect(other.readinessCheck()).rejects.toThrow('it has been stopped');
    await expect(call(otherPort, { body: '{}' })).rejects.toThrow(/ECONNREFUSED/);
    await expect(other.start()).rejects.toSatisfy(
      (error) => WebhookServerError.isInstance(error) && error.reason === 'Stopped',
    );
    await other.stop();
  });

  it('cuts connections that outlive the grace period', async () => {
    const other = new WebhookServer({
      port: 0,
      host: '127.0.0.1',
      certDir: stopDir,
      shutdownGracePeriodMs: 50,
    });
    other.register('/hang', () => new Promise(() => undefined));
    await other.start();
    const hanging = post(other.port ?? 0, '/hang', review('CREATE'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await other.stop();
    await expect(hanging).rejects.toThrow(/socket hang up|ECONNRESET/);
  });
});
