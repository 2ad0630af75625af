/**
 * Test fixture of the reliability suite (not shipped): the local API server of
 * `@ops/apiserver`, run as a child process, with an admin client and its fault-injection
 * control API (`/__ops/...`, see packages/apiserver/README.md).
 */
import { Client } from '../../src/client/client.js';
import {
  type LocalApiServer,
  startLocalApiServer,
} from '../../src/client/local-api-server.fixture.js';
import { KubeTransport, type TransportRequest } from '../../src/transport/kube-transport.js';

/** A fault rule of the server's control API: matching requests fail (or wait). */
export interface Fault {
  /** `get`, `list`, `watch`, `create`, `update`, `patch`, `delete`; any when absent. */
  verb?: string;
  /** Plural resource, e.g. `configmaps`; any when absent. */
  resource?: string;
  namespace?: string;
  name?: string;
  code?: number;
  count?: number;
  probability?: number;
  delayMs?: number;
}

/** A running local API server, an admin client, and its fault-injection controls. */
export interface FaultyApiServer {
  server: LocalApiServer;
  /** An admin client reading from the API server (no cache). */
  admin: Client;
  /** Ends every open watch abruptly, as a dropped connection would; resolves with how many. */
  dropWatches(): Promise<number>;
  /** Drops every watch and forgets the watch history, so resuming watches get 410 Gone. */
  restartLosingHistory(): Promise<void>;
  /** Watch events kept per resource: a small value makes resuming watches get 410 Gone. */
  setHistorySize(size: number): Promise<void>;
  addFault(fault: Fault): Promise<void>;
  clearFaults(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts a local API server (plain HTTP) with its control API at hand. */
export async function startFaultyApiServer(): Promise<FaultyApiServer> {
  const server = await startLocalApiServer();
  const control = new KubeTransport(server.kubeConfig);
  const admin = new Client({ kubeConfig: server.kubeConfig });
  const call = async (method: TransportRequest['method'], path: string, body?: unknown) => {
    const response = await control.request({
      method,
      path,
      ...(body === undefined ? {} : { body }),
      timeoutMs: 10_000,
    });
    if (response.status !== 200) {
      throw new Error(`${method} ${path} answered ${response.status}: ${response.text}`);
    }
    return JSON.parse(response.text) as Record<string, unknown>;
  };
  return {
    server,
    admin,
    async dropWatches() {
      return Number((await call('POST', '/__ops/drop-watches', {})).dropped);
    },
    async restartLosingHistory() {
      await call('POST', '/__ops/restart', { keepHistory: false });
    },
    async setHistorySize(size) {
      await call('POST', '/__ops/history', { size });
    },
    async addFault(fault) {
      await call('POST', '/__ops/faults', fault);
    },
    async clearFaults() {
      await call('DELETE', '/__ops/faults');
    },
    async stop() {
      control.close();
      await server.stop();
    },
  };
}

/**
 * Polls `check` every 50 ms until it returns true; throws after `timeoutMs` with the
 * description `explain` gives of the last state (so a failure says what was still wrong).
 */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  explain: () => string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let error: unknown;
    try {
      if (await check()) return;
    } catch (caught) {
      error = caught;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `still not true after ${timeoutMs} ms: ${explain()}${error === undefined ? '' : ` (last check threw: ${String(error)})`}`,
      );
    }
    await sleep(50);
  }
}

/**
 * Polls `remaining` every 50 ms until it returns 0. Fails only when the count has not gone
 * down for `stallMs`, naming the last state by `explain`: a loaded machine gets the time it
 * needs, while work that stopped making progress still fails within `stallMs`. A check that
 * throws counts as no progress.
 */
export async function untilNoneRemain(
  remaining: () => Promise<number>,
  explain: () => string,
  stallMs: number,
): Promise<void> {
  let fewest = Number.POSITIVE_INFINITY;
  let progressed = Date.now();
  for (;;) {
    let error: unknown;
    try {
      const left = await remaining();
      if (left === 0) return;
      if (left < fewest) {
        fewest = left;
        progressed = Date.now();
      }
    } catch (caught) {
      error = caught;
    }
    if (Date.now() - progressed > stallMs) {
      throw new Error(
        `no progress for ${stallMs} ms: ${explain()}${error === undefined ? '' : ` (last check threw: ${String(error)})`}`,
      );
    }
    await sleep(50);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
