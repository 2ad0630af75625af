import { describe, expect, it } from 'vitest';
import { withoutWriteStamps } from './without-write-stamps.js';

function object(creationTimestamp: string, times: string[]) {
  return {
    metadata: {
      name: 'x',
      uid: 'a-uid',
      resourceVersion: '7',
      creationTimestamp,
      managedFields: times.map((time, i) => ({ manager: `m${i}`, time })),
    },
  };
}

describe('withoutWriteStamps', () => {
  it("blanks what the server stamps, also a create's managedFields time a second before creationTimestamp", () => {
    // The field manager stamped 09:00:00, the registry 09:00:01: a second boundary between.
    const crossed = object('2026-11-25T09:00:01Z', [
      '2026-11-25T09:00:00Z',
      '2026-11-25T09:00:02Z',
    ]);
    const same = object('2026-11-25T10:30:00Z', ['2026-11-25T10:30:00Z', '2026-11-25T10:30:00Z']);
    expect(withoutWriteStamps(crossed)).toBe(withoutWriteStamps(same));
    expect(JSON.parse(withoutWriteStamps(crossed)).metadata).toMatchObject({
      uid: 'uid',
      resourceVersion: 'resourceVersion',
      creationTimestamp: 'now',
      managedFields: [{ time: 'now' }, { time: 'now' }],
    });
  });

  it('keeps the times a request set, earlier than the creation', () => {
    const seeded = object('2026-11-25T09:00:01Z', ['2025-01-14T09:21:37Z', '2026-11-25T09:00:01Z']);
    expect(JSON.parse(withoutWriteStamps(seeded)).metadata.managedFields).toEqual([
      { manager: 'm0', time: '2025-01-14T09:21:37Z' },
      { manager: 'm1', time: 'now' },
    ]);
  });
});
