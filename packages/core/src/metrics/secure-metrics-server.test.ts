import { X509Certificate } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createCertificateAuthority,
  issueServingCertificate,
} from '../tls/certificate-authority.js';
import type { TransportRequest, TransportResponse } from '../transport/kube-transport.js';
import { DelegatingMetricsAuthorizer } from './metrics-authorizer.js';
import { MetricsRegistry } from './metrics-registry.js';
import { MetricsServer } from './metrics-server.js';
import {
  certDirServingCertificate,
  selfSignedServingCertificate,
} from './metrics-serving-certificate.js';

/**
 * An API server answering TokenReviews and SubjectAccessReviews from two tables, recording
 * every review it was sent. (The real API server's answers are proven by the operators'
 * secure-metrics end-to-end suites on kube-apiserver.)
 */
class ReviewingApiServer {
  readonly sent: Array<{ path: string; body: Record<string, unknown> }> = [];
  /** Token → username. */
  readonly users = new Map<string, string>([
    ['reader-token', 'system:serviceaccount:monitoring:prometheus'],
    ['stranger-token', 'system:serviceaccount:default:stranger'],
  ]);
  /** Users allowed `get /metrics`. */
  readonly readers = new Set(['system:serviceaccount:monitoring:prometheus']);
  /** When set, every review answers this status. */
  failWith: number | undefined;

  async request(req: TransportRequest): Promise<TransportResponse> {
    const body = req.body as { spec: Record<string, unknown> };
    this.sent.push({ path: req.path, body: body as unknown as Record<string, unknown> });
    if (this.failWith !== undefined) {
      return { status: this.failWith, headers: {}, text: '{"kind":"Status","reason":"Forbidden"}' };
    }
    if (req.path.endsWith('/tokenreviews')) {
      const username = this.users.get(String(body.spec.token));
      const status =
        username === undefined
          ? { authenticated: false, error: 'invalid bearer token' }
          : {
              authenticated: true,
              user: { username, uid: 'u-1', groups: ['system:serviceaccounts'] },
            };
      return { status: 201, headers: {}, text: JSON.stringify({ ...body, status }) };
    }
    const spec = body.spec as {
      user: string;
      nonResourceAttributes: { path: string; verb: string };
    };
    const allowed =
      this.readers.has(spec.user) &&
      spec.nonResourceAttributes.path === '/metrics' &&
      spec.nonResourceAttributes.verb === 'get';
    return {
      status: 201,
      headers: {},
      text: JSON.stringify({
        ...body,
        status: { allowed, ...(allowed ? {} : { reason: 'no RBAC policy matched' }) },
      }),
    };
  }
}

/** GET over HTTPS without verifying the server (its certificate may be self-signed). */
function scrape(
  port: number,
  options: { token?: string; authorization?: string; method?: string } = {},
): Promise<{ status: number; body: string; certificate: X509Certificate }> {
  const authorization =
    options.authorization ?? (options.token === undefined ? undefined : `Bearer ${options.token}`);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/metrics',
        method: options.method ?? 'GET',
        rejectUnauthorized: false,
        agent: false,
        headers: authorization === undefined ? {} : { authorization },
      },
      (res) => {
        const certificate = new X509Certificate(
          (res.socket as import('node:tls').TLSSocket).getPeerCertificate().raw,
        );
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, certificate }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const servers: MetricsServer[] = [];
const directories: string[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
  await Promise.all(directories.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function secureServer(api: ReviewingApiServer, now?: () => number) {
  const metrics = new MetricsRegistry();
  metrics.controller('app').observeReconcile({ result: 'success', durationSeconds: 0.1 });
  const server = new MetricsServer({
    metrics,
    host: '127.0.0.1',
    port: 0,
    tls: selfSignedServingCertificate(),
    authorizer: new DelegatingMetricsAuthorizer({ transport: api, ...(now ? { now } : {}) }),
  });
  servers.push(server);
  await server.start();
  return server.port as number;
}

describe('MetricsServer, secure (TokenReview + SubjectAccessReview)', () => {
  it('serves a token the API server authenticates and authorizes, 403s one it does not authorize, 401s none or a bad one', async () => {
    const api = new ReviewingApiServer();
    const port = await secureServer(api);

    const reader = await scrape(port, { token: 'reader-token' });
    expect(reader.status).toBe(200);
    expect(reader.body).toContain(
      'controller_runtime_reconcile_total{controller="app",result="success"} 1',
    );
    expect(reader.certificate.checkHost('localhost')).toBe('localhost');
    expect(reader.certificate.checkIP('127.0.0.1')).toBe('127.0.0.1');

    const stranger = await scrape(port, { token: 'stranger-token' });
    expect(stranger.status).toBe(403);
    expect(stranger.body).toBe(
      'Forbidden: user "system:serviceaccount:default:stranger" may not get /metrics (no RBAC policy matched): bind a ClusterRole granting it, such as metrics-reader\n',
    );

    const anonymous = await scrape(port);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatch(/^Unauthorized: no bearer token/);
    expect((await scrape(port, { token: 'forged' })).status).toBe(401);
    expect((await scrape(port, { authorization: 'Basic dXNlcjpwYXNz' })).body).toBe(
      'Unauthorized: the Authorization header is not Bearer <token>\n',
    );

    // The reviews sent: the token as given, the user as reviewed, get on /metrics.
    expect(api.sent[0]).toEqual({
      path: '/apis/authentication.k8s.io/v1/tokenreviews',
      body: {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenReview',
        spec: { token: 'reader-token' },
      },
    });
    expect(api.sent[1]).toEqual({
      path: '/apis/authorization.k8s.io/v1/subjectaccessreviews',
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        spec: {
          user: 'system:serviceaccount:monitoring:prometheus',
          uid: 'u-1',
          groups: ['system:serviceaccounts'],
          nonResourceAttributes: { path: '/metrics', verb: 'get' },
        },
      },
    });
  });

  it('reuses answers within their TTLs and asks again after', async () => {
    const api = new ReviewingApiServer();
    let now = 1_000_000;
    const port = await secureServer(api, () => now);
    for (let i = 0; i < 3; i++)
      expect((await scrape(port, { token: 'reader-token' })).status).toBe(200);
    expect(api.sent).toHaveLength(2);
    // The role is taken away: still allowed from the cache until the 5 minutes of an allow pass.
    api.readers.clear();
    now += 61_000; // the token review (1 min) expired, the access review (5 min) not
    expect((await scrape(port, { token: 'reader-token' })).status).toBe(200);
    expect(api.sent.map((sent) => sent.path.split('/').pop())).toEqual([
      'tokenreviews',
      'subjectaccessreviews',
      'tokenreviews',
    ]);
    now += 300_000;
    expect((await scrape(port, { token: 'reader-token' })).status).toBe(403);
  });

  it('answers 500 naming the missing grant when the API server refuses the reviews', async () => {
    const api = new ReviewingApiServer();
    api.failWith = 403;
    const port = await secureServer(api);
    const refused = await scrape(port, { token: 'reader-token' });
    expect(refused.status).toBe(500);
    expect(refused.body).toMatch(
      /^Internal Server Error: creating a tokenreviews answered 403: the operator needs create on tokenreviews and subjectaccessreviews/,
    );
    // Failures are not cached: the next scrape asks again and succeeds.
    api.failWith = undefined;
    expect((await scrape(port, { token: 'reader-token' })).status).toBe(200);
  });

  it('serves the certificate of a cert dir and picks up a rotated one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'metrics-certs-'));
    directories.push(dir);
    const ca = await createCertificateAuthority('test-ca', Date.now(), 86_400_000);
    const first = await issueServingCertificate(
      ca,
      ['first.example'],
      Date.now(),
      Date.now() + 86_400_000,
    );
    await writeFile(join(dir, 'tls.crt'), first.cert);
    await writeFile(join(dir, 'tls.key'), first.key);
    const metrics = new MetricsRegistry();
    const logger = pino({ level: 'silent' });
    const server = new MetricsServer({
      metrics,
      host: '127.0.0.1',
      port: 0,
      tls: certDirServingCertificate({ certDir: dir, logger }),
    });
    servers.push(server);
    await server.start();
    const port = server.port as number;
    const served = await scrape(port);
    expect(served.status).toBe(200);
    expect(served.certificate.checkHost('first.example')).toBe('first.example');

    const second = await issueServingCertificate(
      ca,
      ['second.example'],
      Date.now(),
      Date.now() + 86_400_000,
    );
    await writeFile(join(dir, 'tls.key'), second.key);
    await writeFile(join(dir, 'tls.crt'), second.cert);
    const deadline = Date.now() + 30_000;
    let subject = served.certificate;
    while (subject.checkHost('second.example') === undefined && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      subject = (await scrape(port)).certificate;
    }
    expect(subject.checkHost('second.example')).toBe('second.example');
  });

  it('fails to start, naming the directory, when the cert dir is missing', async () => {
    const server = new MetricsServer({
      metrics: new MetricsRegistry(),
      host: '127.0.0.1',
      port: 0,
      tls: certDirServingCertificate({
        certDir: '/nonexistent/metrics-certs',
        logger: pino({ level: 'silent' }),
      }),
    });
    servers.push(server);
    await expect(server.start()).rejects.toThrow(
      /^metrics serving certificate directory \/nonexistent\/metrics-certs does not exist/,
    );
    expect(server.started).toBe(false);
  });
});
