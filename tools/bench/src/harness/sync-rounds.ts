import type { BenchServer } from './bench-server.js';
import { syncInFreshProcess } from './fresh-process-sync.js';
import { type ObjectShape, shapePlural } from './object-shapes.js';
import type { SyncContender, SyncOutcome } from './sync-protocol.js';

/** The figures of one successful sync. */
type FreshSyncOutcome = Extract<SyncOutcome, { ok: true }>;

/** What {@link syncRounds} syncs, and what it reports to. */
export interface SyncRoundsOptions<C extends SyncContender> {
  server: BenchServer;
  /** The contenders in the order of the first round; every other round reverses it. */
  contenders: readonly C[];
  rounds: number;
  namespace: string;
  shape: ObjectShape;
  /** Objects in `namespace`: each sync must end with exactly these. */
  expected: number;
  /** The cell's name, for log lines. */
  name: string;
  /** Contenders that failed, with the first line of their error; a failed one is not run again. */
  failed: Map<C, string>;
  /** Records one sync; called right after it, before the next starts. */
  record(contender: C, outcome: FreshSyncOutcome): void;
  /** Wraps each sync (to sample the server meanwhile); default: runs it. */
  around?: (sync: () => Promise<FreshSyncOutcome>) => Promise<FreshSyncOutcome>;
  log(message: string): void;
}

/**
 * Syncs `shape`'s objects of `namespace` with every contender, `rounds` times, each time in
 * a fresh process, in alternating order, the server's garbage collected before each. A
 * contender whose sync fails is recorded in `failed` and skipped from then on; the others go on.
 */
export async function syncRounds<C extends SyncContender>(
  options: SyncRoundsOptions<C>,
): Promise<void> {
  const { server, failed, log, name } = options;
  const around = options.around ?? ((sync) => sync());
  for (let round = 0; round < options.rounds; round++) {
    const order = round % 2 === 0 ? options.contenders : [...options.contenders].reverse();
    for (const contender of order) {
      if (failed.has(contender)) continue;
      await server.collectGarbage();
      try {
        const outcome = await around(() =>
          syncInFreshProcess({
            contender,
            url: server.url,
            kubeconfigPath: server.kubeconfigPath,
            namespace: options.namespace,
            plural: shapePlural(options.shape),
            expected: options.expected,
          }),
        );
        options.record(contender, outcome);
      } catch (error) {
        failed.set(contender, (error as Error).message.split('\n')[0] ?? 'failed');
        log(`${name}: ${contender} failed: ${(error as Error).message}`);
      }
    }
    log(`${name}: round ${round + 1}/${options.rounds} done`);
  }
}
