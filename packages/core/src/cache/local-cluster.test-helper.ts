/**
 * Test support (not shipped): an admin transport and helpers over the local API server of
 * `@ops/apiserver`, which `startLocalApiServer` runs as a child process from its built CLI,
 * so core tests need not import that package (which depends on core).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { KubernetesObject } from '@ops/api';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { type LocalApiServer, startLocalApiServer } from '../client/local-api-server.fixture.js';
import type { ResourceDescriptor } from '../kinds/resource-descriptor.js';
import type { RestMapper } from '../kinds/rest-mapper.js';
import {
  KubeTransport,
  type TransportRequest,
  type WatchHandlers,
} from '../transport/kube-transport.js';
import type { InformerTransport } from './informer.js';
import type { InformerCache } from './informer-cache.js';

export const configMaps: ResourceDescriptor = {
  group: '',
  version: 'v1',
  kind: 'ConfigMap',
  plural: 'configmaps',
  namespaced: true,
};

export const namespaces: ResourceDescriptor = {
  group: '',
  version: 'v1',
  kind: 'Namespace',
  plural: 'namespaces',
  namespaced: false,
};

/** A fault rule of the local server's control API. */
export interface Fault {
  verb?: string;
  resource?: string;
  namespace?: string;
  code?: number;
  count?: number;
  delayMs?: number;
  probability?: number;
}

/** A RestMapper over a fixed list of descriptors. */
export class StaticRestMapper implements RestMapper {
  constructor(private readonly descriptors: ResourceDescriptor[]) {}

  async resourceFor(apiVersion: string, kind: string): Promise<ResourceDescriptor> {
    const found = this.descriptors.find(
      (d) => (d.group ? `${d.group}/${d.version}` : d.version) === apiVersion && d.kind === kind,
    );
    if (found === undefined) {
      throw new Error(`the server does not serve ${kind} in ${apiVersion}; install its CRD`);
    }
    return found;
  }
}

/** Counts the requests that pass through to a transport, by kind. */
export class CountingTransport implements InformerTransport {
  lists = 0;
  watches = 0;
  /** Called before a request is forwarded; may change nothing but may wait. */
  beforeRequest: ((request: TransportRequest) => Promise<void>) | undefined;

  constructor(private readonly inner: InformerTransport) {}

  async request(request: TransportRequest) {
    this.lists++;
    await this.beforeRequest?.(request);
    return this.inner.request(request);
  }

  watch(path: string, query: TransportRequest['query'], handlers: WatchHandlers, accept?: string) {
    this.watches++;
    return this.inner.watch(path, query, handlers, accept);
  }
}

/** A running local API server and an admin transport to it. */
export class LocalCluster {
  private constructor(
    private readonly server: LocalApiServer,
    readonly url: string,
    readonly kubeConfig: KubeConfig,
    readonly transport: KubeTransport,
  ) {}

  static async start(): Promise<LocalCluster> {
    const server = await startLocalApiServer();
    return new LocalCluster(
      server,
      server.url,
      server.kubeConfig,
      new KubeTransport(server.kubeConfig),
    );
  }

  /** Sends a request as the admin and parses the JSON answer. */
  async call(
    method: TransportRequest['method'],
    path: string,
    body?: unknown,
    query?: TransportRequest['query'],
    contentType?: string,
  ): Promise<{ status: number; body: unknown }> {
    const response = await this.transport.request({
      method,
      path,
      ...(body === undefined ? {} : { body }),
      ...(query === undefined ? {} : { query }),
      ...(contentType === undefined ? {} : { contentType }),
    });
    return { status: response.status, body: response.text ? JSON.parse(response.text) : undefined };
  }

  private async ok<T = Record<string, unknown>>(
    method: TransportRequest['method'],
    path: string,
    body?: unknown,
    contentType?: string,
  ): Promise<T> {
    const response = await this.call(method, path, body, undefined, contentType);
    if (response.status >= 300) {
      throw new Error(
        `${method} ${path} answered ${response.status}: ${JSON.stringify(response.body)}`,
      );
    }
    return response.body as T;
  }

  async createNamespace(name: string): Promise<void> {
    await this.ok('POST', '/api/v1/namespaces', { metadata: { name } });
  }

  async createConfigMap(
    namespace: string,
    name: string,
    options: { labels?: Record<string, string>; data?: Record<string, string> } = {},
  ): Promise<KubernetesObject> {
    return this.ok<KubernetesObject>('POST', `/api/v1/namespaces/${namespace}/configmaps`, {
      metadata: { name, ...(options.labels ? { labels: options.labels } : {}) },
      data: options.data ?? {},
    });
  }

  /** Creates many ConfigMaps `prefix-0` ... with bounded concurrency. */
  async createConfigMaps(namespace: string, prefix: string, count: number): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < count) {
        const i = next++;
        await this.createConfigMap(namespace, `${prefix}-${i}`, { data: { i: String(i) } });
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
  }

  async updateConfigMap(
    namespace: string,
    name: string,
    data: Record<string, string>,
  ): Promise<KubernetesObject> {
    return this.ok<KubernetesObject>(
      'PATCH',
      `/api/v1/namespaces/${namespace}/configmaps/${name}`,
      JSON.stringify({ data }),
      'application/merge-patch+json',
    );
  }

  async deleteConfigMap(namespace: string, name: string): Promise<void> {
    await this.ok('DELETE', `/api/v1/namespaces/${namespace}/configmaps/${name}`);
  }

  /** A fresh LIST of the ConfigMaps of a namespace. */
  async listConfigMaps(namespace: string): Promise<KubernetesObject[]> {
    return (
      await this.ok<{ items: KubernetesObject[] }>(
        'GET',
        `/api/v1/namespaces/${namespace}/configmaps`,
      )
    ).items;
  }

  async dropWatches(): Promise<number> {
    return (await this.ok<{ dropped: number }>('POST', '/__ops/drop-watches', {})).dropped;
  }

  /** Restarts the server, losing watch history unless asked, so resuming watches get 410. */
  async restart(keepHistory = false): Promise<void> {
    await this.ok('POST', '/__ops/restart', { keepHistory });
  }

  /**
   * Restarts the server's listener (a kube-apiserver restart over a kept etcd): connections
   * are cut and refused for `downtimeMs`, then the same address serves again, history lost;
   * with `resetStore`, over an emptied store (a wiped etcd). Resolves once it answers again.
   */
  async restartListening(downtimeMs: number, resetStore = false): Promise<void> {
    await this.ok('POST', '/__ops/restart-listening', { downtimeMs, resetStore });
    await new Promise((resolve) => setTimeout(resolve, downtimeMs));
    await eventually(
      () =>
        this.transport.request({ method: 'GET', path: '/readyz' }).then(
          (r) => r.status === 200,
          () => false,
        ),
      'the API server answers again after its restart',
      10_000,
    );
  }

  async addFault(fault: Fault): Promise<void> {
    await this.ok('POST', '/__ops/faults', fault);
  }

  async clearFaults(): Promise<void> {
    await this.ok('DELETE', '/__ops/faults');
  }

  async stop(): Promise<void> {
    this.transport.close();
    await this.server.stop();
  }
}

/** Polls `check` until it returns true, or throws after `timeoutMs` with `message`. */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  message: string | (() => string),
  timeoutMs = 5_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms: ${typeof message === 'string' ? message : message()}`,
      );
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * One local API server for a test file, started before its tests and stopped after them,
 * and the informer caches its tests make (`caches.push`), stopped after each test.
 */
export function localClusterForFile(): { readonly cluster: LocalCluster; caches: InformerCache[] } {
  let started: LocalCluster | undefined;
  const caches: InformerCache[] = [];
  beforeAll(async () => {
    started = await LocalCluster.start();
  });
  afterEach(async () => {
    await Promise.all(caches.splice(0).map((cache) => cache.stop()));
  });
  afterAll(async () => {
    await started?.stop();
  });
  return {
    get cluster(): LocalCluster {
      if (started === undefined)
        throw new Error('the local cluster starts in beforeAll; use it in a test');
      return started;
    },
    caches,
  };
}
