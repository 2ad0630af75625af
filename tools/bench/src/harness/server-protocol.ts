import type { ShapeSeeded } from './bench-server.js';
import type { ObjectShape } from './object-shapes.js';

/**
 * The messages between a benchmark and the API server child process it runs
 * ({@link LocalBenchServer} and `server-child.ts`), over Node's IPC channel.
 */

/** What the child is asked to do. */
export type ServerCommand =
  /** Creates `count` realistic Pods (with a Running status) in `namespace` (created if missing). */
  | { op: 'seedPods'; namespace: string; count: number }
  /** Creates ConfigMaps `<prefix>-0` ... in `namespace` (created if missing). */
  | {
      op: 'seedConfigMaps';
      namespace: string;
      prefix: string;
      count: number;
      labels?: Record<string, string>;
    }
  /**
   * Creates `count` objects of `shape` (see `object-shapes.ts`) in `namespace` (created if
   * missing), numbered from `from` (so a namespace can grow in steps).
   */
  | { op: 'seedShape'; shape: ObjectShape; namespace: string; from: number; count: number }
  /** API writes (create, update, patch, delete) handled so far, in total and per resource. */
  | { op: 'writes' }
  /** The store's current resourceVersion (it moves with every change). */
  | { op: 'revision' }
  /** A full garbage collection in the server process, so that none runs during a measurement. */
  | { op: 'collectGarbage' }
  /** Stops the server and exits. */
  | { op: 'stop' };

/** Counts of API writes handled by the server. */
export interface WriteCounts {
  total: number;
  /** By `<namespace>/<plural>` (the namespace is empty for cluster-scoped resources). */
  byResource: Record<string, number>;
}

/** What each command answers. */
export interface ServerAnswers {
  seedPods: { created: number };
  seedConfigMaps: { created: number };
  seedShape: ShapeSeeded;
  writes: WriteCounts;
  revision: { revision: number };
  collectGarbage: { heapUsed: number };
  stop: Record<string, never>;
}

/** A command with its correlation id. */
export type ServerRequest = ServerCommand & { id: number };

/** The child's answer to request `id`. */
export type ServerReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: string };

/** The child's first message: where it serves and the admin kubeconfig. */
export interface ServerReady {
  ready: true;
  url: string;
  kubeconfig: string;
}
