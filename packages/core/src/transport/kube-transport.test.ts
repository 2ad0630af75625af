import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalApiServer, startLocalApiServer } from '../client/local-api-server.fixture.js';
import { BodyThread } from './body-thread.js';
import { KubeTransport, type TransportRequest } from './kube-transport.js';

async function threadReady(): Promise<void> {
  const thread = BodyThread.shared();
  thread.start();
  const deadline = Date.now() + 10_000;
  while (!thread.isReady()) {
    if (Date.now() > deadline) throw new Error('the HTTP helper thread did not start in 10 s');
    await new Promise((done) => setTimeout(done, 5));
  }
}

describe('KubeTransport, answers received on the helper thread (HTTPS)', () => {
  let server: LocalApiServer;
  let transport: KubeTransport;

  beforeAll(async () => {
    server = await startLocalApiServer({ https: true });
    transport = new KubeTransport(server.kubeConfig);
    await threadReady();
    for (let i = 0; i < 30; i++) {
      await transport.request({
        method: 'POST',
        path: '/api/v1/namespaces/default/configmaps',
        body: { metadata: { name: `cm-${i}` }, data: { text: `ünïcode ${i} ☃` } },
      });
    }
  }, 30_000);

  afterAll(async () => {
    transport.close();
    await server.stop();
  });

  const both = async (request: TransportRequest) => {
    const here = await transport.request(request);
    const there = await transport.request({ ...request, offThread: true });
    return { here, there };
  };

  it('answers exactly as a request on this thread does, with the client certificate and CA', async () => {
    const { here, there } = await both({
      method: 'GET',
      path: '/api/v1/namespaces/default/configmaps',
      query: { limit: 20 },
    });
    expect(there.status).toBe(200);
    expect(there.headers['content-type']).toBe(here.headers['content-type']);
    expect(JSON.parse(there.text)).toEqual(JSON.parse(here.text));
    expect(there.text).toContain('ünïcode 1 ☃');
  });

  it('answers error statuses with their body', async () => {
    const { here, there } = await both({
      method: 'GET',
      path: '/api/v1/namespaces/default/configmaps/missing',
    });
    expect(there.status).toBe(404);
    expect(there.text).toBe(here.text);
  });

  it('sends bodies', async () => {
    const answer = await transport.request({
      method: 'POST',
      path: '/api/v1/namespaces/default/configmaps',
      body: { metadata: { name: 'from-thread' }, data: { a: 'b' } },
      offThread: true,
    });
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.text)).toMatchObject({ metadata: { name: 'from-thread' } });
  });

  it('times out as a request on this thread does', async () => {
    await transport.request({
      method: 'POST',
      path: '/__ops/faults',
      body: { verb: 'get', resource: 'configmaps', name: 'slow', delayMs: 2_000, count: 1 },
    });
    await expect(
      transport.request({
        method: 'GET',
        path: '/api/v1/namespaces/default/configmaps/slow',
        timeoutMs: 100,
        offThread: true,
      }),
    ).rejects.toThrow('GET /api/v1/namespaces/default/configmaps/slow timed out after 100 ms');
  });

  it('close() ends the requests of that transport in flight on the thread', async () => {
    const other = new KubeTransport(server.kubeConfig);
    await transport.request({
      method: 'POST',
      path: '/__ops/faults',
      body: { verb: 'get', resource: 'configmaps', name: 'slower', delayMs: 3_000, count: 1 },
    });
    const pending = other.request({
      method: 'GET',
      path: '/api/v1/namespaces/default/configmaps/slower',
      offThread: true,
    });
    const rejected = expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await new Promise((done) => setTimeout(done, 50));
    other.close();
    await rejected;
    // The shared thread serves other transports still.
    const answer = await transport.request({
      method: 'GET',
      path: '/api/v1/namespaces/default/configmaps/cm-1',
      offThread: true,
    });
    expect(answer.status).toBe(200);
  });

  it('sends offThread requests as usual when the helper thread is turned off', async () => {
    const plain = new KubeTransport(server.kubeConfig, { offThreadBodies: false });
    try {
      const answer = await plain.request({
        method: 'GET',
        path: '/api/v1/namespaces/default/configmaps/cm-2',
        offThread: true,
      });
      expect(JSON.parse(answer.text)).toMatchObject({ data: { text: 'ünïcode 2 ☃' } });
    } finally {
      plain.close();
    }
  });
});

describe('the helper thread and process exit', () => {
  const dist = resolve(dirname(fileURLToPath(import.meta.url)), '../../dist/client/index.js');
  let server: LocalApiServer;

  beforeAll(async () => {
    server = await startLocalApiServer();
  }, 30_000);

  afterAll(async () => {
    await server.stop();
  });

  /**
   * Runs `body` in a child process (with `transport`, a KubeTransport that is never closed,
   * in scope) and resolves with its output and exit code, or null when it does not exit
   * by itself within 15 s.
   */
  async function runChild(body: string): Promise<{ output: string; code: number | null }> {
    if (!existsSync(dist)) throw new Error(`${dist} is missing; build the package first (tsup)`);
    const script = `
      import { KubeTransport } from ${JSON.stringify(dist)};
      import { KubeConfig } from '@kubernetes/client-node';
      const config = new KubeConfig();
      config.loadFromFile(${JSON.stringify(server.kubeconfigPath)});
      const transport = new KubeTransport(config);
      ${body}
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd: dirname(dist),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const code = await new Promise<number | null>((done) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        done(null);
      }, 15_000);
      child.once('exit', (exitCode) => {
        clearTimeout(timer);
        done(exitCode);
      });
    });
    return { output, code };
  }

  it('does not keep a process alive once the thread has served requests', async () => {
    // Requests for half a second (the thread is ready within tens of milliseconds), then
    // nothing: the process must end by itself.
    const { output, code } = await runChild(`
      const until = Date.now() + 500;
      let answers = 0;
      while (Date.now() < until) {
        const answer = await transport.request({ method: 'GET', path: '/api/v1/namespaces', offThread: true });
        if (answer.status === 200) answers++;
      }
      console.log('answers', answers);
    `);
    expect(output).toMatch(/answers [1-9]\d*/);
    expect(code).toBe(0);
  }, 30_000);

  it('does not keep a process alive when the thread was started but never used', async () => {
    // The first offThread request starts the thread and is itself sent from the main thread.
    const { output, code } = await runChild(`
      const answer = await transport.request({ method: 'GET', path: '/api/v1/namespaces', offThread: true });
      console.log('status', answer.status);
    `);
    expect(output).toContain('status 200');
    expect(code).toBe(0);
  }, 30_000);
});
