import { readFileSync } from 'node:fs';

/** The machine's CPU time so far, all cores together, in clock ticks (/proc/stat's `cpu` line). */
export interface MachineCpuTimes {
  /** Ticks spent running anything: user, nice, system, irq, softirq and steal. */
  busy: number;
  /** Every tick, idle and I/O wait included. */
  total: number;
}

/**
 * Reads the `cpu` line of /proc/stat (`text`, default the file itself): the time every core
 * of the machine spent, whoever ran. Undefined where there is no /proc (not Linux).
 */
export function machineCpuTimes(text?: string): MachineCpuTimes | undefined {
  let stat = text;
  if (stat === undefined) {
    try {
      stat = readFileSync('/proc/stat', 'utf8');
    } catch {
      return undefined;
    }
  }
  const line = stat.split('\n').find((entry) => entry.startsWith('cpu '));
  if (line === undefined) return undefined;
  // user nice system idle iowait irq softirq steal (guest times are within user and nice).
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line
    .trim()
    .split(/\s+/)
    .slice(1, 9)
    .map((field) => Number(field) || 0) as number[] as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const busy = user + nice + system + irq + softirq + steal;
  return { busy, total: busy + idle + iowait };
}

/**
 * The share of the machine's CPU (0 to 1, all cores together) that was busy between two
 * readings, whatever ran: 1 means every core ran all the time. NaN without readings.
 */
export function busyShare(
  before: MachineCpuTimes | undefined,
  after: MachineCpuTimes | undefined,
): number {
  if (before === undefined || after === undefined || after.total <= before.total) return Number.NaN;
  return (after.busy - before.busy) / (after.total - before.total);
}
