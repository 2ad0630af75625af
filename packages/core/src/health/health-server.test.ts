import { afterEach, describe, expect, it, vi } from 'vitest';
import { HealthServerError } from '../errors/health-server-error.js';
import { defaultCheckTimeoutMs, runHealthCheck } from './health-check.js';
import { defaultHealthProbePort, HealthServer } from './health-server.js';

const servers: HealthServer[] = [];

async function started(options: ConstructorParameters<typeof HealthServer>[0] = {}) {
  const server = new HealthServer({ host: '127.0.0.1', port: 0, ...options });
  servers.push(server);
  await server.start();
  return server;
}

async function get(server: HealthServer, path: string, method = 'GET') {
  const response = await fetch(`http://127.0.0.1:${server.port}${path}`, { method });
  return {
    status: response.status,
    body: await response.text(),
    contentType: response.headers.get('content-type'),
  };
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

describe('HealthServer aggregated endpoints', () => {
  it('answers ok with a ping check when none is registered', async () => {
    const server = await started();
    expect(await get(server, '/healthz')).toEqual({
      status: 200,
      body: 'ok',
      contentType: 'text/plain; charset=utf-8',
    });
    expect((await get(server, '/readyz?verbose')).body).toBe('[+]ping ok\nreadyz check passed\n');
    expect((await get(server, '/readyz/ping')).body).toBe('ok');
  });

  it('lists every check with ?verbose, in registration order', async () => {
    const server = await started();
    server.addReadyzCheck('informer-sync', () => {}).addReadyzCheck('webhook', async () => {});
    expect(await get(server, '/readyz')).toMatchObject({ status: 200, body: 'ok' });
    expect((await get(server, '/readyz?verbose=1')).body).toBe(
      '[+]informer-sync ok\n[+]webhook ok\nreadyz check passed\n',
    );
    // Liveness checks are separate.
    expect((await get(server, '/healthz?verbose')).body).toBe('[+]ping ok\nhealthz check passed\n');
  });

  it('answers 500 with [-] lines and reasons when a check throws or rejects', async () => {
    const server = await started();
    server.addHealthzCheck('ok', () => {});
    server.addHealthzCheck('sync-throw', () => {
      throw new Error('cache not\nsynced');
    });
    server.addHealthzCheck('rejects', () => Promise.reject(new Error('leader lost')));
    const reply = await get(server, '/healthz');
    expect(reply.status).toBe(500);
    expect(reply.body).toBe(
      '[+]ok ok\n[-]sync-throw failed: cache not synced\n[-]rejects failed: leader lost\nhealthz check failed\n',
    );
    // The server is still fine afterwards.
    expect((await get(server, '/healthz/ok')).status).toBe(200);
  });

  it('fails a hanging check after the timeout without blocking the probe', async () => {
    const server = await started({ checkTimeoutMs: 50 });
    server.addReadyzCheck('fast', () => {});
    server.addReadyzCheck('hangs', () => new Promise<void>(() => {}));
    const reply = await get(server, '/readyz');
    expect(reply.status).toBe(500);
    expect(reply.body).toBe(
      '[+]fast ok\n[-]hangs failed: timed out after 50 ms\nreadyz check failed\n',
    );
    expect(await get(server, '/readyz/hangs')).toMatchObject({
      status: 500,
      body: 'internal server error: timed out after 50 ms\n',
    });
  });

  it('can withhold reasons as controller-runtime does', async () => {
    const server = await started({ withholdReasons: true });
    server.addHealthzCheck('secret', () => {
      throw new Error('password=hunter2');
    });
    const reply = await get(server, '/healthz');
    expect(reply.body).toBe('[-]secret failed: reason withheld\nhealthz check failed\n');
  });

  it('honours ?exclude and warns about unknown names', async () => {
    const server = await started();
    server.addReadyzCheck('good', () => {});
    server.addReadyzCheck('bad', () => {
      throw new Error('down');
    });
    const reply = await get(server, '/readyz?exclude=bad&exclude=nope&verbose');
    expect(reply).toMatchObject({
      status: 200,
      body: '[+]good ok\n[+]bad excluded: ok\nwarn: some health checks cannot be excluded: no matches for "nope"\nreadyz check passed\n',
    });
  });
});

describe('HealthServer single checks and routing', () => {
  it('serves one check by name and 404s unknown names and paths', async () => {
    const server = await started();
    server.addReadyzCheck('db', () => {
      throw new Error('connection refused');
    });
    server.addReadyzCheck('cache', () => {});
    expect(await get(server, '/readyz/cache')).toMatchObject({ status: 200, body: 'ok' });
    expect(await get(server, '/readyz/db')).toMatchObject({
      status: 500,
      body: 'internal server error: connection refused\n',
    });
    const unknown = await get(server, '/readyz/nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatch(/no readyz check named "nope"; checks: db, cache/);
    expect((await get(server, '/healthz/db')).status).toBe(404);
    for (const path of ['/', '/metrics', '/readyz/', '/readyz/db/extra', '/livez']) {
      expect((await get(server, path)).status).toBe(404);
    }
  });

  it('allows GET and HEAD only', async () => {
    const server = await started();
    expect((await get(server, '/healthz', 'HEAD')).status).toBe(200);
    const post = await fetch(`http://127.0.0.1:${server.port}/healthz`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    await post.text();
  });

  it('validates check names', () => {
    const server = new HealthServer();
    const reasonOf = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        if (HealthServerError.isInstance(error)) return `${error.reason}: ${error.message}`;
        throw error;
      }
      return 'accepted';
    };
    expect(reasonOf(() => server.addHealthzCheck('a/b', () => {}))).toMatch(
      /^InvalidCheckName: invalid healthz check name "a\/b": .*free of "\/"/,
    );
    expect(reasonOf(() => server.addReadyzCheck('', () => {}))).toMatch(/^InvalidCheckName/);
    server.addReadyzCheck('x', () => {});
    expect(reasonOf(() => server.addReadyzCheck('x', () => {}))).toMatch(
      /^DuplicateCheck: a readyz check named "x" is already registered/,
    );
    expect(reasonOf(() => server.addHealthzCheck('x', () => {}))).toBe('accepted');
    expect(server.checkNames).toEqual({ healthz: ['x'], readyz: ['x'] });
  });
});

describe('HealthServer lifecycle', () => {
  it('exposes the bound port, refuses a second start and a restart', async () => {
    const server = new HealthServer({ host: '127.0.0.1', port: 0 });
    expect(server.port).toBeUndefined();
    await server.start();
    expect(server.started).toBe(true);
    expect(server.port).toBeGreaterThan(0);
    await expect(server.start()).rejects.toMatchObject({ reason: 'AlreadyStarted' });
    await server.stop();
    await server.stop();
    expect(server.started).toBe(false);
    await expect(server.start()).rejects.toThrowError(/create a new HealthServer/);
  });

  it('reports a port in use and can then start elsewhere', async () => {
    const first = await started();
    const second = new HealthServer({ host: '127.0.0.1', port: first.port ?? 0 });
    await expect(second.start()).rejects.toMatchObject({ code: 'EADDRINUSE' });
    expect(second.started).toBe(false);
    await second.stop();
    expect(defaultHealthProbePort).toBe(8081);
  });
});

describe('runHealthCheck', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('times out a hanging check after 5 s by default', async () => {
    vi.useFakeTimers();
    expect(defaultCheckTimeoutMs).toBe(5000);
    let settled: unknown;
    void runHealthCheck(() => new Promise<void>(() => {})).then((result) => {
      settled = result;
    });
    await vi.advanceTimersByTimeAsync(4999);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toEqual({ ok: false, reason: 'timed out after 5000 ms' });
  });

  it('turns anything thrown into a one-line reason', async () => {
    expect(
      await runHealthCheck(() => {
        throw 'plain string';
      }),
    ).toEqual({ ok: false, reason: 'plain string' });
    expect(
      await runHealthCheck(() => {
        throw new Error('');
      }),
    ).toEqual({ ok: false, reason: 'check failed without a message' });
    expect(await runHealthCheck(async () => {})).toEqual({ ok: true });
  });
});
