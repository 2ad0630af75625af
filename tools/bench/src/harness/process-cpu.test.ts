import { describe, expect, it } from 'vitest';
import { processCpuMs } from './process-cpu.js';

describe('processCpuMs', () => {
  it("reads a process's CPU time as the process itself counts it, to the 10 ms tick", () => {
    const end = performance.now() + 100;
    while (performance.now() < end);
    const usage = process.cpuUsage();
    const read = processCpuMs(process.pid);
    const own = (usage.user + usage.system) / 1000;
    expect(read).toBeGreaterThan(own - 30);
    expect(read).toBeLessThan(own + 30);
  });

  it('answers undefined for no process', () => {
    expect(processCpuMs(undefined)).toBeUndefined();
    expect(processCpuMs(2 ** 30)).toBeUndefined();
  });
});
