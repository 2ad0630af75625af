import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './package-root.js';
import type { SyncJob, SyncOutcome } from './sync-protocol.js';

/** The built child entry (`tsup` builds it; the test setup builds it before the suite). */
export const syncChildPath = join(packageRoot, 'dist', 'sync-child.js');

/**
 * Runs one {@link SyncJob} in a fresh Node.js process (`--expose-gc`, a heap large enough for
 * 100,000 objects) and resolves with its figures.
 *
 * @throws {Error} when the child entry is not built, the child fails (its error is in the
 *   message), exits without answering, or takes longer than `timeoutMs`.
 */
export async function syncInFreshProcess(
  job: SyncJob,
  timeoutMs = 300_000,
): Promise<Extract<SyncOutcome, { ok: true }>> {
  if (!existsSync(syncChildPath))
    throw new Error(
      `${syncChildPath} is missing; build the bench first: pnpm turbo build --filter=@ops/bench...`,
    );
  const child = fork(syncChildPath, [JSON.stringify(job)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: ['--expose-gc', '--max-old-space-size=8192'],
  });
  const outcome = await new Promise<SyncOutcome>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`${job.contender} did not sync ${job.expected} objects within ${timeoutMs} ms`),
      );
    }, timeoutMs);
    child.once('message', (message: SyncOutcome) => {
      clearTimeout(timer);
      resolve(message);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(
        new Error(
          `the ${job.contender} sync process exited (code ${code}, signal ${signal}) without an answer`,
        ),
      );
    });
  });
  if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
  if (!outcome.ok) throw new Error(`${job.contender} failed: ${outcome.error}`);
  return outcome;
}
