import {
  type KubernetesObject as ClientNodeObject,
  CoreV1Api,
  makeInformer,
} from '@kubernetes/client-node';
import { Informer } from '@ops/core/cache';
import { BodyTooLongError, KubeTransport, type ResourceDescriptor } from '@ops/core/client';
import type { ServerEndpoint } from './bench-server.js';

/** The Pods resource, as `@ops/core` describes resources. */
export const podsDescriptor: ResourceDescriptor = {
  group: '',
  version: 'v1',
  kind: 'Pod',
  plural: 'pods',
  namespaced: true,
};

/** The ConfigMaps resource, as `@ops/core` describes resources. */
export const configMapsDescriptor: ResourceDescriptor = {
  group: '',
  version: 'v1',
  kind: 'ConfigMap',
  plural: 'configmaps',
  namespaced: true,
};

/** The core-group resources the variants cache. */
export type CachedPlural = 'pods' | 'configmaps';

/** A cache that has synced: how long it took, what it holds, and how to stop it. */
export interface SyncedCache {
  /** Milliseconds from starting the informer (or watch) until every object was in its cache. */
  ms: number;
  /** Objects in the cache now. */
  objects(): number;
  /**
   * Resolves once the cache's memory is at its steady state (background work after sync,
   * such as the ops informer sharing repeated strings); absent when there is none.
   */
  settle?(): Promise<void>;
  /** Stops watching and releases connections. */
  stop(): Promise<void>;
}

/** An object as an update listener sees it: what the event-burst benchmark reads. */
export interface UpdatedObject {
  metadata?: { annotations?: Record<string, string> | undefined } | undefined;
}

/**
 * Called with the new state of each object the watch reports modified, synchronously, from
 * the library's own update event (ops `onUpdate`, client-node `update`, fluent `MODIFIED`).
 */
export type UpdateListener = (object: UpdatedObject) => void;

/**
 * One way of listing and watching a namespace's Pods into memory: `@ops/core` or a peer
 * library, each used as its documentation shows, with its defaults.
 */
export interface CacheVariant {
  id: string;
  label: string;
  /**
   * Starts caching `namespace` and resolves once `expected` objects are cached; from then
   * on (registered before it starts) `onUpdate` hears of every modified object.
   *
   * @throws {Error} when it fails or does not get there within `timeoutMs`.
   */
  sync(
    server: ServerEndpoint,
    namespace: string,
    expected: number,
    timeoutMs?: number,
    onUpdate?: UpdateListener,
  ): Promise<SyncedCache>;
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} did not sync within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * `@ops/core`'s `Informer` with its defaults (WatchList where the server streams lists, else
 * a paged LIST of 1,000, then WATCH); `watchList: false` forces the paged LIST, `compression`
 * sets its transport's gzip (default: the transport's, off on loopback); with `metadataOnly`,
 * its metadata-only form (PartialObjectMetadata, id `ops-metadata`).
 */
export function opsInformerVariant(
  options: {
    pageSize?: number;
    label?: string;
    plural?: CachedPlural;
    id?: string;
    watchList?: boolean;
    compression?: boolean;
    metadataOnly?: boolean;
  } = {},
): CacheVariant {
  const pageSize = options.pageSize;
  const descriptor = options.plural === 'configmaps' ? configMapsDescriptor : podsDescriptor;
  const metadataOnly = options.metadataOnly === true;
  return {
    id:
      options.id ??
      `${metadataOnly ? 'ops-metadata' : 'ops'}${pageSize === undefined ? '' : `-page-${pageSize}`}`,
    label: options.label ?? '@ops/core Informer',
    async sync(server, namespace, expected, timeoutMs = 120_000, onUpdate) {
      const transport = new KubeTransport(
        server.kubeConfig(),
        options.compression === undefined ? {} : { compression: options.compression },
      );
      // A list too long for one string fails the same way on every retry: give up at once,
      // with the informer's error, as the peers do on it.
      const tooLong = Promise.withResolvers<never>();
      tooLong.promise.catch(() => undefined);
      const informer = new Informer({
        transport,
        descriptor,
        namespace,
        ...(pageSize === undefined ? {} : { pageSize }),
        ...(options.watchList === undefined ? {} : { watchList: options.watchList }),
        ...(metadataOnly ? { metadataOnly } : {}),
        onError: (error) => {
          if (BodyTooLongError.isInstance(error.cause)) tooLong.reject(error);
        },
      });
      if (onUpdate !== undefined)
        informer.addEventHandler({ onUpdate: (_old, object) => onUpdate(object) });
      const start = performance.now();
      informer.start();
      try {
        await Promise.race([informer.waitForSync(timeoutMs), tooLong.promise]);
      } catch (error) {
        await informer.stop();
        transport.close();
        throw error;
      }
      const ms = performance.now() - start;
      if (informer.objectCount() !== expected) {
        await informer.stop();
        transport.close();
        throw new Error(`the ops informer synced ${informer.objectCount()} of ${expected} Pods`);
      }
      return {
        ms,
        objects: () => informer.objectCount(),
        settle: () => informer.idle(),
        stop: async () => {
          await informer.stop();
          transport.close();
        },
      };
    },
  };
}

/**
 * `@kubernetes/client-node`'s `makeInformer` over `CoreV1Api.listNamespacedPod` (or
 * `listNamespacedConfigMap`).
 */
export function clientNodeInformer(plural: CachedPlural = 'pods'): CacheVariant {
  return {
    id: 'client-node',
    label: '@kubernetes/client-node informer',
    async sync(server, namespace, expected, timeoutMs = 120_000, onUpdate) {
      const kubeConfig = server.kubeConfig();
      const api = kubeConfig.makeApiClient(CoreV1Api);
      const informer = makeInformer<ClientNodeObject>(
        kubeConfig,
        `/api/v1/namespaces/${namespace}/${plural}`,
        plural === 'pods'
          ? () => api.listNamespacedPod({ namespace })
          : () => api.listNamespacedConfigMap({ namespace }),
      );
      let added = 0;
      const synced = Promise.withResolvers<number>();
      informer.on('add', () => {
        added++;
        if (added === expected) synced.resolve(performance.now());
      });
      if (onUpdate !== undefined) informer.on('update', onUpdate);
      informer.on('error', (error: unknown) =>
        synced.reject(error instanceof Error ? error : new Error(String(error))),
      );
      const start = performance.now();
      const started = informer.start();
      started.catch((error: unknown) =>
        synced.reject(error instanceof Error ? error : new Error(String(error))),
      );
      try {
        const end = await withTimeout(synced.promise, timeoutMs, 'the client-node informer');
        // Timed up to the last add; its start() also waits for the watch to connect.
        await started;
        return {
          ms: end - start,
          objects: () => informer.list().length,
          stop: () => informer.stop(),
        };
      } catch (error) {
        await informer.stop();
        throw error;
      }
    },
  };
}

/** {@link clientNodeInformer} of Pods. */
export const clientNodeInformerVariant: CacheVariant = clientNodeInformer('pods');

/**
 * `kubernetes-fluent-client`'s `K8s(kind.Pod).Watch(callback)`: its initial list calls the
 * callback once per object. It reads its configuration from `KUBECONFIG` (set here to the
 * bench server's kubeconfig; the library offers no other way).
 */
export function fluentWatch(plural: CachedPlural = 'pods'): CacheVariant {
  return {
    id: 'fluent',
    label: 'kubernetes-fluent-client Watch',
    async sync(server, namespace, expected, timeoutMs = 120_000, onUpdate) {
      process.env.KUBECONFIG = server.kubeconfigPath;
      const { K8s, kind, WatchEvent } = await import('kubernetes-fluent-client');
      const uids = new Set<string>();
      const synced = Promise.withResolvers<number>();
      const onObject = (
        object: { metadata?: { uid?: string; annotations?: Record<string, string> } },
        // Its WatchPhase enum is not exported; its values are the watch event types.
        phase: string,
      ) => {
        if (phase === 'MODIFIED') onUpdate?.(object);
        uids.add(object.metadata?.uid ?? '');
        if (uids.size === expected) synced.resolve(performance.now());
      };
      const options = { resyncDelaySec: 60, relistIntervalSec: 3600, lastSeenLimitSeconds: 3600 };
      const watcher =
        plural === 'pods'
          ? K8s(kind.Pod, { namespace }).Watch(onObject, options)
          : K8s(kind.ConfigMap, { namespace }).Watch(onObject, options);
      watcher.events.on(WatchEvent.LIST_ERROR, (error: unknown) =>
        synced.reject(error instanceof Error ? error : new Error(String(error))),
      );
      const start = performance.now();
      const started = watcher.start();
      started.catch((error: unknown) =>
        synced.reject(error instanceof Error ? error : new Error(String(error))),
      );
      try {
        const end = await withTimeout(
          synced.promise,
          timeoutMs,
          'the kubernetes-fluent-client watch',
        );
        // Timed up to the last callback; its start() also waits for the watch to connect.
        await started;
        return {
          ms: end - start,
          objects: () => uids.size,
          stop: async () => watcher.close(),
        };
      } catch (error) {
        watcher.close();
        throw error;
      }
    },
  };
}

/** {@link fluentWatch} of Pods. */
export const fluentWatchVariant: CacheVariant = fluentWatch('pods');
