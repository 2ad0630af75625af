import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import {
  type BenchServer,
  type Seeding,
  type ServerStartOptions,
  type ShapeSeeded,
  shapeKind,
  timeSeeding,
} from './bench-server.js';
import { type ObjectShape, shapeSecondWrite } from './object-shapes.js';
import { packageRoot } from './package-root.js';
import type { ServerAnswers, ServerCommand, ServerReady, ServerReply } from './server-protocol.js';

/**
 * The server's kubeconfig with its cluster marked `insecure-skip-tls-verify`: meaningless
 * over plain HTTP, but `@kubernetes/client-node` (and so kubernetes-fluent-client) refuses an
 * `http://` server without it.
 */
function plainHttpKubeconfig(text: string): string {
  const original = new KubeConfig();
  original.loadFromString(text);
  const config = new KubeConfig();
  config.loadFromOptions({
    clusters: original.getClusters().map((cluster) => ({ ...cluster, skipTLSVerify: true })),
    users: original.getUsers(),
    contexts: original.getContexts(),
    currentContext: original.getCurrentContext(),
  });
  return config.exportConfig();
}

/** The built child entry (`tsup` builds it; the test setup builds it before the suite). */
export const serverChildPath = join(packageRoot, 'dist', 'server-child.js');

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/**
 * The local API server (`@ops/apiserver`, plain HTTP, no simulated cluster unless asked) in a
 * child process, so that its CPU and heap are its own: what a benchmark measures in this
 * process is the client side only. Seeding objects happens inside the child, without HTTP:
 * through the server's resource service (the same code path as an API create), or for
 * {@link seedShape} carried over into its store (`bulk-seed.ts`), and goes around the write
 * counter of {@link writes}.
 *
 * Stop it with {@link stop}; it also exits when this process does.
 */
export class LocalBenchServer implements BenchServer {
  readonly kind = 'local' as const;
  readonly seedings: Seeding[] = [];
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private exited = false;

  private constructor(
    private readonly child: ChildProcess,
    private readonly dir: string,
    /** `http://127.0.0.1:<port>`. */
    readonly url: string,
    /** The admin kubeconfig, as YAML text. */
    readonly kubeconfig: string,
    /** Where that kubeconfig is written (for libraries that read `KUBECONFIG`). */
    readonly kubeconfigPath: string,
  ) {
    child.on('message', (message: ServerReply) => {
      const waiter = this.pending.get(message.id);
      if (waiter === undefined) return;
      this.pending.delete(message.id);
      if (message.ok) waiter.resolve(message.result);
      else waiter.reject(new Error(`the bench API server failed: ${message.error}`));
    });
    child.once('exit', (code, signal) => {
      this.exited = true;
      const error = new Error(`the bench API server exited (code ${code}, signal ${signal})`);
      for (const waiter of this.pending.values()) waiter.reject(error);
      this.pending.clear();
    });
  }

  /**
   * Starts the child and resolves once it serves (with the simulated cluster when `cluster`;
   * `featureGates` are kube-apiserver's, which this server has none of).
   *
   * @throws {Error} when the child entry is not built, or the server does not come up in 20 s.
   */
  static async start(options: ServerStartOptions = {}): Promise<LocalBenchServer> {
    if (!existsSync(serverChildPath)) {
      throw new Error(
        `${serverChildPath} is missing; build the bench first: pnpm turbo build --filter=@ops/bench...`,
      );
    }
    const child = fork(serverChildPath, [], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      // 150,000 Pods (the matrix at 100,000 with 50,000 elsewhere) take about 2.5 GB of heap.
      execArgv: ['--max-old-space-size=8192'],
      env: { ...process.env, OPS_BENCH_CLUSTER: options.cluster ? '1' : '0' },
    });
    const ready = await new Promise<ServerReady>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error('the bench API server did not start within 20 s'));
      }, 20_000);
      child.once('message', (message: ServerReady) => {
        clearTimeout(timer);
        resolve(message);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the bench API server exited with ${code} before serving`));
      });
    });
    const kubeconfig = plainHttpKubeconfig(ready.kubeconfig);
    const dir = await mkdtemp(join(tmpdir(), 'ops-bench-'));
    const kubeconfigPath = join(dir, 'kubeconfig');
    await writeFile(kubeconfigPath, kubeconfig);
    return new LocalBenchServer(child, dir, ready.url, kubeconfig, kubeconfigPath);
  }

  kubeConfig(): KubeConfig {
    const config = new KubeConfig();
    config.loadFromString(this.kubeconfig);
    return config;
  }

  private call<Op extends ServerCommand['op']>(
    command: Extract<ServerCommand, { op: Op }>,
  ): Promise<ServerAnswers[Op]> {
    if (this.exited) return Promise.reject(new Error('the bench API server has exited'));
    const id = this.nextId++;
    return new Promise<ServerAnswers[Op]>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.child.send({ ...command, id });
    });
  }

  async seedPods(namespace: string, count: number): Promise<void> {
    // Inside the child each Pod is a create and a status update, without HTTP.
    const what = { kind: 'Pods', namespace, objects: count, requests: 2 * count };
    await timeSeeding(this.seedings, what, () => this.call({ op: 'seedPods', namespace, count }));
  }

  async seedConfigMaps(
    namespace: string,
    prefix: string,
    count: number,
    labels?: Record<string, string>,
  ): Promise<void> {
    const what = { kind: 'ConfigMaps', namespace, objects: count, requests: count };
    await timeSeeding(this.seedings, what, () =>
      this.call({ op: 'seedConfigMaps', namespace, prefix, count, ...(labels ? { labels } : {}) }),
    );
  }

  async seedShape(
    shape: ObjectShape,
    namespace: string,
    from: number,
    count: number,
  ): Promise<ShapeSeeded> {
    const requests = shapeSecondWrite(shape) ? 2 * count : count;
    const what = { kind: shapeKind(shape), namespace, objects: count, requests };
    let seeded: ShapeSeeded = { created: 0, managedFieldsKept: false };
    await timeSeeding(this.seedings, what, async () => {
      seeded = await this.call({ op: 'seedShape', shape, namespace, from, count });
    });
    return seeded;
  }

  /** API write requests the server has handled for `plural` in `namespace` (seeding excluded). */
  async writes(namespace: string, plural: string): Promise<number> {
    return (await this.call({ op: 'writes' })).byResource[`${namespace}/${plural}`] ?? 0;
  }

  /** The store's current resourceVersion, which moves with every change to any object. */
  async revision(): Promise<string> {
    return String((await this.call({ op: 'revision' })).revision);
  }

  /**
   * Runs a full garbage collection in the server process and resolves with its heap in use
   * afterwards.
   */
  async collectGarbage(): Promise<number> {
    return (await this.call({ op: 'collectGarbage' })).heapUsed;
  }

  /** Stops the server and waits for the child to exit (killing it after 5 s). */
  async stop(): Promise<void> {
    if (!this.exited) {
      const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
      await this.call({ op: 'stop' }).catch(() => undefined);
      await exited;
      clearTimeout(timer);
    }
    await rm(this.dir, { recursive: true, force: true });
  }
}
