import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type {
  BurstChildMessage,
  BurstParentMessage,
  BurstWatchCounts,
  BurstWatchJob,
  BurstWriteJob,
  BurstWriteOutcome,
} from './burst-protocol.js';
import { packageRoot } from './package-root.js';

/** The built child entries (`tsup` builds them; the test setup builds them before the suite). */
export const burstWatcherChildPath = join(packageRoot, 'dist', 'burst-watcher-child.js');
export const burstWriterChildPath = join(packageRoot, 'dist', 'burst-writer-child.js');

function forkBuilt(path: string, job: object): ChildProcess {
  if (!existsSync(path))
    throw new Error(
      `${path} is missing; build the bench first: pnpm turbo build --filter=@ops/bench...`,
    );
  return fork(path, [JSON.stringify(job)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: ['--max-old-space-size=4096'],
  });
}

/** A library's process of the event-burst benchmark, synced and waiting for `go`. */
export interface BurstWatcher {
  /** Tells it the burst starts now: it takes its CPU time. */
  go(): void;
  /**
   * Resolves with its counts once it has seen every patch, or `graceMs` after `finish` is
   * called, whichever comes first; then the process has exited.
   *
   * @throws {Error} when it failed or exited without answering.
   */
  counts(): Promise<BurstWatchCounts>;
  /** Tells it to stop waiting for updates it has not seen and answer with what it has. */
  finish(): void;
  /** Kills the process (after a failure); idempotent. */
  kill(): void;
}

/**
 * Forks a fresh process that syncs `job.namespace` with `job.contender`'s library, and
 * resolves once it is synced.
 *
 * @throws {Error} when the child entry is not built, the sync fails (its error is in the
 *   message) or takes longer than `timeoutMs`.
 */
export async function startBurstWatcher(
  job: BurstWatchJob,
  timeoutMs = 180_000,
): Promise<BurstWatcher> {
  const child = forkBuilt(burstWatcherChildPath, job);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const messages: BurstChildMessage[] = [];
  const waiting: Array<() => void> = [];
  child.on('message', (message: BurstChildMessage) => {
    messages.push(message);
    for (const wake of waiting.splice(0)) wake();
  });
  child.once('exit', () => {
    for (const wake of waiting.splice(0)) wake();
  });
  const next = async (what: string, deadlineMs: number): Promise<BurstChildMessage> => {
    const deadline = performance.now() + deadlineMs;
    for (;;) {
      const message = messages.shift();
      if (message !== undefined) {
        if (message.type === 'failed') throw new Error(`${job.contender} failed: ${message.error}`);
        return message;
      }
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(
          `the ${job.contender} burst process exited (code ${child.exitCode}, signal ${child.signalCode}) before ${what}`,
        );
      const left = deadline - performance.now();
      if (left <= 0)
        throw new Error(`${job.contender} did not answer ${what} within ${deadlineMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiting.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  };
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  const tell = (message: BurstParentMessage) => {
    if (child.connected) child.send(message);
  };
  try {
    await next(`that it synced ${job.objects} ConfigMaps`, timeoutMs);
  } catch (error) {
    kill();
    throw error;
  }
  return {
    go: () => tell({ type: 'go' }),
    finish: () => tell({ type: 'finish' }),
    kill,
    counts: async () => {
      try {
        const message = await next('its counts', timeoutMs);
        if (message.type !== 'done')
          throw new Error(`${job.contender} answered ${message.type} where its counts were due`);
        const { type: _type, ...counts } = message;
        await exited;
        return counts;
      } catch (error) {
        kill();
        throw error;
      }
    },
  };
}

/**
 * Runs the writer of the event-burst benchmark in a fresh process and resolves with when it
 * sent its first patch and read its last response.
 *
 * @throws {Error} when the child entry is not built, a patch fails (the child's error is in
 *   the message), or it takes longer than `timeoutMs`.
 */
export async function runBurstWriter(
  job: BurstWriteJob,
  timeoutMs = 300_000,
): Promise<Extract<BurstWriteOutcome, { ok: true }>> {
  const child = forkBuilt(burstWriterChildPath, job);
  const outcome = await new Promise<BurstWriteOutcome>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`the burst writer did not send ${job.patches} patches within ${timeoutMs} ms`),
      );
    }, timeoutMs);
    child.once('message', (message: BurstWriteOutcome) => {
      clearTimeout(timer);
      resolve(message);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(
        new Error(`the burst writer exited (code ${code}, signal ${signal}) without an answer`),
      );
    });
  });
  if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
  if (!outcome.ok) throw new Error(`the burst writer failed: ${outcome.error}`);
  return outcome;
}
