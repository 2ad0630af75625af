import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { type BinaryControlPlane, startBinaryControlPlane } from '@ops/envtest';
import pLimit from 'p-limit';
import {
  type BenchServer,
  type Seeding,
  type ShapeSeeded,
  shapeKind,
  timeSeeding,
} from './bench-server.js';
import { configMapManifest } from './config-map-fixture.js';
import {
  type ObjectShape,
  shapeCreateBody,
  shapeManagedFields,
  shapeManagedFieldsKept,
  shapePlural,
  shapeSecondWrite,
} from './object-shapes.js';
import { podManifest, podStatus } from './pod-fixture.js';
import { RawHttp } from './raw-http.js';
import { writeRequests } from './request-metrics.js';

/** Requests in flight while seeding, unless {@link RealBenchServerOptions} says otherwise. */
export const defaultSeedConcurrency = 32;

/** Options of {@link RealBenchServer.start}. */
export interface RealBenchServerOptions {
  /** Requests in flight while seeding (default {@link defaultSeedConcurrency}). */
  seedConcurrency?: number;
  /** How long etcd and kube-apiserver may take to become healthy (default 120 s). */
  timeoutMs?: number;
  /** kube-apiserver's feature gates (its `--feature-gates`; none by default). */
  featureGates?: Readonly<Record<string, boolean>>;
}

/**
 * Real etcd + kube-apiserver (`@ops/envtest`'s binaries plane: RBAC, a static admin token,
 * HTTPS with a CA of its own, no kube-controller-manager), started from the binaries in an
 * assets directory, as processes of their own. Seeding goes over HTTPS like any client's
 * creates, with a bounded number of requests in flight ({@link RealBenchServerOptions}); a
 * Pod is a create and a merge-patch of its status subresource, since kube-apiserver drops the
 * status of a create. The server writes managedFields on every object, as on any cluster.
 *
 * Stop it with {@link stop}; etcd and kube-apiserver are also killed when this process exits.
 */
export class RealBenchServer implements BenchServer {
  readonly kind = 'real' as const;
  readonly seedings: Seeding[] = [];
  private readonly http: RawHttp;
  private stopped = false;

  private constructor(
    private readonly plane: BinaryControlPlane,
    private readonly dir: string,
    readonly url: string,
    readonly kubeconfig: string,
    readonly kubeconfigPath: string,
    private readonly seedConcurrency: number,
  ) {
    this.http = new RawHttp(this);
  }

  /**
   * Starts etcd and kube-apiserver from `assetsDirectory` (a `KUBEBUILDER_ASSETS` layout)
   * and resolves once kube-apiserver is ready.
   *
   * @throws {Error} naming a missing binary, or quoting the last log lines of a process that
   *   exited or did not become healthy in time; or when `seedConcurrency` is not a whole
   *   number of at least 1.
   */
  static async start(
    assetsDirectory: string,
    options: RealBenchServerOptions = {},
  ): Promise<RealBenchServer> {
    const seedConcurrency = options.seedConcurrency ?? defaultSeedConcurrency;
    if (!Number.isInteger(seedConcurrency) || seedConcurrency < 1)
      throw new Error(`seedConcurrency must be a whole number >= 1, got ${seedConcurrency}`);
    const plane = await startBinaryControlPlane(assetsDirectory, {
      timeoutMs: options.timeoutMs ?? 120_000,
      ...(options.featureGates ? { featureGates: options.featureGates } : {}),
    });
    try {
      const config = new KubeConfig();
      config.loadFromString(plane.kubeconfig);
      const url = config.getCurrentCluster()?.server;
      if (url === undefined) throw new Error('the control plane gave a kubeconfig without server');
      const dir = await mkdtemp(join(tmpdir(), 'ops-bench-real-'));
      const kubeconfigPath = join(dir, 'kubeconfig');
      await writeFile(kubeconfigPath, plane.kubeconfig, { mode: 0o600 });
      return new RealBenchServer(
        plane,
        dir,
        url,
        plane.kubeconfig,
        kubeconfigPath,
        seedConcurrency,
      );
    } catch (error) {
      await plane.stop();
      throw error;
    }
  }

  kubeConfig(): KubeConfig {
    const config = new KubeConfig();
    config.loadFromString(this.kubeconfig);
    return config;
  }

  get apiServerPid(): number | undefined {
    return this.plane.apiServerPid;
  }

  private async ensureNamespace(name: string): Promise<void> {
    try {
      await this.http.get(`/api/v1/namespaces/${name}`);
    } catch {
      await this.http.send('POST', '/api/v1/namespaces', { metadata: { name } });
    }
  }

  /** Runs `each(0)` ... `each(count - 1)` with at most the seeding concurrency in flight. */
  private async seed(count: number, each: (index: number) => Promise<void>): Promise<void> {
    const limit = pLimit(this.seedConcurrency);
    await Promise.all(Array.from({ length: count }, (_, index) => limit(() => each(index))));
  }

  async seedPods(namespace: string, count: number): Promise<void> {
    const pods = `/api/v1/namespaces/${namespace}/pods`;
    const what = { kind: 'Pods', namespace, objects: count, requests: 2 * count };
    await timeSeeding(this.seedings, what, async () => {
      await this.ensureNamespace(namespace);
      await this.seed(count, async (index) => {
        const created = (await this.http.send('POST', pods, podManifest(namespace, index))) as {
          metadata: { name: string };
        };
        await this.http.send(
          'PATCH',
          `${pods}/${created.metadata.name}/status`,
          { status: podStatus(index) },
          'application/merge-patch+json',
        );
      });
    });
  }

  async seedConfigMaps(
    namespace: string,
    prefix: string,
    count: number,
    labels?: Record<string, string>,
  ): Promise<void> {
    const what = { kind: 'ConfigMaps', namespace, objects: count, requests: count };
    await timeSeeding(this.seedings, what, async () => {
      await this.ensureNamespace(namespace);
      await this.seed(count, async (index) => {
        const path = `/api/v1/namespaces/${namespace}/configmaps`;
        await this.http.send('POST', path, configMapManifest(prefix, index, labels));
      });
    });
  }

  async seedShape(
    shape: ObjectShape,
    namespace: string,
    from: number,
    count: number,
  ): Promise<ShapeSeeded> {
    const plural = shapePlural(shape);
    const path = `/api/v1/namespaces/${namespace}/${plural}`;
    const requests = shapeSecondWrite(shape) ? 2 * count : count;
    const what = { kind: shapeKind(shape), namespace, objects: count, requests };
    let managedFieldsKept = false;
    await timeSeeding(this.seedings, what, async () => {
      await this.ensureNamespace(namespace);
      await this.seed(count, async (offset) => {
        const index = from + offset;
        const created = (await this.http.send(
          'POST',
          path,
          shapeCreateBody(shape, namespace, index),
        )) as { metadata: Record<string, unknown> & { name: string } };
        let stored: unknown = created;
        if (shape === 'pods') {
          await this.http.send(
            'PATCH',
            `${path}/${created.metadata.name}/status`,
            { status: podStatus(index) },
            'application/merge-patch+json',
          );
        } else if (shape === 'managed-fields') {
          // A create drops the managedFields it is given; a replace keeps them (see shapeCreateBody).
          stored = await this.http.send('PUT', `${path}/${created.metadata.name}`, {
            ...created,
            metadata: {
              ...created.metadata,
              managedFields: shapeManagedFields(shape, namespace, index),
            },
          });
        }
        if (offset === 0) managedFieldsKept = shapeManagedFieldsKept(shape, stored);
      });
    });
    return { created: count, managedFieldsKept };
  }

  /**
   * Write requests for `plural` from kube-apiserver's `apiserver_request_total`, which has no
   * namespace label: every namespace counts (the benchmark's own server holds only its
   * objects; kube-apiserver writes no ConfigMaps or Pods of its own once started), seeding
   * included.
   */
  async writes(_namespace: string, plural: string): Promise<number> {
    return writeRequests((await this.http.get('/metrics', 'text/plain')).toString('utf8'), plural);
  }

  /**
   * The number of objects of `plural` in `namespace` and their highest resourceVersion: a
   * create or an update raises the latter, a delete lowers the former. (The list's own
   * resourceVersion would not do: kube-apiserver's lease renewals move it all the time.)
   */
  async revision(namespace: string, plural: string): Promise<string> {
    const list = JSON.parse(
      (await this.http.get(`/api/v1/namespaces/${namespace}/${plural}`)).toString('utf8'),
    ) as { items: Array<{ metadata: { resourceVersion: string } }> };
    let highest = 0n;
    for (const item of list.items) {
      const version = BigInt(item.metadata.resourceVersion);
      if (version > highest) highest = version;
    }
    return `${list.items.length}:${highest}`;
  }

  /**
   * A Go garbage collection in kube-apiserver: its profiling endpoint
   * (`/debug/pprof/heap?gc=1`, on by default) collects before it takes the heap profile,
   * which is discarded. Resolves with `undefined`: the heap is not read.
   */
  async collectGarbage(): Promise<undefined> {
    await this.http.get('/debug/pprof/heap?gc=1', '*/*');
    return undefined;
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.http.close();
    await this.plane.stop();
    await rm(this.dir, { recursive: true, force: true });
  }
}
