import { describe, expect, it } from 'vitest';
import {
  type Condition,
  findStatusCondition,
  formatRfc3339Seconds,
  isStatusConditionFalse,
  isStatusConditionPresentAndEqual,
  isStatusConditionTrue,
  type ObjectWithConditions,
  removeStatusCondition,
  setBuiltInCondition,
  setCondition,
  setStatusCondition,
  validateCondition,
  validateConditionReason,
  validateConditionType,
} from './conditions.js';
import { ConditionError } from './errors/condition-error.js';

/** A wall clock that stands still until moved. */
function fakeNow(start = '2024-05-01T12:00:00.250Z') {
  let current = Date.parse(start);
  return {
    now: () => new Date(current),
    advance: (ms: number) => {
      current += ms;
    },
  };
}

describe('setStatusCondition', () => {
  it('appends a new condition stamped with now, in whole seconds', () => {
    const clock = fakeNow();
    const conditions: Condition[] = [];
    const changed = setStatusCondition(
      conditions,
      { type: 'Ready', status: 'False', reason: 'Pending', message: 'waiting' },
      { now: clock.now },
    );
    expect(changed).toBe(true);
    expect(conditions).toEqual([
      {
        type: 'Ready',
        status: 'False',
        reason: 'Pending',
        message: 'waiting',
        lastTransitionTime: '2024-05-01T12:00:00Z',
      },
    ]);
  });

  it('moves lastTransitionTime only when the status changes', () => {
    const clock = fakeNow();
    const conditions: Condition[] = [];
    const set = (status: Condition['status'], reason: string, message = '', generation?: number) =>
      setStatusCondition(
        conditions,
        {
          type: 'Ready',
          status,
          reason,
          message,
          ...(generation === undefined ? {} : { observedGeneration: generation }),
        },
        { now: clock.now },
      );

    set('False', 'Pending', 'waiting', 1);
    clock.advance(60_000);
    // Same status, new reason/message/generation: updated, time kept.
    expect(set('False', 'Progressing', 'half way', 2)).toBe(true);
    expect(conditions[0]).toMatchObject({
      status: 'False',
      reason: 'Progressing',
      message: 'half way',
      observedGeneration: 2,
      lastTransitionTime: '2024-05-01T12:00:00Z',
    });
    // Nothing differs: no change.
    clock.advance(60_000);
    expect(set('False', 'Progressing', 'half way', 2)).toBe(false);
    // Status flips: time moves to now.
    clock.advance(60_000);
    expect(set('True', 'Ready', 'done', 2)).toBe(true);
    expect(conditions[0]?.lastTransitionTime).toBe('2024-05-01T12:03:00Z');
    // observedGeneration left out counts as 0 and is removed.
    expect(set('True', 'Ready', 'done')).toBe(true);
    expect(conditions[0]).not.toHaveProperty('observedGeneration');
    expect(conditions).toHaveLength(1);
  });

  it('uses a given lastTransitionTime for a transition', () => {
    const conditions: Condition[] = [];
    setStatusCondition(conditions, {
      type: 'Ready',
      status: 'True',
      reason: 'Ok',
      message: '',
      lastTransitionTime: '2020-01-01T00:00:00Z',
    });
    expect(conditions[0]?.lastTransitionTime).toBe('2020-01-01T00:00:00Z');
    // Ignored when the status does not change.
    setStatusCondition(conditions, {
      type: 'Ready',
      status: 'True',
      reason: 'Ok',
      message: 'x',
      lastTransitionTime: '2021-01-01T00:00:00Z',
    });
    expect(conditions[0]?.lastTransitionTime).toBe('2020-01-01T00:00:00Z');
  });

  it('keeps other conditions and their order', () => {
    const clock = fakeNow();
    const conditions: Condition[] = [];
    for (const type of ['Available', 'Ready', 'Degraded']) {
      setStatusCondition(
        conditions,
        { type, status: 'Unknown', reason: 'Init', message: '' },
        { now: clock.now },
      );
    }
    setStatusCondition(
      conditions,
      { type: 'Ready', status: 'True', reason: 'Done', message: '' },
      { now: clock.now },
    );
    expect(conditions.map((condition) => `${condition.type}=${condition.status}`)).toEqual([
      'Available=Unknown',
      'Ready=True',
      'Degraded=Unknown',
    ]);
  });

  it('rejects invalid conditions with a message naming the field, leaving the list alone', () => {
    const conditions: Condition[] = [];
    const attempt = (patch: Record<string, unknown>) => {
      try {
        setStatusCondition(conditions, {
          type: 'Ready',
          status: 'True',
          reason: 'Ok',
          message: '',
          ...patch,
        } as never);
      } catch (error) {
        if (ConditionError.isInstance(error)) return `${error.field}: ${error.message}`;
        throw error;
      }
      return 'accepted';
    };
    expect(attempt({ reason: 'not camel case' })).toMatch(
      /^reason: invalid condition "Ready": reason "not camel case": a condition reason must start with a letter.*CamelCase/,
    );
    expect(attempt({ reason: '' })).toMatch(/^reason: .*must be non-empty/);
    expect(attempt({ reason: 'Ends,' })).toMatch(/^reason:/);
    expect(attempt({ status: 'true' })).toMatch(/^status: .*must be one of "True", "False"/);
    expect(attempt({ type: 'has space' })).toMatch(/^type: .*example\.com\/Ready/);
    expect(attempt({ observedGeneration: -1 })).toMatch(/^observedGeneration: .* >= 0/);
    expect(attempt({ message: 'x'.repeat(32769) })).toMatch(/^message: .*32768/);
    expect(attempt({ lastTransitionTime: 'yesterday' })).toMatch(/^lastTransitionTime: .*RFC 3339/);
    expect(conditions).toEqual([]);
    expect(attempt({ reason: 'Reason_With:Colons,And_1' })).toBe('accepted');
  });
});

describe('condition queries', () => {
  const conditions: Condition[] = [
    { type: 'Ready', status: 'True', reason: 'Ok', message: '', lastTransitionTime: 't' },
    { type: 'Degraded', status: 'False', reason: 'Ok', message: '', lastTransitionTime: 't' },
  ];

  it('finds and compares by type', () => {
    expect(findStatusCondition(conditions, 'Ready')?.status).toBe('True');
    expect(findStatusCondition(undefined, 'Ready')).toBeUndefined();
    expect(isStatusConditionTrue(conditions, 'Ready')).toBe(true);
    expect(isStatusConditionFalse(conditions, 'Ready')).toBe(false);
    expect(isStatusConditionFalse(conditions, 'Degraded')).toBe(true);
    expect(isStatusConditionTrue(conditions, 'Missing')).toBe(false);
    expect(isStatusConditionFalse(conditions, 'Missing')).toBe(false);
    expect(isStatusConditionPresentAndEqual(conditions, 'Degraded', 'Unknown')).toBe(false);
  });

  it('removes in place', () => {
    const copy = structuredClone(conditions);
    expect(removeStatusCondition(copy, 'Ready')).toBe(true);
    expect(removeStatusCondition(copy, 'Ready')).toBe(false);
    expect(removeStatusCondition(undefined, 'Ready')).toBe(false);
    expect(copy.map((condition) => condition.type)).toEqual(['Degraded']);
  });
});

describe('condition validation helpers', () => {
  it('accepts what apimachinery accepts', () => {
    expect(validateConditionReason('ReplicasReady')).toEqual([]);
    expect(validateConditionReason('a')).toEqual([]);
    expect(validateConditionReason('9Lives')).toHaveLength(1);
    expect(validateConditionType('example.com/Ready')).toEqual([]);
    expect(validateConditionType('Example.com/Ready')).toHaveLength(1);
    expect(() =>
      validateCondition({ type: 'Ready', status: 'Unknown', reason: 'X', message: '' }),
    ).not.toThrow();
    expect(formatRfc3339Seconds(new Date('2024-05-01T12:00:00.999Z'))).toBe('2024-05-01T12:00:00Z');
  });
});

const at = (iso: string) => () => new Date(iso);

function object(generation: number, conditions?: Condition[]): ObjectWithConditions {
  return {
    metadata: { name: 'a', generation },
    ...(conditions ? { status: { conditions } } : {}),
  };
}

describe('setCondition', () => {
  it('creates status and the condition, stamped with the generation and now', () => {
    const target = object(3);
    const changed = setCondition(
      target,
      { type: 'Ready', status: 'False', reason: 'Progressing' },
      { now: at('2026-01-02T03:04:05.678Z') },
    );
    expect(changed).toBe(true);
    expect(target.status?.conditions).toEqual([
      {
        type: 'Ready',
        status: 'False',
        reason: 'Progressing',
        message: '',
        observedGeneration: 3,
        lastTransitionTime: '2026-01-02T03:04:05Z',
      },
    ]);
  });

  it('keeps lastTransitionTime when only the reason, message or generation change', () => {
    const target = object(1);
    setCondition(
      target,
      { type: 'Ready', status: 'False', reason: 'A' },
      { now: at('2026-01-01T00:00:00Z') },
    );
    target.metadata = { ...target.metadata, generation: 2 };
    const changed = setCondition(
      target,
      { type: 'Ready', status: 'False', reason: 'B', message: 'still waiting' },
      { now: at('2026-01-01T00:05:00Z') },
    );
    expect(changed).toBe(true);
    expect(target.status?.conditions?.[0]).toMatchObject({
      reason: 'B',
      message: 'still waiting',
      observedGeneration: 2,
      lastTransitionTime: '2026-01-01T00:00:00Z',
    });
  });

  it('moves lastTransitionTime when the status changes', () => {
    const target = object(1);
    setCondition(
      target,
      { type: 'Ready', status: 'False', reason: 'A' },
      { now: at('2026-01-01T00:00:00Z') },
    );
    setCondition(
      target,
      { type: 'Ready', status: 'True', reason: 'A' },
      { now: at('2026-01-01T00:07:00Z') },
    );
    expect(target.status?.conditions?.[0]?.lastTransitionTime).toBe('2026-01-01T00:07:00Z');
  });

  it('reports no change, and leaves the object alone, when the condition is as given', () => {
    const target = object(4);
    setCondition(target, { type: 'Ready', status: 'True', reason: 'Done', message: 'ok' });
    const before = structuredClone(target);
    const statusBefore = target.status;
    expect(
      setCondition(target, { type: 'Ready', status: 'True', reason: 'Done', message: 'ok' }),
    ).toBe(false);
    expect(target).toEqual(before);
    expect(target.status).toBe(statusBefore);
  });

  it('keeps the other conditions and their order', () => {
    const other: Condition = {
      type: 'Degraded',
      status: 'False',
      reason: 'Fine',
      message: '',
      lastTransitionTime: '2025-12-31T00:00:00Z',
    };
    const target = object(1, [other]);
    setCondition(target, { type: 'Ready', status: 'True', reason: 'Done' });
    expect(target.status?.conditions?.map((c) => c.type)).toEqual(['Degraded', 'Ready']);
    expect(target.status?.conditions?.[0]).toEqual(other);
  });

  it('throws a ConditionError naming the field for an invalid reason, changing nothing', () => {
    const target = object(1);
    expect(() => setCondition(target, { type: 'Ready', status: 'True', reason: 'not ok' })).toThrow(
      ConditionError,
    );
    expect(() => setCondition(target, { type: 'Ready', status: 'True', reason: 'not ok' })).toThrow(
      /reason/,
    );
    expect(target.status).toBeUndefined();
  });
});

describe('setBuiltInCondition', () => {
  const now = '2026-02-01T00:00:00Z';
  const later = '2026-02-01T00:10:00Z';

  it('appends a condition without the reason and message it was not given, and leaves the input alone', () => {
    const input = Object.freeze([Object.freeze({ type: 'PodScheduled', status: 'True' })]);
    const list = setBuiltInCondition(input, { type: 'Ready', status: 'True' }, { now });
    expect(list).toEqual([
      { type: 'PodScheduled', status: 'True' },
      { type: 'Ready', status: 'True', lastTransitionTime: now },
    ]);
    expect(list[0]).not.toBe(input[0]);
  });

  it('gives an equal list for a condition that is already so, and drops entries that are not objects', () => {
    const first = setBuiltInCondition(
      [],
      { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'ok' },
      { now, lastUpdateTime: true },
    );
    expect(first).toEqual([
      {
        type: 'Available',
        status: 'True',
        lastUpdateTime: now,
        lastTransitionTime: now,
        reason: 'MinimumReplicasAvailable',
        message: 'ok',
      },
    ]);
    expect(Object.keys(first[0] ?? {})).toEqual([
      'type',
      'status',
      'lastUpdateTime',
      'lastTransitionTime',
      'reason',
      'message',
    ]);
    const again = setBuiltInCondition(
      [...first, 'junk', null],
      { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'ok' },
      { now: later, lastUpdateTime: true },
    );
    expect(again).toEqual(first);
  });

  it('moves lastUpdateTime when the reason or message change and lastTransitionTime only when the status does', () => {
    const first = setBuiltInCondition(
      [],
      { type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated', message: 'a' },
      { now, lastUpdateTime: true },
    );
    const updated = setBuiltInCondition(
      first,
      { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable', message: 'b' },
      { now: later, lastUpdateTime: true },
    );
    expect(updated[0]).toMatchObject({
      lastUpdateTime: later,
      lastTransitionTime: now,
      reason: 'NewReplicaSetAvailable',
      message: 'b',
    });
    const flipped = setBuiltInCondition(
      updated,
      { type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' },
      { now: '2026-02-01T00:20:00Z' },
    );
    expect(flipped[0]).toEqual({
      type: 'Progressing',
      status: 'False',
      lastUpdateTime: later,
      lastTransitionTime: '2026-02-01T00:20:00Z',
      reason: 'ProgressDeadlineExceeded',
    });
  });

  it('keeps a lastProbeTime only while nothing changes, and fills a missing lastTransitionTime', () => {
    const probed = [
      { type: 'Ready', status: 'False', reason: 'PodCompleted', lastProbeTime: null },
    ];
    expect(
      setBuiltInCondition(
        probed,
        { type: 'Ready', status: 'False', reason: 'PodCompleted' },
        { now },
      ),
    ).toEqual([
      {
        type: 'Ready',
        status: 'False',
        reason: 'PodCompleted',
        lastProbeTime: null,
        lastTransitionTime: now,
      },
    ]);
    const timed = [{ ...probed[0], lastTransitionTime: now }];
    expect(
      setBuiltInCondition(
        timed,
        { type: 'Ready', status: 'False', reason: 'PodCompleted' },
        { now: later },
      ),
    ).toEqual(timed);
    expect(setBuiltInCondition(timed, { type: 'Ready', status: 'True' }, { now: later })).toEqual([
      { type: 'Ready', status: 'True', lastTransitionTime: later },
    ]);
  });
});
