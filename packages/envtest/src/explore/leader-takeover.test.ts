import { describe, expect, it } from 'vitest';
import type { ProxiedRequest } from './fault-proxy.js';
import { LeaderTakeover, type Replica } from './leader-takeover.js';

/** A replica whose leadership, crash and exit the test sets. */
function fakeReplica(identity: string) {
  let exit: (value: { error?: unknown }) => void = () => undefined;
  const state = { leading: false, crashed: false };
  const replica: Replica = {
    identity,
    isLeader: () => state.leading,
    crashed: () => state.crashed,
    exited: new Promise((resolve) => {
      exit = resolve;
    }),
  };
  return { replica, state, exit: (value: { error?: unknown }) => exit(value) };
}

const write = (number: number): ProxiedRequest => ({
  method: 'PATCH',
  path: '/api/v1/namespaces/explore/configmaps/app-data',
  query: new URLSearchParams(),
  verb: 'patch',
  resource: 'configmaps',
  namespace: 'explore',
  name: 'app-data',
  requestNumber: number,
  writeNumber: number,
});

function oracle() {
  const violations: string[] = [];
  return { takeover: new LeaderTakeover((text) => violations.push(text)), violations };
}

describe('LeaderTakeover', () => {
  it('lets the leader write, and fails a write of a standby that never led', () => {
    const { takeover, violations } = oracle();
    const first = fakeReplica('replica-1');
    const second = fakeReplica('replica-2');
    first.state.leading = true;
    takeover.add(first.replica);
    takeover.add(second.replica);
    takeover.onWrite(first.replica, write(1));
    expect(violations).toEqual([]);
    takeover.onWrite(second.replica, write(2));
    expect(violations).toEqual([
      expect.stringContaining('replica-2, a standby that never led, wrote #2 patch configmaps'),
    ]);
  });

  it('lets a deposed leader finish its reconcile until the new leader writes, not after', () => {
    const { takeover, violations } = oracle();
    const first = fakeReplica('replica-1');
    const second = fakeReplica('replica-2');
    first.state.leading = true;
    takeover.add(first.replica);
    takeover.add(second.replica);
    first.state.leading = false;
    second.state.leading = true;
    expect(takeover.observe()).toBe(second.replica);
    takeover.onWrite(first.replica, write(3));
    expect(violations).toEqual([]);
    takeover.onWrite(second.replica, write(4));
    takeover.onWrite(first.replica, write(5));
    expect(violations).toEqual([
      expect.stringContaining(
        'replica-1 wrote #5 patch configmaps explore/app-data after it lost leadership and after the new leader replica-2 had written (#4',
      ),
    ]);
  });

  it('fails a write while two replicas lead', () => {
    const { takeover, violations } = oracle();
    const first = fakeReplica('replica-1');
    const second = fakeReplica('replica-2');
    first.state.leading = true;
    second.state.leading = true;
    takeover.add(first.replica);
    takeover.add(second.replica);
    takeover.onWrite(first.replica, write(1));
    expect(violations).toEqual([expect.stringContaining('split brain: replica-1 wrote #1')]);
  });

  it("after a cut, passes once the deposed manager exited with core's error and another leads", async () => {
    const { takeover, violations } = oracle();
    const first = fakeReplica('replica-1');
    const second = fakeReplica('replica-2');
    first.state.leading = true;
    takeover.add(first.replica);
    takeover.add(second.replica);
    takeover.cut(first.replica);
    first.state.leading = false;
    first.exit({
      error: new Error('leader election lost: the lease explore/x could not be renewed'),
    });
    second.state.leading = true;
    await takeover.settled();
    expect(violations).toEqual([]);
  });

  it('after a cut, names a deposed manager that ended otherwise', async () => {
    const { takeover, violations } = oracle();
    const first = fakeReplica('replica-1');
    const second = fakeReplica('replica-2');
    first.state.leading = true;
    takeover.add(first.replica);
    takeover.add(second.replica);
    takeover.cut(first.replica);
    first.state.leading = false;
    first.exit({});
    second.state.leading = true;
    await takeover.settled();
    expect(violations).toEqual([
      expect.stringContaining(
        'replica-1\'s manager ended otherwise than with "leader election lost" after its Lease renewals were cut: it stopped without an error',
      ),
    ]);
  });
});
