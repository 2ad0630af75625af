import type { Condition } from '@ops/api';
import { ConditionError } from '@ops/api';
import { describe, expect, it } from 'vitest';
import { type ObjectWithConditions, setCondition } from './set-condition.js';

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
