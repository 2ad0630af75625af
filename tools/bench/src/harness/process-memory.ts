import { readFileSync, writeFileSync } from 'node:fs';

/** The memory of another process over a span: what it held at the start, and its peak. */
export interface MemorySpan {
  /** Resident set size when sampling started, in bytes. */
  baselineBytes: number;
  /** The highest resident set size seen (sampled, and the kernel's high-water mark), in bytes. */
  peakBytes: number;
}

/** A field of /proc/<pid>/status in bytes (`VmRSS`, `VmHWM`); undefined when unreadable. */
function statusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = new RegExp(`^${field}:\\s*(\\d+) kB`, 'm').exec(text)?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

/**
 * Samples another process's resident memory (Linux /proc) until {@link stop}: every
 * `intervalMs`, and through the kernel's high-water mark (`VmHWM`), which {@link start}
 * resets first (writing 5 to /proc/<pid>/clear_refs) where allowed, so a peak between two
 * samples is not missed.
 */
export class MemorySampler {
  private peak: number;
  private readonly timer: NodeJS.Timeout;

  private constructor(
    private readonly pid: number,
    private readonly baseline: number,
    /** Whether the high-water mark was reset at the start (else it is the lifetime's). */
    private readonly highWaterReset: boolean,
    intervalMs: number,
  ) {
    this.peak = baseline;
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  /** Starts sampling `pid`; undefined when there is no such process or no /proc to read. */
  static start(pid: number | undefined, intervalMs = 20): MemorySampler | undefined {
    if (pid === undefined) return undefined;
    let reset = true;
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, '5');
    } catch {
      // Not allowed: the samples alone bound the peak from below.
      reset = false;
    }
    const baseline = statusBytes(pid, 'VmRSS');
    return baseline === undefined ? undefined : new MemorySampler(pid, baseline, reset, intervalMs);
  }

  private sample(): void {
    const rss = statusBytes(this.pid, 'VmRSS');
    if (rss !== undefined && rss > this.peak) this.peak = rss;
  }

  /** Stops sampling and returns the span. */
  stop(): MemorySpan {
    clearInterval(this.timer);
    this.sample();
    const highWater = this.highWaterReset ? statusBytes(this.pid, 'VmHWM') : undefined;
    return {
      baselineBytes: this.baseline,
      peakBytes: Math.max(this.peak, highWater ?? 0),
    };
  }
}
