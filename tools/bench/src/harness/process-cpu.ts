import { readFileSync } from 'node:fs';

/**
 * Clock ticks per second of /proc/<pid>/stat's times: the kernel's USER_HZ, which Linux
 * reports as 100 on every architecture (the /proc ABI fixes it, whatever the kernel's HZ).
 */
const userHz = 100;

/**
 * The CPU time (user + system, every thread) another process has used since it started, in
 * ms, at a resolution of 10 ms; undefined when there is no such process or no /proc to read.
 */
export function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the line: 12 and 13 after the name's.
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / userHz : undefined;
  } catch {
    return undefined;
  }
}
