import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './package-root.js';
import type {
  ReconcileSample,
  ShardChildMessage,
  ShardParentMessage,
  ShardReplicaJob,
} from './shard-protocol.js';

/** The built replica entry (`tsup` builds it; the test setup builds it before the suite). */
export const shardReplicaChildPath = join(packageRoot, 'dist', 'shard-replica-child.js');

/**
 * One replica of the sharded-scale-out benchmark: a forked process running a Manager with
 * the sharded controller (`shard-replica-child.ts`). Its questions are asked one at a time.
 */
export class ShardReplica {
  private readonly waiting = new Map<string, (message: ShardChildMessage) => void>();
  private failure: string | undefined;

  private constructor(
    private readonly child: ChildProcess,
    readonly identity: string,
  ) {
    child.on('message', (message: ShardChildMessage) => {
      if (message.type === 'failed') this.failure = message.error;
      const wake = this.waiting.get(message.type);
      this.waiting.delete(message.type);
      wake?.(message);
    });
    child.once('exit', (code, signal) => {
      this.failure ??= `exited (code ${code}, signal ${signal})`;
      for (const wake of this.waiting.values()) wake({ type: 'failed', error: this.failure });
      this.waiting.clear();
    });
  }

  /**
   * Forks a replica and resolves once its manager started.
   *
   * @throws {Error} when the entry is not built or the process fails before it started.
   */
  static async start(job: ShardReplicaJob): Promise<ShardReplica> {
    if (!existsSync(shardReplicaChildPath))
      throw new Error(
        `${shardReplicaChildPath} is missing; build the bench first: pnpm turbo build --filter=@ops/bench...`,
      );
    const child = fork(shardReplicaChildPath, [JSON.stringify(job)], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      execArgv: ['--expose-gc', '--max-old-space-size=4096'],
    });
    const replica = new ShardReplica(child, job.identity);
    await replica.answer('started', undefined);
    return replica;
  }

  /** How many objects of `round` it has reconciled. */
  async count(round: string): Promise<number> {
    const answer = await this.answer('count', { type: 'count', round });
    return answer.type === 'count' ? answer.count : 0;
  }

  /** The first reconcile of each object of `round` it reconciled. */
  async samples(round: string): Promise<ReconcileSample[]> {
    const answer = await this.answer('samples', { type: 'samples', round });
    return answer.type === 'samples' ? answer.samples : [];
  }

  /** Its heap after a full collection and its resident set, in bytes. */
  async memory(): Promise<{ heapUsed: number; rss: number }> {
    const answer = await this.answer('memory', { type: 'memory' });
    return answer.type === 'memory' ? answer : { heapUsed: Number.NaN, rss: Number.NaN };
  }

  /** Holds every reconcile at its start from now on, until {@link resume}. */
  async pause(): Promise<void> {
    await this.answer('paused', { type: 'pause' });
  }

  /** Lets the held reconciles, and every later one, run. */
  async resume(): Promise<void> {
    await this.answer('resumed', { type: 'resume' });
  }

  /** Requests waiting in its controller's queue or held by {@link pause}. */
  async pending(): Promise<number> {
    const answer = await this.answer('pending', { type: 'pending' });
    return answer.type === 'pending' ? answer.pending : 0;
  }

  /** Stops its manager (releasing its Lease) and waits until the process exited. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.send({ type: 'stop' } satisfies ShardParentMessage);
    await exited;
  }

  /** Kills the process (after a failure); idempotent. */
  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }

  private answer(
    type: ShardChildMessage['type'],
    question: ShardParentMessage | undefined,
  ): Promise<ShardChildMessage> {
    return new Promise((resolve, reject) => {
      if (this.failure !== undefined) {
        reject(new Error(`replica ${this.identity} failed: ${this.failure}`));
        return;
      }
      this.waiting.set(type, (message) => {
        if (message.type === 'failed')
          reject(new Error(`replica ${this.identity} failed: ${message.error}`));
        else resolve(message);
      });
      if (question !== undefined) this.child.send(question);
    });
  }
}
