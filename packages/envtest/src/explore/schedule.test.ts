import { describe, expect, it } from 'vitest';
import {
  drawPerturbation,
  explorationSchedule,
  parseScheduleId,
  perturbationKinds,
  quickSchedules,
  type ReferenceShape,
  type Schedule,
  SeededRandom,
  scheduleId,
} from './schedule.js';

const reference: ReferenceShape = {
  writes: ['create configmaps', 'create events', 'patch widgets/status', 'update configmaps'],
  requests: 20,
  startupRequests: 6,
  watched: ['configmaps', 'widgets'],
  steps: 2,
  webhooks: true,
};

describe('schedule ids', () => {
  it('round-trip every perturbation kind', () => {
    const schedule: Schedule = {
      seed: 42,
      perturbations: [
        { kind: 'crash', afterWrite: 3 },
        { kind: 'crash-at-request', afterRequest: 9 },
        { kind: 'stale', afterWrite: 2, holdMs: 800 },
        { kind: 'stale-restart', afterWrite: 1, holdMs: 600, resource: 'widgets' },
        { kind: 'lose-events', afterWrite: 1, count: 2 },
        { kind: 'drop-watches', afterWrite: 4 },
        { kind: 'gone', afterWrite: 5 },
        { kind: 'write-error', write: 4, code: 429 },
        { kind: 'timeout-after-apply', write: 1 },
        { kind: 'apiserver-restart', afterWrite: 2 },
        { kind: 'leader-loss', afterWrite: 3 },
        { kind: 'webhook-down', step: 2, ms: 900 },
        { kind: 'webhook-slow', step: 1, ms: 1200 },
      ],
    };
    const id = scheduleId(schedule);
    expect(id).toBe(
      '42:crash@3,crash-at-request@9,stale@2+800,stale-restart@1+600~widgets,lose-events@1x2,drop-watches@4,gone@5,write-error@4=429,timeout-after-apply@1,apiserver-restart@2,leader-loss@3,webhook-down@2+900,webhook-slow@1+1200',
    );
    expect(parseScheduleId(id)).toEqual(schedule);
  });

  it('refuse what is not an id, saying what ids look like', () => {
    expect(() => parseScheduleId('crash@3')).toThrow(
      'schedule id "crash@3" has no seed: ids look like 7:crash@3',
    );
    expect(() => parseScheduleId('1:explode@3')).toThrow(
      '"explode@3" is not a perturbation (one of crash, ',
    );
    expect(() => parseScheduleId('1:crash@0')).toThrow('"0" is not a positive whole number');
    expect(() => parseScheduleId('1:write-error@2=418')).toThrow(
      'write-error takes the code 409, 429 or 500',
    );
    expect(() => parseScheduleId('x:crash@1')).toThrow('the seed is not a whole number');
    expect(() => parseScheduleId('1:stale-restart@1+800')).toThrow(
      'stale-restart names the resource whose cache lags',
    );
    expect(() => parseScheduleId('1:webhook-down@1')).toThrow(
      'webhook-down takes the step (1-based) and a duration in ms (webhook-down@1+800)',
    );
  });
});

describe('SeededRandom', () => {
  it('gives the same numbers for the same seed, others for another', () => {
    const draw = (seed: number) => {
      const random = new SeededRandom(seed);
      return Array.from({ length: 5 }, () => random.integer(1, 1000));
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
    const random = new SeededRandom(3);
    for (let i = 0; i < 200; i++) {
      const value = random.integer(2, 4);
      expect(value >= 2 && value <= 4).toBe(true);
    }
  });
});

describe('drawing schedules', () => {
  it('puts 409 only on updates, patches and deletes, and no error or timeout on Events', () => {
    for (let seed = 0; seed < 200; seed++) {
      const random = new SeededRandom(seed);
      const drawn = drawPerturbation('write-error', reference, random);
      if (drawn?.kind !== 'write-error') throw new Error('a write error is always possible here');
      expect(reference.writes[drawn.write - 1]).not.toBe('create events');
      if (drawn.code === 409) expect(reference.writes[drawn.write - 1]).toMatch(/^(update|patch) /);
      const timeout = drawPerturbation('timeout-after-apply', reference, new SeededRandom(seed));
      if (timeout?.kind !== 'timeout-after-apply')
        throw new Error('a timeout is always possible here');
      expect(reference.writes[timeout.write - 1]).not.toBe('create events');
    }
    expect(
      drawPerturbation('crash', { ...reference, writes: [] }, new SeededRandom(1)),
    ).toBeUndefined();
  });

  it('draws webhook outages only for a scenario with webhooks, at one of its steps', () => {
    for (let seed = 0; seed < 100; seed++) {
      for (const kind of ['webhook-down', 'webhook-slow'] as const) {
        const drawn = drawPerturbation(kind, reference, new SeededRandom(seed));
        if (drawn?.kind !== kind) throw new Error('a webhook outage is possible here');
        expect([1, 2]).toContain(drawn.step);
        expect(drawn.ms).toBeGreaterThanOrEqual(200);
        expect(drawn.ms).toBeLessThanOrEqual(2_000);
        expect(
          drawPerturbation(kind, { ...reference, webhooks: false }, new SeededRandom(seed)),
        ).toBeUndefined();
      }
    }
  });

  it('draws crashes at a request after the operator first led', () => {
    for (let seed = 0; seed < 100; seed++) {
      const drawn = drawPerturbation('crash-at-request', reference, new SeededRandom(seed));
      if (drawn?.kind !== 'crash-at-request') throw new Error('always possible');
      expect(drawn.afterRequest).toBeGreaterThan(reference.startupRequests);
      expect(drawn.afterRequest).toBeLessThanOrEqual(reference.requests);
    }
  });

  it('quick mode crashes after every write, refuses and times out every object write, and tries every other kind, within its limit, the same each time', () => {
    const schedules = quickSchedules(reference, { seed: 1, limit: 40 });
    expect(schedules.length).toBeLessThanOrEqual(40);
    expect(quickSchedules(reference, { seed: 1, limit: 40 })).toEqual(schedules);
    const ids = schedules.map(scheduleId);
    expect(ids.filter((id) => id.includes('write-error') || id.includes('timeout'))).toEqual([
      '1:timeout-after-apply@1',
      '1:write-error@1=500',
      '1:timeout-after-apply@3',
      '1:write-error@1=429',
      '1:timeout-after-apply@4',
      '1:write-error@3=500',
      '1:write-error@3=429',
      '1:write-error@3=409',
      '1:write-error@4=500',
      '1:write-error@4=429',
      '1:write-error@4=409',
    ]);
    const crashPoints = schedules.flatMap((s) =>
      s.perturbations.flatMap((p) => (p.kind === 'crash' ? [p.afterWrite] : [])),
    );
    expect(crashPoints).toEqual([1, 2, 3, 4]);
    const kinds = new Set(schedules.flatMap((s) => s.perturbations.map((p) => p.kind)));
    expect([...kinds].sort()).toEqual([...perturbationKinds].sort());
    expect(new Set(schedules.map(scheduleId)).size).toBe(schedules.length);
    expect(quickSchedules(reference, { seed: 1, limit: 5 })).toHaveLength(5);
  });

  it('exploration mode draws one or two perturbations per schedule, replayable from the seed', () => {
    const schedules = Array.from({ length: 50 }, (_, index) =>
      explorationSchedule(reference, 100, index),
    );
    expect(schedules.map((s) => s.seed)).toEqual(Array.from({ length: 50 }, (_, i) => 100 + i));
    for (const schedule of schedules) {
      expect(schedule.perturbations.length === 1 || schedule.perturbations.length === 2).toBe(true);
      expect(parseScheduleId(scheduleId(schedule))).toEqual(schedule);
    }
    expect(explorationSchedule(reference, 100, 7)).toEqual(schedules[7]);
    expect(
      new Set(schedules.flatMap((s) => s.perturbations.map((p) => p.kind))).size,
    ).toBeGreaterThan(5);
  });
});

describe('explorationSchedule and leader loss', () => {
  it('draws at most one leader loss per schedule: a run has two replicas', () => {
    const reference = {
      writes: ['create configmaps', 'update widgets/status', 'update configmaps'],
      requests: 10,
      startupRequests: 2,
      watched: ['configmaps', 'widgets'],
    };
    let withLeaderLoss = 0;
    for (let index = 0; index < 2000; index++) {
      const { perturbations } = explorationSchedule(reference, 1, index);
      const losses = perturbations.filter((p) => p.kind === 'leader-loss').length;
      expect(losses).toBeLessThanOrEqual(1);
      withLeaderLoss += losses;
    }
    expect(withLeaderLoss).toBeGreaterThan(0);
  });
});
