import type { KubernetesObject } from '@ops/api';
import { objectKey } from '../registry/resource-type.js';
import { ApiServer } from '../server/api-server.js';
import type { RequestContext } from '../server/handlers/resource-service.js';
import type { ClusterOptions } from './cluster-options.js';
import type { SimulatedCluster } from './simulated-cluster.js';

/** The admin user of the cluster tests. */
export const admin: RequestContext = { user: { name: 'admin', groups: ['system:masters'] } };

/** A running API server with its simulated cluster, for one test file. */
export interface ClusterFixture {
  server: ApiServer;
  cluster: SimulatedCluster;
  /** Creates an object as admin. */
  create(
    group: string,
    plural: string,
    namespace: string,
    body: KubernetesObject,
  ): Promise<KubernetesObject>;
  /** The stored object, or undefined. */
  get(group: string, plural: string, namespace: string, name: string): KubernetesObject | undefined;
  /** The stored objects of a resource in a namespace (all namespaces when empty). */
  list(group: string, plural: string, namespace?: string): KubernetesObject[];
  /** Merge-patches an object as admin. */
  patch(
    group: string,
    plural: string,
    namespace: string,
    name: string,
    patch: unknown,
    subresource?: string,
  ): Promise<KubernetesObject>;
  /** Deletes an object as admin. */
  remove(
    group: string,
    plural: string,
    namespace: string,
    name: string,
    options?: Record<string, unknown>,
  ): Promise<KubernetesObject>;
  stop(): Promise<void>;
}

/** Starts a plain-HTTP server on a free port with its simulated cluster (options as given). */
export async function startClusterFixture(
  options: boolean | ClusterOptions = {},
): Promise<ClusterFixture> {
  const server = await ApiServer.start({ https: false, cluster: options });
  const cluster = server.cluster;
  const type = (group: string, plural: string) => {
    const found = server.registry.findAnyVersion(group, plural);
    if (found === undefined) throw new Error(`no resource ${group}/${plural}`);
    return found;
  };
  return {
    server,
    cluster,
    create: (group, plural, namespace, body) =>
      server.resources.create(type(group, plural), namespace, body, admin),
    get: (group, plural, namespace, name) =>
      server.store.get(`${group}/${plural}`, objectKey(namespace || undefined, name))?.object,
    list: (group, plural, namespace) =>
      server.store
        .list(`${group}/${plural}`)
        .filter((s) => !namespace || s.key.startsWith(`${namespace}/`))
        .map((s) => s.object),
    patch: (group, plural, namespace, name, patch, subresource = '') =>
      server.resources.patch(
        type(group, plural),
        namespace,
        name,
        'merge',
        patch,
        subresource,
        admin,
      ),
    remove: (group, plural, namespace, name, options = {}) =>
      server.resources.delete(type(group, plural), namespace, name, options, admin),
    stop: () => server.stop(),
  };
}

/**
 * Polls `check` until it returns without throwing and with a value other than false or
 * undefined; resolves with that value. Rejects with the last failure after `timeoutMs`.
 */
export async function eventually<T>(
  check: () => T | Promise<T>,
  timeoutMs = 5_000,
  intervalMs = 10,
): Promise<Exclude<T, false | undefined>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== false && value !== undefined) return value as Exclude<T, false | undefined>;
      last = new Error(`condition not met: ${String(value)}`);
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw last;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Waits `ms` milliseconds. */
export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/** A Deployment of `replicas` Pods running `image`, labelled `app: name`. */
export function deployment(
  name: string,
  replicas: number,
  image = 'nginx:1.27',
  extra: Record<string, unknown> = {},
): KubernetesObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [{ name: 'web', image, ports: [{ name: 'http', containerPort: 8080 }] }],
        },
      },
      ...extra,
    },
  };
}

/** A ConfigMap, optionally with owner references and finalizers. */
export function configMap(name: string, metadata: Record<string, unknown> = {}): KubernetesObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...metadata }, data: { a: '1' } };
}

/** One event of a watch, as the server streamed it. */
export interface WatchedEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: KubernetesObject;
}

/** A running watch of {@link watchEvents}: the events so far, and how to end it. */
export interface WatchRecording {
  readonly events: WatchedEvent[];
  stop(): void;
}

/**
 * Watches `path` (e.g. `/api/v1/namespaces/default/pods`) over HTTP as the admin, from now,
 * and records every event the server sends until `stop()`. Resolves once the watch is open.
 */
export async function watchEvents(server: ApiServer, path: string): Promise<WatchRecording> {
  const abort = new AbortController();
  const events: WatchedEvent[] = [];
  const response = await fetch(`${server.url}${path}?watch=true`, {
    headers: { Authorization: `Bearer ${server.adminToken}` },
    signal: abort.signal,
  });
  if (!response.ok || response.body === null)
    throw new Error(`watch of ${path} answered ${response.status}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffered = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffered += value;
        let newline = buffered.indexOf('\n');
        while (newline !== -1) {
          const line = buffered.slice(0, newline).trim();
          buffered = buffered.slice(newline + 1);
          if (line !== '') events.push(JSON.parse(line) as WatchedEvent);
          newline = buffered.indexOf('\n');
        }
      }
    } catch {
      // Aborted by stop().
    }
  })();
  return { events, stop: () => abort.abort() };
}
