import { describe, expect, it } from 'vitest';
import { FakeClock } from './fake-clock.js';

describe('FakeClock', () => {
  it('fires due timers in order of due time, then creation, reading their due time', () => {
    const clock = new FakeClock(100);
    const fired: [string, number][] = [];
    clock.setTimeout(() => fired.push(['b', clock.now()]), 20);
    clock.setTimeout(() => fired.push(['a', clock.now()]), 10);
    clock.setTimeout(() => fired.push(['c', clock.now()]), 20);
    clock.setTimeout(() => fired.push(['late', clock.now()]), 50);
    clock.advance(30);
    expect(fired).toEqual([
      ['a', 110],
      ['b', 120],
      ['c', 120],
    ]);
    expect(clock.now()).toBe(130);
    expect(clock.pendingTimers()).toBe(1);
  });

  it('does not fire cleared timers', () => {
    const clock = new FakeClock();
    let fired = false;
    const handle = clock.setTimeout(() => {
      fired = true;
    }, 5);
    clock.clearTimeout(handle);
    clock.clearTimeout(handle);
    clock.advance(10);
    expect(fired).toBe(false);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('fires timers scheduled by callbacks when they fall due in the same advance', () => {
    const clock = new FakeClock();
    const fired: number[] = [];
    clock.setTimeout(() => {
      fired.push(clock.now());
      clock.setTimeout(() => fired.push(clock.now()), 5);
      clock.setTimeout(() => fired.push(clock.now()), 500);
    }, 5);
    clock.advance(10);
    expect(fired).toEqual([5, 10]);
    expect(clock.pendingTimers()).toBe(1);
  });

  it('treats bad delays as 0 and refuses to go backwards', () => {
    const clock = new FakeClock();
    let fired = 0;
    clock.setTimeout(() => fired++, Number.NaN);
    clock.setTimeout(() => fired++, -5);
    clock.advance(0);
    expect(fired).toBe(2);
    expect(() => clock.advance(-1)).toThrowError(RangeError);
    expect(() => clock.advance(Number.POSITIVE_INFINITY)).toThrowError(/finite/);
  });
});
