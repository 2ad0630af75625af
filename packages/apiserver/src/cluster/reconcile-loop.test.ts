import { describe, expect, it } from 'vitest';
import { StatusError } from '../api/status-error.js';
import { eventually, sleep } from './cluster-fixture.test-helper.js';
import { type ClusterErrorRecord, ReconcileLoop } from './reconcile-loop.js';

function loopWith(reconcile: (key: string) => Promise<{ requeueAfterMs?: number } | undefined>) {
  const errors: ClusterErrorRecord[] = [];
  const loop = new ReconcileLoop({
    name: 'test',
    reconcile,
    onError: (record) => errors.push(record),
  });
  return { loop, errors };
}

describe('ReconcileLoop', () => {
  it('cancels a key: its timer no longer fires and the loop is idle at once', async () => {
    const runs: string[] = [];
    const { loop } = loopWith(async (key) => {
      runs.push(key);
      return undefined;
    });
    loop.addAfter('late', 60_000);
    loop.add('soon');
    expect(loop.isIdle()).toBe(false);
    loop.cancel('late');
    loop.cancel('soon');
    expect(loop.isIdle()).toBe(true);
    await loop.whenIdle();
    await sleep(20);
    expect(runs).toEqual([]);
  });

  it('coalesces keys added before they run, and never runs them synchronously', async () => {
    const runs: string[] = [];
    const { loop } = loopWith(async (key) => {
      runs.push(key);
      return undefined;
    });
    loop.add('a');
    loop.add('a');
    loop.add('b');
    expect(runs).toEqual([]);
    await loop.whenIdle();
    expect(runs).toEqual(['a', 'b']);
  });

  it('never runs one key twice at once, and runs it again when added meanwhile', async () => {
    let running = 0;
    let most = 0;
    let count = 0;
    const { loop } = loopWith(async () => {
      running++;
      most = Math.max(most, running);
      count++;
      await sleep(10);
      running--;
      return undefined;
    });
    loop.add('a');
    await sleep(2);
    loop.add('a');
    loop.add('a');
    await eventually(() => loop.isIdle());
    expect(most).toBe(1);
    expect(count).toBe(2);
  });

  it('retries failures with backoff, reporting all but conflicts and not-founds', async () => {
    let attempts = 0;
    const { loop, errors } = loopWith(async () => {
      attempts++;
      if (attempts === 1)
        throw StatusError.conflict({ group: '', resource: 'pods', kind: 'Pod' }, 'p', 'changed');
      if (attempts === 2) throw new Error('boom');
      return undefined;
    });
    loop.add('k');
    await eventually(() => attempts === 3 && loop.isIdle());
    expect(errors.map((e) => [e.controller, e.key, (e.error as Error).message])).toEqual([
      ['test', 'k', 'boom'],
    ]);
  });

  it('requeues after a delay, and stops cleanly', async () => {
    const runs: number[] = [];
    const { loop } = loopWith(async () => {
      runs.push(Date.now());
      return runs.length < 2 ? { requeueAfterMs: 30 } : undefined;
    });
    loop.add('k');
    await eventually(() => runs.length === 2);
    expect((runs[1] ?? 0) - (runs[0] ?? 0)).toBeGreaterThanOrEqual(25);
    loop.addAfter('k', 10_000);
    expect(loop.isIdle()).toBe(false);
    await loop.stop();
    expect(loop.isIdle()).toBe(true);
    loop.add('k');
    await sleep(5);
    expect(runs).toHaveLength(2);
  });
});
