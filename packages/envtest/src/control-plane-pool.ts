import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type BinaryControlPlane, startBinaryControlPlane } from './binary-control-plane.js';

/**
 * The environment variable through which {@link Environment.start} finds a running
 * {@link ControlPlanePool}: its URL (`http://127.0.0.1:<port>`). A test runner's global setup
 * sets it before its test files start ({@link startControlPlanePool}'s `publish`).
 */
export const controlPlanePoolVariable = 'OPS_ENVTEST_CONTROL_PLANE_POOL';

/** Options of {@link startControlPlanePool}. */
export interface ControlPlanePoolOptions {
  /** The directory with `etcd` and `kube-apiserver` (from {@link ensureControlPlaneAssets}). */
  assetsDirectory: string;
  /** Control planes kept started ahead of the next request (default 1). */
  spares?: number;
  /** Timeout of one control plane's start (default 60 s). */
  timeoutMs?: number;
  /**
   * Set {@link controlPlanePoolVariable} in this process's environment to the pool's URL (and
   * remove it on close), so test files forked after it find the pool (default true).
   */
  publish?: boolean;
}

/** A running pool of `binaries` control planes; see {@link startControlPlanePool}. */
export interface ControlPlanePool {
  /** Where it answers: `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** The assets directory its control planes run from. */
  readonly assetsDirectory: string;
  /** How many of its control planes are handed out and not yet returned. */
  readonly leased: number;
  /** Stops every control plane it started, handed out or spare, and stops answering. */
  close(): Promise<void>;
}

/**
 * Starts a pool of real `binaries` control planes (etcd + kube-apiserver, each exactly as
 * {@link startBinaryControlPlane} starts one) for a test run whose files each want a plane of
 * their own: it keeps `spares` planes started ahead, so a file's {@link Environment.start}
 * takes a ready one (a kube-apiserver start is about 4 s, most of it waiting) while the next
 * starts in the background, and stops a returned plane without the file waiting for it.
 *
 * Guarantees: every plane is handed out once, never reused, so a file gets an empty cluster
 * as if it had started it; a plane is stopped when its file stops its environment, or at
 * {@link ControlPlanePool.close} if the file never did. `restart` restarts the plane's
 * kube-apiserver as {@link BinaryControlPlane.restartApiServer} does.
 *
 * Assumes its clients are on this machine (it listens on loopback only, without
 * authentication: what it hands out is a cluster admin's kubeconfig of a throwaway plane).
 *
 * @throws {Error} when it cannot listen on a loopback port.
 */
export async function startControlPlanePool(
  options: ControlPlanePoolOptions,
): Promise<ControlPlanePool> {
  const spares = options.spares ?? 1;
  const start = () => {
    const plane = startBinaryControlPlane(options.assetsDirectory, {
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    });
    // A spare that fails to start fails the request that takes it, not the process.
    plane.catch(() => undefined);
    return plane;
  };
  const ready: Promise<BinaryControlPlane>[] = Array.from({ length: spares }, start);
  const leased = new Map<string, BinaryControlPlane>();
  const stopping = new Set<Promise<void>>();
  let leases = 0;
  let closed = false;

  const stopInBackground = (plane: BinaryControlPlane) => {
    const stopped = plane.stop().finally(() => stopping.delete(stopped));
    stopping.add(stopped);
  };

  const acquire = async (): Promise<{ id: string; kubeconfig: string }> => {
    const next = ready.shift() ?? start();
    if (!closed && ready.length < spares) ready.push(start());
    const plane = await next;
    if (closed) {
      // Closed while this plane was starting: nobody will return it.
      stopInBackground(plane);
      throw new PoolRequestError(503, 'the pool closed while the control plane started');
    }
    const id = String(++leases);
    leased.set(id, plane);
    return { id, kubeconfig: plane.kubeconfig };
  };

  const lease = (body: unknown): [string, BinaryControlPlane] => {
    const id = (body as { id?: unknown } | undefined)?.id;
    const plane = typeof id === 'string' ? leased.get(id) : undefined;
    if (plane === undefined || typeof id !== 'string')
      throw new PoolRequestError(404, `no control plane is handed out as ${JSON.stringify(id)}`);
    return [id, plane];
  };

  const handle = async (request: IncomingMessage): Promise<unknown> => {
    const body = await readJson(request);
    if (request.method !== 'POST')
      throw new PoolRequestError(405, `${request.method} is not served: POST only`);
    switch (request.url) {
      case '/acquire': {
        const asked = (body as { assetsDirectory?: unknown } | undefined)?.assetsDirectory;
        if (asked !== options.assetsDirectory)
          throw new PoolRequestError(
            409,
            `this pool runs the control plane of ${options.assetsDirectory}, not ${String(asked)}`,
          );
        return acquire();
      }
      case '/restart': {
        const [, plane] = lease(body);
        const downtimeMs = (body as { downtimeMs?: unknown }).downtimeMs;
        await plane.restartApiServer(typeof downtimeMs === 'number' ? { downtimeMs } : {});
        return {};
      }
      case '/release': {
        const [id, plane] = lease(body);
        leased.delete(id);
        stopInBackground(plane);
        return {};
      }
      default:
        throw new PoolRequestError(
          404,
          `${request.url} is not served: /acquire, /restart, /release`,
        );
    }
  };

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    handle(request).then(
      (answer) => reply(response, 200, answer),
      (error: unknown) =>
        reply(response, error instanceof PoolRequestError ? error.status : 500, {
          message: error instanceof Error ? error.message : String(error),
        }),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const publish = options.publish ?? true;
  if (publish) process.env[controlPlanePoolVariable] = url;

  return {
    url,
    assetsDirectory: options.assetsDirectory,
    get leased() {
      return leased.size;
    },
    async close() {
      if (closed) return;
      closed = true;
      if (publish && process.env[controlPlanePoolVariable] === url)
        delete process.env[controlPlanePoolVariable];
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      const spare = await Promise.allSettled(ready.splice(0));
      for (const result of spare) if (result.status === 'fulfilled') stopInBackground(result.value);
      for (const plane of leased.values()) stopInBackground(plane);
      leased.clear();
      await Promise.allSettled([...stopping]);
    },
  };
}

/** A request the pool refuses, with the HTTP status it answers. */
class PoolRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new PoolRequestError(400, 'the request body is not JSON');
  }
}

function reply(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** A control plane taken from a pool: as {@link BinaryControlPlane}, through the pool. */
export interface PooledControlPlane {
  readonly kubeconfig: string;
  restartApiServer(options?: { downtimeMs?: number }): Promise<void>;
  /** Returns the plane to the pool, which stops it. Safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Takes a ready control plane of `assetsDirectory` from the pool at `url`; undefined when the
 * pool runs another directory's binaries (another Kubernetes release), so the caller starts
 * its own.
 *
 * @throws {Error} naming the pool and {@link controlPlanePoolVariable} when it does not answer
 *   or fails to start a plane.
 */
export async function acquirePooledControlPlane(
  url: string,
  assetsDirectory: string,
): Promise<PooledControlPlane | undefined> {
  const call = async (path: string, body: unknown): Promise<{ status: number; body: unknown }> => {
    let response: Response;
    try {
      response = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    } catch (error) {
      throw new Error(
        `envtest: the control plane pool at ${url} (${controlPlanePoolVariable}) does not answer: ${(error as Error).message}; unset ${controlPlanePoolVariable} to start control planes without it`,
        { cause: error },
      );
    }
    return { status: response.status, body: await response.json().catch(() => undefined) };
  };
  const failed = (path: string, answer: { status: number; body: unknown }) =>
    new Error(
      `envtest: the control plane pool at ${url} answered ${path} with ${answer.status}: ${(answer.body as { message?: string } | undefined)?.message ?? ''}`,
    );
  const acquired = await call('/acquire', { assetsDirectory });
  if (acquired.status === 409) return undefined;
  if (acquired.status !== 200) throw failed('/acquire', acquired);
  const { id, kubeconfig } = acquired.body as { id: string; kubeconfig: string };
  let released = false;
  return {
    kubeconfig,
    async restartApiServer(options = {}) {
      const answer = await call('/restart', { id, ...options });
      if (answer.status !== 200) throw failed('/restart', answer);
    },
    async stop() {
      if (released) return;
      released = true;
      const answer = await call('/release', { id });
      if (answer.status !== 200) throw failed('/release', answer);
    },
  };
}
