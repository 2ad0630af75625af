import type { KubeConfig } from '@kubernetes/client-node';
import type { ObjectShape } from './object-shapes.js';

/**
 * Which API server a run measures against: `local` is `@ops/apiserver` in a child process
 * (the default, needs nothing but Node.js); `real` is etcd + kube-apiserver started from the
 * real binaries (`@ops/envtest`'s binaries plane).
 */
export type ServerKind = 'local' | 'real';

/** The server kinds `--server` accepts. */
export const serverKinds: readonly ServerKind[] = ['local', 'real'];

/** What {@link BenchServer.seedShape} found out. */
export interface ShapeSeeded {
  created: number;
  /**
   * Whether the server kept the managedFields the objects were created with (false when it
   * drops them, or when the shape has none).
   */
  managedFieldsKept: boolean;
}

/** One seeding a benchmark asked of a server: what, how many objects and how long it took. */
export interface Seeding {
  /** `Pods` or `ConfigMaps`. */
  kind: string;
  namespace: string;
  objects: number;
  /** API requests it took (a Pod is a create and a status write). */
  requests: number;
  ms: number;
}

/** Seedings merged by {@link mergeSeedings}: how many namespaces they filled. */
export type MergedSeeding<T extends Seeding> = T & { namespaces: number };

/**
 * Merges each run of consecutive seedings that spread objects over namespaces (same kind,
 * same number of objects, each into a namespace of its own, and alike for `sameGroup`) into
 * one: objects, requests and time summed, namespaces counted. Order is kept; a seeding that
 * starts no such run stays as it is, counting one namespace.
 */
export function mergeSeedings<T extends Seeding>(
  seedings: readonly T[],
  sameGroup: (a: T, b: T) => boolean = () => true,
): Array<MergedSeeding<T>> {
  const merged: Array<{ seeding: MergedSeeding<T>; each: T; seen: Set<string> }> = [];
  for (const seeding of seedings) {
    const last = merged.at(-1);
    if (
      last !== undefined &&
      last.each.kind === seeding.kind &&
      last.each.objects === seeding.objects &&
      !last.seen.has(seeding.namespace) &&
      sameGroup(last.each, seeding)
    ) {
      last.seeding.objects += seeding.objects;
      last.seeding.requests += seeding.requests;
      last.seeding.ms += seeding.ms;
      last.seeding.namespaces++;
      last.seen.add(seeding.namespace);
    } else {
      merged.push({
        seeding: { ...seeding, namespaces: 1 },
        each: seeding,
        seen: new Set([seeding.namespace]),
      });
    }
  }
  return merged.map((entry) => entry.seeding);
}

/**
 * An API server a benchmark runs against, started for it alone (so it sees no other
 * benchmark's objects or history), in processes of its own so that the server's CPU time and
 * heap are not charged to the library measured in the bench process. The local and the real
 * server implement it ({@link ServerKind}); every library of one benchmark is measured
 * against the same instance.
 */
export interface BenchServer {
  readonly kind: ServerKind;
  /** `http(s)://127.0.0.1:<port>`. */
  readonly url: string;
  /** The admin kubeconfig, as YAML text. */
  readonly kubeconfig: string;
  /** Where that kubeconfig is written (for libraries that read `KUBECONFIG`). */
  readonly kubeconfigPath: string;
  /** Every seeding done so far, in order, with its duration. */
  readonly seedings: readonly Seeding[];
  /** A fresh client-node `KubeConfig` of the admin user. */
  kubeConfig(): KubeConfig;
  /**
   * The API server's process id, to sample its memory: kube-apiserver's on the real server;
   * undefined where there is none to measure apart (the local server).
   */
  readonly apiServerPid?: number | undefined;
  /**
   * Creates `count` realistic Pods (Running, about 3 KB of JSON each before any
   * managedFields the server adds) in `namespace`, creating the namespace when missing.
   */
  seedPods(namespace: string, count: number): Promise<void>;
  /**
   * Creates ConfigMaps `<prefix>-0` ... `<prefix>-<count-1>` in `namespace` (created when
   * missing), with `labels` when given.
   */
  seedConfigMaps(
    namespace: string,
    prefix: string,
    count: number,
    labels?: Record<string, string>,
  ): Promise<void>;
  /**
   * Creates objects `from` ... `from + count - 1` of `shape` in `namespace` (created when
   * missing): Pods get their Running status as in {@link seedPods}.
   */
  seedShape(
    shape: ObjectShape,
    namespace: string,
    from: number,
    count: number,
  ): Promise<ShapeSeeded>;
  /**
   * Write requests (create, update, patch, apply, delete) the server has handled for the
   * core-group resource `plural` (e.g. `configmaps`), also no-op updates. Compare two
   * readings; the absolute number includes seeding on some servers.
   */
  writes(namespace: string, plural: string): Promise<number>;
  /**
   * A token that changes whenever an object of the core-group resource `plural` in
   * `namespace` is created, changed or deleted (it may also change on other changes).
   */
  revision(namespace: string, plural: string): Promise<string>;
  /**
   * Runs a full garbage collection in the server process: call it before a timed run so
   * that the server's collector, cleaning up after the previous run, does not slow the next.
   * Resolves with the server's heap in use afterwards where the server tells it.
   */
  collectGarbage(): Promise<number | undefined>;
  /** Stops the server and waits until its processes have exited; idempotent. */
  stop(): Promise<void>;
}

/** What a benchmark may ask of a fresh server. */
export interface ServerStartOptions {
  /**
   * A simulated cluster that runs Deployments and Pods, which only the local server has (a
   * real server refuses).
   */
  cluster?: boolean;
  /**
   * kube-apiserver's feature gates (its `--feature-gates`), e.g. `{ ShardedListAndWatch: true }`
   * on 1.36+. The local server has none of these features and starts as it always does, as a
   * kube-apiserver with the gates off would serve.
   */
  featureGates?: Readonly<Record<string, boolean>>;
}

/**
 * What a client needs to reach a {@link BenchServer}: also what a child process measuring
 * one library gets of it.
 */
export type ServerEndpoint = Pick<BenchServer, 'url' | 'kubeconfigPath' | 'kubeConfig'>;

/**
 * Runs `seed` and appends `what` with the time it took to `seedings` (for the
 * {@link BenchServer.seedings} of an implementation).
 */
export async function timeSeeding(
  seedings: Seeding[],
  what: Omit<Seeding, 'ms'>,
  seed: () => Promise<unknown>,
): Promise<void> {
  const start = performance.now();
  await seed();
  seedings.push({ ...what, ms: performance.now() - start });
}

/** How a seeding of `shape` is named in the report's seeding line. */
export function shapeKind(shape: ObjectShape): string {
  if (shape === 'pods') return 'Pods';
  return shape === 'configmaps' ? 'Helm ConfigMaps' : 'ConfigMaps with managedFields';
}
