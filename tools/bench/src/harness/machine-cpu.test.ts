import { describe, expect, it } from 'vitest';
import { busyShare, machineCpuTimes } from './machine-cpu.js';

describe('machineCpuTimes and busyShare', () => {
  it('reads the cpu line: busy is everything but idle and I/O wait', () => {
    const stat = 'cpu  100 5 50 800 40 3 2 0 0 0\ncpu0 50 2 25 400 20 1 1 0 0 0\nintr 1\n';
    expect(machineCpuTimes(stat)).toEqual({ busy: 160, total: 1000 });
    expect(machineCpuTimes('intr 1\n')).toBeUndefined();
  });

  it('gives the busy share between two readings', () => {
    expect(busyShare({ busy: 100, total: 1000 }, { busy: 250, total: 1200 })).toBe(0.75);
    expect(busyShare(undefined, { busy: 1, total: 2 })).toBeNaN();
    expect(busyShare({ busy: 1, total: 2 }, { busy: 1, total: 2 })).toBeNaN();
  });

  it('reads this machine (Linux)', () => {
    const times = machineCpuTimes();
    expect(times?.busy).toBeGreaterThan(0);
    expect(times?.total).toBeGreaterThanOrEqual(times?.busy ?? Number.NaN);
  });
});
