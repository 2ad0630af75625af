/**
 * Test support (not shipped): runs the local API server of `@ops/apiserver` as a child
 * process, from its built CLI, so core tests need not import that package (which depends on
 * core). Rebuild the CLI with `cd packages/apiserver && ./node_modules/.bin/tsup` when
 * `dist/cli.js` is missing.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KubeConfig } from '@kubernetes/client-node';
import {
  KubeTransport,
  type TransportRequest,
  type WatchHandlers,
} from '../client/kube-transport.js';
import type { ResourceDescriptor } from '../client/resource-descriptor.js';
import type { RestMapper } from '../client/rest-mapper.js';
import type { KubernetesObject } from '../meta/kubernetes-object.js';
import type { InformerTransport } from './informer.js';

const cli = resolve(dirname(fileURLToPath(import.meta.url)), '../../../apiserver/dist/cli.js');

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

  watch(path: string, query: TransportRequest['query'], handlers: WatchHandlers) {
    this.watches++;
    return this.inner.watch(path, query, handlers);
  }
}

/** A running local API server and an admin transport to it. */
export class LocalCluster {
  private constructor(
    private readonly child: ChildProcess,
    private readonly dir: string,
    readonly url: string,
    readonly kubeConfig: KubeConfig,
    readonly transport: KubeTransport,
  ) {}

  static async start(): Promise<LocalCluster> {
    if (!existsSync(cli)) {
      throw new Error(
        `${cli} is missing; build it with: cd packages/apiserver && ./node_modules/.bin/tsup`,
      );
    }
    const dir = await mkdtemp(join(tmpdir(), 'ops-core-cache-'));
    const kubeconfigPath = join(dir, 'kubeconfig');
    const child = spawn(
      process.execPath,
      [cli, '--port', '0', '--http', '--kubeconfig', kubeconfigPath],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const url = await new Promise<string>((resolveUrl, reject) => {
      let output = '';
      let served: string | undefined;
      const timer = setTimeout(
        () => reject(new Error(`the local API server did not start: ${output}`)),
        15_000,
      );
      child.stdout?.setEncoding('utf8');
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (chunk: string) => {
        output += chunk;
      });
      child.stdout?.on('data', (chunk: string) => {
        output += chunk;
        served ??= /serving (\S+)/.exec(output)?.[1];
        if (served !== undefined && output.includes('kubeconfig written to')) {
          clearTimeout(timer);
          resolveUrl(served);
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the local API server exited with ${code}: ${output}`));
      });
    });
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(kubeconfigPath);
    return new LocalCluster(child, dir, url, kubeConfig, new KubeTransport(kubeConfig));
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

  async addFault(fault: Fault): Promise<void> {
    await this.ok('POST', '/__ops/faults', fault);
  }

  async clearFaults(): Promise<void> {
    await this.ok('DELETE', '/__ops/faults');
  }

  async stop(): Promise<void> {
    this.transport.close();
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise((done) => this.child.once('exit', done));
      this.child.kill('SIGTERM');
      // The server waits for open requests (an injected delay, say); do not wait for long.
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 2_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(this.dir, { recursive: true, force: true });
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
