import type { IncomingMessage, ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { KubernetesObject } from '@ops/api';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { StatusError } from '../api/status-error.js';
import type { ResourceType } from '../registry/resource-type.js';
import { ApiServer } from '../server/api-server.js';
import type { RequestContext } from '../server/handlers/resource-service.js';
import { createServingCertificates, type ServingCertificates } from '../tls/certificates.js';
import type { AdmissionAttributes } from './admission.js';
import { WebhookAdmission } from './webhook-admission.js';

type Json = Record<string, any>;

/** What a test webhook answers: an admission response, or a raw HTTP answer. */
type Answer =
  | { allowed: boolean; patch?: Json[]; status?: Json; warnings?: string[]; response?: Json }
  | { raw: { code: number; body: string; contentType?: string } }
  | { review: Json };

interface TestWebhook {
  port: number;
  caBundle: string;
  /** Every AdmissionReview received, in order, with the request path. */
  received: Array<{ path: string; review: Json }>;
  /** TLS handshakes completed so far: one per new connection. */
  handshakes(): number;
  /** Connections open now. */
  connections(): number;
  /** Serves `certificates` from now on (new connections only), as a rotated certificate. */
  rotate(certificates: ServingCertificates): void;
  close(): Promise<void>;
}

const admin: RequestContext = { user: { name: 'admin', groups: ['system:masters'] } };

/** A tiny HTTPS admission webhook: `answer` decides per review; `delayMs` slows answers. */
async function startWebhook(
  hosts: string[],
  answer: (review: Json, path: string) => Answer,
  options: { delayMs?: number; certificates?: ServingCertificates } = {},
): Promise<TestWebhook> {
  const certificates = options.certificates ?? (await createServingCertificates(hosts));
  const received: TestWebhook['received'] = [];
  const server = https.createServer(
    { cert: certificates.cert, key: certificates.key },
    (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json;
        const path = req.url ?? '';
        received.push({ path, review });
        const reply = () => {
          if (res.destroyed) return;
          const decided = answer(review, path);
          if ('raw' in decided) {
            res.writeHead(decided.raw.code, {
              'Content-Type': decided.raw.contentType ?? 'application/json',
            });
            res.end(decided.raw.body);
            return;
          }
          let body: Json;
          if ('review' in decided) {
            body = decided.review;
          } else {
            const response: Json = { uid: review.request.uid, allowed: decided.allowed };
            if (decided.patch) {
              response.patchType = 'JSONPatch';
              response.patch = Buffer.from(JSON.stringify(decided.patch)).toString('base64');
            }
            if (decided.status) response.status = decided.status;
            if (decided.warnings) response.warnings = decided.warnings;
            body = {
              apiVersion: review.apiVersion,
              kind: 'AdmissionReview',
              response: { ...response, ...decided.response },
            };
          }
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify(body));
        };
        if (options.delayMs) setTimeout(reply, options.delayMs);
        else reply();
      });
    },
  );
  const sockets = new Set<{ destroy(): void }>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  let handshakes = 0;
  server.on('secureConnection', () => {
    handshakes++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    caBundle: Buffer.from(certificates.caCert).toString('base64'),
    received,
    handshakes: () => handshakes,
    connections: () => sockets.size,
    rotate: (rotated) => server.setSecureContext({ cert: rotated.cert, key: rotated.key }),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let server: ApiServer;
let admission: WebhookAdmission;
const webhooks: TestWebhook[] = [];

const type = (group: string, version: string, plural: string): ResourceType => {
  const found = server.registry.find(group, version, plural);
  if (found === undefined) throw new Error(`no resource ${group}/${version}/${plural}`);
  return found;
};
const mutatingType = () =>
  type('admissionregistration.k8s.io', 'v1', 'mutatingwebhookconfigurations');
const validatingType = () =>
  type('admissionregistration.k8s.io', 'v1', 'validatingwebhookconfigurations');
const configMaps = () => type('', 'v1', 'configmaps');
const pods = () => type('', 'v1', 'pods');

async function webhook(
  answer: (review: Json, path: string) => Answer,
  options: { delayMs?: number; hosts?: string[]; certificates?: ServingCertificates } = {},
): Promise<TestWebhook> {
  const started = await startWebhook(options.hosts ?? ['127.0.0.1'], answer, options);
  webhooks.push(started);
  return started;
}

const rule = (resources: string[], operations = ['*'], extra: Json = {}) => ({
  apiGroups: [''],
  apiVersions: ['v1'],
  resources,
  operations,
  ...extra,
});

function hook(name: string, target: TestWebhook, extra: Json = {}): Json {
  return {
    name,
    clientConfig: { url: `https://127.0.0.1:${target.port}/admit`, caBundle: target.caBundle },
    rules: [rule(['configmaps'])],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    ...extra,
  };
}

async function configure(
  kind: 'mutating' | 'validating',
  name: string,
  hooks: Json[],
): Promise<void> {
  const resource = kind === 'mutating' ? mutatingType() : validatingType();
  await server.resources.create(resource, '', { metadata: { name }, webhooks: hooks }, admin);
}

const configMap = (name: string, labels: Record<string, string> = {}, data: Json = { a: '1' }) => ({
  metadata: { name, labels },
  data,
});

async function failure(promise: Promise<unknown>): Promise<StatusError> {
  try {
    await promise;
  } catch (error) {
    if (StatusError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected the write to fail');
}

/** The server's HTTP API as admin. */
function api(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Json; warnings: string[] }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = https.request(
      `${server.url}${path}`,
      {
        method,
        ca: server.caCertificate,
        headers: {
          Authorization: `Bearer ${server.adminToken}`,
          'Content-Type': 'application/json',
          ...(payload ? { 'Content-Length': String(Buffer.byteLength(payload)) } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const warning = response.headers.warning;
          resolve({
            status: response.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json,
            warnings: warning === undefined ? [] : String(warning).split(/,\s*(?=299)/),
          });
        });
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

beforeAll(async () => {
  server = await ApiServer.start({ cluster: false });
  admission = new WebhookAdmission({ store: server.store });
  server.setAdmission(admission);
});

afterEach(async () => {
  admission.restoreTls();
  for (const key of [
    'admissionregistration.k8s.io/mutatingwebhookconfigurations',
    'admissionregistration.k8s.io/validatingwebhookconfigurations',
  ]) {
    for (const stored of server.store.list(key)) {
      const resource = key.endsWith('/mutatingwebhookconfigurations')
        ? mutatingType()
        : validatingType();
      await server.resources.delete(resource, '', stored.object.metadata?.name ?? '', {}, admin);
    }
  }
  for (const started of webhooks.splice(0)) await started.close();
});

afterAll(async () => {
  admission.close();
  await server.stop();
});

describe('mutating webhooks', () => {
  it('apply a JSON patch and send the AdmissionReview kube-apiserver sends', async () => {
    const target = await webhook(() => ({
      allowed: true,
      patch: [{ op: 'add', path: '/metadata/labels/injected', value: 'yes' }],
      warnings: ['labelled by the webhook'],
    }));
    await configure('mutating', 'labeller', [hook('labeller.example.com', target)]);
    const response = await api(
      'POST',
      '/api/v1/namespaces/default/configmaps',
      configMap('patched', { app: 'x' }),
    );
    expect(response.status).toBe(201);
    expect(response.body.metadata.labels).toEqual({ app: 'x', injected: 'yes' });
    expect(response.warnings).toEqual(['299 - "labelled by the webhook"']);
    expect(
      server.resources.get(configMaps(), 'default', 'patched').object.metadata?.labels,
    ).toEqual({
      app: 'x',
      injected: 'yes',
    });
    expect(target.received).toHaveLength(1);
    const [call] = target.received;
    expect(call?.path).toBe('/admit?timeout=10s');
    const review = call?.review ?? {};
    expect(review.apiVersion).toBe('admission.k8s.io/v1');
    expect(review.kind).toBe('AdmissionReview');
    expect(review.request.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(review.request).toMatchObject({
      kind: { group: '', version: 'v1', kind: 'ConfigMap' },
      resource: { group: '', version: 'v1', resource: 'configmaps' },
      requestKind: { group: '', version: 'v1', kind: 'ConfigMap' },
      requestResource: { group: '', version: 'v1', resource: 'configmaps' },
      name: 'patched',
      namespace: 'default',
      operation: 'CREATE',
      userInfo: { username: 'admin', groups: ['system:masters', 'system:authenticated'] },
      oldObject: null,
      dryRun: false,
      options: { apiVersion: 'meta.k8s.io/v1', kind: 'CreateOptions' },
    });
    expect(review.request.subResource).toBeUndefined();
    expect(review.request.object.metadata.labels).toEqual({ app: 'x' });
    expect(review.request.object.data).toEqual({ a: '1' });
  });

  it('inject a container into a Pod', async () => {
    const target = await webhook(() => ({
      allowed: true,
      patch: [
        { op: 'add', path: '/spec/containers/-', value: { name: 'sidecar', image: 'proxy:1' } },
      ],
    }));
    await configure('mutating', 'sidecar', [
      hook('sidecar.example.com', target, { rules: [rule(['pods'], ['CREATE'])] }),
    ]);
    const created = await server.resources.create(
      pods(),
      'default',
      { metadata: { name: 'app' }, spec: { containers: [{ name: 'app', image: 'app:1' }] } },
      admin,
    );
    const containers = (created.spec as Json).containers as Json[];
    expect(containers.map((container) => container.name)).toEqual(['app', 'sidecar']);
    expect(containers[1]?.image).toBe('proxy:1');
  });

  it('run in configuration-name order, each seeing the previous result, and reinvoke IfNeeded webhooks', async () => {
    const order: string[] = [];
    const appender =
      (name: string) =>
      (review: Json): Answer => {
        order.push(name);
        const labels = review.request.object.metadata.labels ?? {};
        const trail = labels.trail ? `${labels.trail}.${name}` : name;
        if (name === 'first' && order.filter((entry) => entry === 'first').length > 1) {
          return { allowed: true };
        }
        return {
          allowed: true,
          patch: [{ op: 'add', path: '/metadata/labels/trail', value: trail }],
        };
      };
    const first = await webhook(appender('first'));
    const second = await webhook(appender('second'));
    const third = await webhook(appender('third'));
    // Configurations are ordered by name, not by creation.
    await configure('mutating', 'b-second', [
      hook('second.example.com', second),
      hook('third.example.com', third),
    ]);
    await configure('mutating', 'a-first', [
      hook('first.example.com', first, { reinvocationPolicy: 'IfNeeded' }),
    ]);
    const created = await server.resources.create(
      configMaps(),
      'default',
      configMap('ordered'),
      admin,
    );
    expect(created.metadata?.labels?.trail).toBe('first.second.third');
    expect(order).toEqual(['first', 'second', 'third', 'first']);
    expect(first.received[1]?.review.request.object.metadata.labels.trail).toBe(
      'first.second.third',
    );
  });

  it('report a patch that does not apply as kube-apiserver does', async () => {
    const target = await webhook(() => ({
      allowed: true,
      patch: [{ op: 'replace', path: '/metadata/annotations/missing', value: 'x' }],
    }));
    await configure('mutating', 'broken-patch', [hook('broken.example.com', target)]);
    const error = await failure(
      server.resources.create(configMaps(), 'default', configMap('unpatched'), admin),
    );
    expect(error.code).toBe(500);
    expect(error.message).toBe(
      'Internal error occurred: replace operation does not apply: doc is missing path: /metadata/annotations/missing: missing value',
    );
  });

  it('deny with the webhook status', async () => {
    const target = await webhook(() => ({
      allowed: false,
      status: { code: 403, reason: 'Forbidden', message: 'no mutation today' },
    }));
    await configure('mutating', 'denier', [hook('denier.example.com', target)]);
    const response = await api(
      'POST',
      '/api/v1/namespaces/default/configmaps',
      configMap('refused'),
    );
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Forbidden',
      code: 403,
      message: 'admission webhook "denier.example.com" denied the request: no mutation today',
    });
  });
});

describe('validating webhooks', () => {
  it('deny with the exact kube-apiserver message, code, reason and details', async () => {
    const target = await webhook(() => ({
      allowed: false,
      status: {
        code: 422,
        reason: 'Invalid',
        message: 'data.a must be a number',
        details: { causes: [{ field: 'data.a', message: 'must be a number' }] },
      },
    }));
    await configure('validating', 'strict', [hook('strict.example.com', target)]);
    const error = await failure(
      server.resources.create(configMaps(), 'default', configMap('bad'), admin),
    );
    expect(error.code).toBe(422);
    expect(error.reason).toBe('Invalid');
    expect(error.message).toBe(
      'admission webhook "strict.example.com" denied the request: data.a must be a number',
    );
    expect(error.details).toEqual({ causes: [{ field: 'data.a', message: 'must be a number' }] });
    expect(server.store.get('/configmaps', 'default/bad')).toBeUndefined();
  });

  it('deny without explanation with code 400 when the webhook sends no status', async () => {
    const target = await webhook(() => ({ allowed: false }));
    await configure('validating', 'terse', [hook('terse.example.com', target)]);
    const error = await failure(
      server.resources.create(configMaps(), 'default', configMap('terse'), admin),
    );
    expect(error.code).toBe(400);
    expect(error.message).toBe(
      'admission webhook "terse.example.com" denied the request without explanation',
    );
  });

  it('run in parallel, and any denial denies', async () => {
    // Each answers late and notes how many calls had arrived by then: called one after the
    // other, the first would answer having seen only its own.
    const seen: number[] = [];
    const arrived = () => allow.received.length + deny.received.length;
    const allow = await webhook(
      () => {
        seen.push(arrived());
        return { allowed: true };
      },
      { delayMs: 300 },
    );
    const deny = await webhook(
      () => {
        seen.push(arrived());
        return { allowed: false, status: { message: 'second says no' } };
      },
      { delayMs: 300 },
    );
    await configure('validating', 'pair', [
      hook('allow.example.com', allow),
      hook('deny.example.com', deny),
    ]);
    const error = await failure(
      server.resources.create(configMaps(), 'default', configMap('pair'), admin),
    );
    expect(seen).toEqual([2, 2]);
    expect(error.message).toBe(
      'admission webhook "deny.example.com" denied the request: second says no',
    );
    expect(allow.received).toHaveLength(1);
    expect(deny.received).toHaveLength(1);
  });

  it('see DELETE with the old object and a null object', async () => {
    await server.resources.create(
      configMaps(),
      'default',
      configMap('doomed', { keep: 'no' }),
      admin,
    );
    const target = await webhook(() => ({ allowed: true }));
    await configure('validating', 'deletes', [
      hook('deletes.example.com', target, { rules: [rule(['configmaps'], ['DELETE'])] }),
    ]);
    await server.resources.delete(configMaps(), 'default', 'doomed', {}, admin);
    expect(target.received).toHaveLength(1);
    const request = target.received[0]?.review.request;
    expect(request.operation).toBe('DELETE');
    expect(request.object).toBeNull();
    expect(request.oldObject.metadata.name).toBe('doomed');
    expect(request.options).toMatchObject({ apiVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions' });
  });

  it('pass warnings on to the request', async () => {
    const target = await webhook(() => ({
      allowed: true,
      warnings: ['deprecated field', 'deprecated field'],
    }));
    await configure('validating', 'warner', [hook('warner.example.com', target)]);
    const warnings: string[] = [];
    const attributes: AdmissionAttributes = {
      type: configMaps(),
      subresource: '',
      operation: 'CREATE',
      namespace: 'default',
      name: 'warned',
      user: admin.user,
      dryRun: false,
      options: {},
      warnings,
    };
    const object: KubernetesObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'warned', namespace: 'default' },
    };
    await admission.validate(attributes, object, undefined);
    expect(warnings).toEqual(['deprecated field']);
  });
});

describe('matching', () => {
  it('by namespaceSelector, on the labels of the object Namespace', async () => {
    await server.resources.create(
      type('', 'v1', 'namespaces'),
      '',
      { metadata: { name: 'prod', labels: { env: 'prod' } } },
      admin,
    );
    const target = await webhook(() => ({ allowed: false, status: { message: 'prod is frozen' } }));
    await configure('validating', 'frozen', [
      hook('frozen.example.com', target, { namespaceSelector: { matchLabels: { env: 'prod' } } }),
    ]);
    await server.resources.create(configMaps(), 'default', configMap('free'), admin);
    const error = await failure(
      server.resources.create(configMaps(), 'prod', configMap('frozen'), admin),
    );
    expect(error.message).toBe(
      'admission webhook "frozen.example.com" denied the request: prod is frozen',
    );
    expect(target.received).toHaveLength(1);
  });

  it('a Namespace by its own labels, and cluster-scoped objects always', async () => {
    const target = await webhook(() => ({ allowed: true }));
    await configure('validating', 'namespaces', [
      hook('namespaces.example.com', target, {
        rules: [rule(['namespaces', 'nodes'], ['CREATE'])],
        namespaceSelector: { matchLabels: { team: 'a' } },
      }),
    ]);
    const namespaces = type('', 'v1', 'namespaces');
    await server.resources.create(
      namespaces,
      '',
      { metadata: { name: 'team-b', labels: { team: 'b' } } },
      admin,
    );
    await server.resources.create(
      namespaces,
      '',
      { metadata: { name: 'team-a', labels: { team: 'a' } } },
      admin,
    );
    expect(target.received.map((call) => call.review.request.name)).toEqual(['team-a']);
    await server.resources.create(
      type('', 'v1', 'nodes'),
      '',
      { metadata: { name: 'node-1' } },
      admin,
    );
    expect(target.received.map((call) => call.review.request.name)).toEqual(['team-a', 'node-1']);
    expect(target.received[1]?.review.request.namespace).toBe('');
  });

  it('by objectSelector, on the new or the old object', async () => {
    const target = await webhook(() => ({ allowed: true }));
    await configure('validating', 'selected', [
      hook('selected.example.com', target, {
        objectSelector: { matchLabels: { watched: 'true' } },
      }),
    ]);
    await server.resources.create(configMaps(), 'default', configMap('ignored'), admin);
    expect(target.received).toHaveLength(0);
    await server.resources.create(
      configMaps(),
      'default',
      configMap('watched', { watched: 'true' }),
      admin,
    );
    expect(target.received).toHaveLength(1);
    // The label is removed: the old object still matches.
    await server.resources.update(
      configMaps(),
      'default',
      'watched',
      configMap('watched', {}),
      '',
      admin,
    );
    expect(target.received).toHaveLength(2);
    expect(target.received[1]?.review.request.operation).toBe('UPDATE');
    expect(target.received[1]?.review.request.oldObject.metadata.labels).toEqual({
      watched: 'true',
    });
  });

  it('by operation and resource', async () => {
    const target = await webhook(() => ({ allowed: true }));
    await configure('validating', 'updates', [
      hook('updates.example.com', target, { rules: [rule(['configmaps'], ['UPDATE'])] }),
    ]);
    await server.resources.create(configMaps(), 'default', configMap('op'), admin);
    await server.resources.create(
      type('', 'v1', 'secrets'),
      'default',
      { metadata: { name: 'op' }, stringData: { a: 'b' } },
      admin,
    );
    expect(target.received).toHaveLength(0);
    await server.resources.update(
      configMaps(),
      'default',
      'op',
      configMap('op', {}, { a: '2' }),
      '',
      admin,
    );
    expect(target.received.map((call) => call.review.request.operation)).toEqual(['UPDATE']);
  });

  it('subresources only by a subresource rule', async () => {
    const main = await webhook(() => ({ allowed: true }));
    const status = await webhook(() => ({ allowed: true }));
    await configure('validating', 'pod-rules', [
      hook('main.example.com', main, { rules: [rule(['pods'])] }),
      hook('status.example.com', status, { rules: [rule(['*/status'], ['UPDATE'])] }),
    ]);
    await server.resources.create(
      pods(),
      'default',
      { metadata: { name: 'sub' }, spec: { containers: [{ name: 'app', image: 'app:1' }] } },
      admin,
    );
    const current = server.resources.get(pods(), 'default', 'sub').copy();
    current.status = { ...(current.status as Json), phase: 'Running' };
    await server.resources.update(pods(), 'default', 'sub', current, 'status', admin);
    expect(main.received.map((call) => call.review.request.operation)).toEqual(['CREATE']);
    expect(status.received).toHaveLength(1);
    expect(status.received[0]?.review.request).toMatchObject({
      operation: 'UPDATE',
      subResource: 'status',
      requestSubResource: 'status',
      resource: { resource: 'pods' },
    });
  });

  it('never for the webhook configurations themselves', async () => {
    await configure('validating', 'everything', [
      {
        name: 'everything.example.com',
        clientConfig: { url: 'https://127.0.0.1:1/unreachable' },
        rules: [{ apiGroups: ['*'], apiVersions: ['*'], resources: ['*'], operations: ['*'] }],
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
      },
    ]);
    await configure('validating', 'another', []);
    await server.resources.delete(validatingType(), '', 'another', {}, admin);
    const error = await failure(
      server.resources.create(configMaps(), 'default', configMap('blocked'), admin),
    );
    expect(error.code).toBe(500);
  });
});

describe('calling', () => {
  it('reaches a service through its Endpoints, verifying <svc>.<ns>.svc', async () => {
    const target = await webhook(
      () => ({ allowed: false, status: { message: 'via the service' } }),
      {
        hosts: ['hooks.kube-system.svc'],
      },
    );
    await server.resources.create(
      type('', 'v1', 'services'),
      'kube-system',
      {
        metadata: { name: 'hooks' },
        spec: { ports: [{ name: 'https', port: 443, targetPort: 9443, protocol: 'TCP' }] },
      },
      admin,
    );
    await server.resources.create(
      type('', 'v1', 'endpoints'),
      'kube-system',
      {
        metadata: { name: 'hooks' },
        subsets: [
          {
            addresses: [{ ip: '127.0.0.1' }],
            ports: [{ name: 'https', port: target.port, protocol: 'TCP' }],
          },
        ],
      },
      admin,
    );
    await configure('validating', 'service', [
      hook('service.example.com', target, {
        clientConfig: {
          service: { namespace: 'kube-system', name: 'hooks', path: '/validate' },
          caBundle: target.caBundle,
        },
      }),
    ]);
    const error = await failure(
      server.resources.create(configMaps(), 'default', configMap('svc'), admin),
    );
    expect(error.message).toBe(
      'admission webhook "service.example.com" denied the request: via the service',
    );
    expect(target.received[0]?.path).toBe('/validate?timeout=10s');
  });

  it('fails a service without Endpoints as kube-apiserver does', async () => {
    await server.resources.create(
      type('', 'v1', 'services'),
      'default',
      { metadata: { name: 'lonely' }, spec: { ports: [{ port: 443, protocol: 'TCP' }] } },
      admin,
    );
    await configure('validating', 'lonely', [
      {
        name: 'lonely.example.com',
        clientConfig: { service: { namespace: 'default', name: 'lonely', path: '/v' } },
        rules: [rule(['configmaps'])],
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
      },
    ]);
    const error = await failure(
      server.resources.create(configMaps(), 'default', configMap('lonely'), admin),
    );
    expect(error.message).toBe(
      'Internal error occurred: failed calling webhook "lonely.example.com": failed to call webhook: Post "https://lonely.default.svc:443/v?timeout=10s": endpoints "lonely" not found',
    );
  });

  it('fails TLS verification against another CA: Fail denies, Ignore admits', async () => {
    const other = await createServingCertificates(['127.0.0.1']);
    const target = await webhook(() => ({ allowed: true }));
    await configure('validating', 'wrong-ca', [
      hook('wrong-ca.example.com', target, {
        clientConfig: {
          url: `https://127.0.0.1:${target.port}/admit`,
          caBundle: Buffer.from(other.caCert).toString('base64'),
        },
      }),
    ]);
    const error = await failure(
      server.resources.create(configMaps(), 'default', configMap('tls'), admin),
    );
    expect(error.code).toBe(500);
    expect(error.reason).toBe('InternalError');
    expect(error.message).toBe(
      `Internal error occurred: failed calling webhook "wrong-ca.example.com": failed to call webhook: Post "https://127.0.0.1:${target.port}/admit?timeout=10s": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
    );
    expect(target.received).toHaveLength(0);
    await server.resources.delete(validatingType(), '', 'wrong-ca', {}, admin);
    await configure('validating', 'wrong-ca-ignored', [
      hook('ignored.example.com', target, {
        failurePolicy: 'Ignore',
        clientConfig: {
          url: `https://127.0.0.1:${target.port}/admit`,
          caBundle: Buffer.from(other.caCert).toString('base64'),
        },
      }),
    ]);
    await server.resources.create(configMaps(), 'default', configMap('tls'), admin);
  });

  it('fails a certificate not valid for the host', async () => {
    const target = await webhook(() => ({ allowed: true }), { hosts: ['elsewhere.example.com'] });
    await configure('validating', 'wrong-host', [hook('wrong-host.example.com', target)]);
    const error = await failure(
      server.resources.create(configMaps(), 'default', configMap('host'), admin),
    );
    expect(error.message).toBe(
      `Internal error occurred: failed calling webhook "wrong-host.example.com": failed to call webhook: Post "https://127.0.0.1:${target.port}/admit?timeout=10s": tls: failed to verify certificate: x509: certificate is valid for elsewhere.example.com, not 127.0.0.1`,
    );
  });

  it('fails a refused connection: Fail denies, Ignore admits', async () => {
    const closed = await webhook(() => ({ allowed: true }));
    await closed.close();
    webhooks.splice(webhooks.indexOf(closed), 1);
    await configure('mutating', 'refused', [hook('refused.example.com', closed)]);
    const error = await failure(
      server.resources.create(configMaps(), 'default', configMap('refused'), admin),
    );
    expect(error.code).toBe(500);
    expect(error.message).toBe(
      `Internal error occurred: failed calling webhook "refused.example.com": failed to call webhook: Post "https://127.0.0.1:${closed.port}/admit?timeout=10s": dial tcp 127.0.0.1:${closed.port}: connect: connection refused`,
    );
    expect(error.details?.causes?.[0]?.message).toBe(
      error.message.slice('Internal error occurred: '.length),
    );
    await server.resources.delete(mutatingType(), '', 'refused', {}, admin);
    await configure('mutating', 'refused-ignored', [
      hook('refused.example.com', closed, { failurePolicy: 'Ignore' }),
    ]);
    const created = await server.resources.create(
      configMaps(),
      'default',
      configMap('refused'),
      admin,
    );
    expect(created.metadata?.name).toBe('refused');
  });

  it('enforces timeoutSeconds', async () => {
    const slow = await webhook(() => ({ allowed: true }), { delayMs: 1500 });
    await configure('validating', 'slow', [hook('slow.example.com', slow, { timeoutSeconds: 1 })]);
    const error = await failure(
      server.resources.create(configMaps(), 'default', configMap('slow'), admin),
    );
    expect(error.message).toBe(
      `Internal error occurred: failed calling webhook "slow.example.com": failed to call webhook: Post "https://127.0.0.1:${slow.port}/admit?timeout=1s": context deadline exceeded`,
    );
  });

  it('fails a non-2xx answer and an answer that is not an AdmissionReview', async () => {
    const broken = await webhook((_review, path) =>
      path.startsWith('/text')
        ? { raw: { code: 500, body: 'boom\n', contentType: 'text/plain' } }
        : {
            review: {
              apiVersion: 'admission.k8s.io/v1',
              kind: 'AdmissionReview',
              response: { uid: 'wrong', allowed: true },
            },
          },
    );
    await configure('validating', 'broken', [
      hook('text.example.com', broken, {
        clientConfig: { url: `https://127.0.0.1:${broken.port}/text`, caBundle: broken.caBundle },
      }),
    ]);
    const error = await failure(
      server.resources.create(configMaps(), 'default', configMap('broken'), admin),
    );
    expect(error.message).toBe(
      'Internal error occurred: failed calling webhook "text.example.com": failed to call webhook: an error on the server ("boom") has prevented the request from succeeding',
    );
    await server.resources.delete(validatingType(), '', 'broken', {}, admin);
    await configure('validating', 'uid', [hook('uid.example.com', broken)]);
    const uidError = await failure(
      server.resources.create(configMaps(), 'default', configMap('broken'), admin),
    );
    const uid = broken.received[1]?.review.request.uid;
    expect(uidError.message).toBe(
      `Internal error occurred: failed calling webhook "uid.example.com": received invalid webhook response: expected response.uid="${uid}", got "wrong"`,
    );
  });

  it('fails a webhook that accepts no known AdmissionReview version', async () => {
    const target = await webhook(() => ({ allowed: true }));
    await configure('validating', 'versions', [
      hook('versions.example.com', target, { admissionReviewVersions: ['v2'] }),
    ]);
    const error = await failure(
      server.resources.create(configMaps(), 'default', configMap('versions'), admin),
    );
    expect(error.message).toBe(
      'Internal error occurred: failed calling webhook "versions.example.com": could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)',
    );
    expect(target.received).toHaveLength(0);
  });

  it('speaks v1beta1 to a webhook that only accepts it', async () => {
    const target = await webhook(() => ({
      review: {
        apiVersion: 'admission.k8s.io/v1beta1',
        kind: 'AdmissionReview',
        response: {
          allowed: true,
          patch: Buffer.from(JSON.stringify([{ op: 'add', path: '/data/b', value: '2' }])).toString(
            'base64',
          ),
        },
      },
    }));
    await configure('mutating', 'beta', [
      hook('beta.example.com', target, { admissionReviewVersions: ['v1beta1', 'v1'] }),
    ]);
    const created = await server.resources.create(
      configMaps(),
      'default',
      configMap('beta'),
      admin,
    );
    expect(created.data).toEqual({ a: '1', b: '2' });
    expect(target.received[0]?.review.apiVersion).toBe('admission.k8s.io/v1beta1');
  });
});

describe('connections', () => {
  it('keep one TLS connection to a webhook alive across calls', async () => {
    const target = await webhook(() => ({ allowed: true }));
    await configure('validating', 'kept-alive', [hook('kept-alive.example.com', target)]);
    for (const name of ['one', 'two', 'three', 'four', 'five']) {
      await server.resources.create(configMaps(), 'default', configMap(`alive-${name}`), admin);
    }
    expect(target.received).toHaveLength(5);
    expect(target.handshakes()).toBe(1);
    expect(target.connections()).toBe(1);
  });

  it('verify a rotated caBundle on a new connection and close the old ones', async () => {
    const target = await webhook(() => ({ allowed: true }));
    const rotateTo = async (caCert: string) => {
      await server.resources.delete(validatingType(), '', 'rotating', {}, admin);
      await configure('validating', 'rotating', [
        hook('rotating.example.com', target, {
          clientConfig: {
            url: `https://127.0.0.1:${target.port}/admit`,
            caBundle: Buffer.from(caCert).toString('base64'),
          },
        }),
      ]);
    };
    await configure('validating', 'rotating', [hook('rotating.example.com', target)]);
    await server.resources.create(configMaps(), 'default', configMap('before-1'), admin);
    await server.resources.create(configMaps(), 'default', configMap('before-2'), admin);
    expect(target.handshakes()).toBe(1);

    // The bundle moves to a new CA before the webhook serves a certificate it signed: the
    // open connection, verified against the old CA, is not used for the new bundle.
    const rotated = await createServingCertificates(['127.0.0.1']);
    await rotateTo(rotated.caCert);
    const error = await failure(
      server.resources.create(configMaps(), 'default', configMap('mid-rotation'), admin),
    );
    expect(error.message).toContain('x509: certificate signed by unknown authority');
    expect(target.received).toHaveLength(2);
    await vi.waitFor(() => expect(target.connections()).toBe(0));

    // Once the webhook serves the new certificate, calls succeed over one new connection.
    target.rotate(rotated);
    await server.resources.create(configMaps(), 'default', configMap('after-1'), admin);
    await server.resources.create(configMaps(), 'default', configMap('after-2'), admin);
    expect(target.received).toHaveLength(4);
    expect(target.handshakes()).toBe(2);
    expect(target.connections()).toBe(1);
  });
});

describe('dry run', () => {
  it('calls webhooks without side effects, marked dryRun, and persists nothing', async () => {
    const target = await webhook(() => ({
      allowed: true,
      patch: [{ op: 'add', path: '/metadata/labels/dry', value: 'run' }],
    }));
    await configure('mutating', 'dry', [
      hook('dry.example.com', target, { sideEffects: 'NoneOnDryRun' }),
    ]);
    const created = await server.resources.create(configMaps(), 'default', configMap('dry'), {
      ...admin,
      dryRun: true,
    });
    expect(created.metadata?.labels).toEqual({ dry: 'run' });
    expect(server.store.get('/configmaps', 'default/dry')).toBeUndefined();
    expect(target.received[0]?.review.request.dryRun).toBe(true);
    expect(target.received[0]?.review.request.options).toMatchObject({ dryRun: ['All'] });
  });

  it('refuses a dry run a webhook with side effects does not support', async () => {
    const target = await webhook(() => ({ allowed: true }));
    // sideEffects Some cannot be created through the API (v1 validation), so it is stored directly.
    const revision = server.store.nextRevision();
    server.store.create(
      'admissionregistration.k8s.io/validatingwebhookconfigurations',
      'effects',
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingWebhookConfiguration',
        metadata: { name: 'effects', resourceVersion: String(revision) },
        webhooks: [hook('effects.example.com', target, { sideEffects: 'Some' })],
      },
      revision,
    );
    const error = await failure(
      server.resources.create(configMaps(), 'default', configMap('effects'), {
        ...admin,
        dryRun: true,
      }),
    );
    expect(error.code).toBe(400);
    expect(error.message).toBe('admission webhook "effects.example.com" does not support dry run');
    expect(target.received).toHaveLength(0);
    await server.resources.create(configMaps(), 'default', configMap('effects'), admin);
    expect(target.received).toHaveLength(1);
  });
});

describe('TLS fault injection', () => {
  it('cuts one webhook (or all) until restored', async () => {
    const one = await webhook(() => ({ allowed: true }));
    const two = await webhook(() => ({ allowed: true }));
    await configure('validating', 'cut', [
      hook('one.example.com', one),
      hook('two.example.com', two),
    ]);
    admission.cutTls('two.example.com');
    const error = await failure(
      server.resources.create(configMaps(), 'default', configMap('cut'), admin),
    );
    expect(error.message).toBe(
      `Internal error occurred: failed calling webhook "two.example.com": failed to call webhook: Post "https://127.0.0.1:${two.port}/admit?timeout=10s": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
    );
    expect(one.received).toHaveLength(1);
    expect(two.received).toHaveLength(0);
    admission.restoreTls();
    await server.resources.create(configMaps(), 'default', configMap('cut'), admin);
    expect(two.received).toHaveLength(1);
    admission.cutTls();
    const all = await failure(
      server.resources.create(configMaps(), 'default', configMap('cut-all'), admin),
    );
    expect(all.message).toContain('failed calling webhook "one.example.com"');
    expect(admission.tlsCuts()).toEqual({ all: true, webhooks: [] });
  });
});

describe('the ApiServer', () => {
  it('runs webhooks by default, cuts and restores their TLS through the control API, and closes their connections on stop', async () => {
    const own = await ApiServer.start();
    const target = await webhook(() => ({
      allowed: false,
      status: { message: 'default admission' },
    }));
    try {
      await own.resources.create(
        own.registry.find(
          'admissionregistration.k8s.io',
          'v1',
          'validatingwebhookconfigurations',
        ) as ResourceType,
        '',
        { metadata: { name: 'default' }, webhooks: [hook('default.example.com', target)] },
        admin,
      );
      const configMapType = own.registry.find('', 'v1', 'configmaps') as ResourceType;
      const denied = await failure(
        own.resources.create(configMapType, 'default', configMap('x'), admin),
      );
      expect(denied.message).toBe(
        'admission webhook "default.example.com" denied the request: default admission',
      );
      const control = (path: string, body: unknown) =>
        new Promise<{ status: number; body: Json }>((resolve, reject) => {
          const payload = JSON.stringify(body);
          const request = https.request(
            `${own.url}${path}`,
            {
              method: 'POST',
              ca: own.caCertificate,
              headers: {
                Authorization: `Bearer ${own.adminToken}`,
                'Content-Type': 'application/json',
                'Content-Length': String(Buffer.byteLength(payload)),
              },
            },
            (response) => {
              const chunks: Buffer[] = [];
              response.on('data', (chunk: Buffer) => chunks.push(chunk));
              response.on('end', () =>
                resolve({
                  status: response.statusCode ?? 0,
                  body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
                }),
              );
            },
          );
          request.on('error', reject);
          request.end(payload);
        });
      expect(await control('/__ops/webhook-tls/cut', { webhook: 'default.example.com' })).toEqual({
        status: 200,
        body: { all: false, webhooks: ['default.example.com'] },
      });
      const cut = await failure(
        own.resources.create(configMapType, 'default', configMap('x'), admin),
      );
      expect(cut.message).toContain('x509: certificate signed by unknown authority');
      expect(target.received).toHaveLength(1);
      expect((await control('/__ops/webhook-tls/restore', {})).body).toEqual({
        all: false,
        webhooks: [],
      });
      await failure(own.resources.create(configMapType, 'default', configMap('x'), admin));
      expect(target.received).toHaveLength(2);
      own.cutWebhookTls();
      await failure(own.resources.create(configMapType, 'default', configMap('x'), admin));
      expect(target.received).toHaveLength(2);
      own.restoreWebhookTls();
      await failure(own.resources.create(configMapType, 'default', configMap('x'), admin));
      expect(target.connections()).toBe(1);
    } finally {
      await own.stop();
    }
    // Stopping the server closed its kept-alive connection to the webhook.
    await vi.waitFor(() => expect(target.connections()).toBe(0));
  });
});
