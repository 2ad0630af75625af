/**
 * Milliseconds on a clock that every process on this machine reads alike, for comparing a
 * time taken in one process with a time taken in another (a write's response in the writer
 * process, the matching watch event in a library's process).
 *
 * It is `process.hrtime.bigint()`: libuv's `uv_hrtime`, which reads the system's monotonic
 * clock (`CLOCK_MONOTONIC` on Linux, `mach_absolute_time` on macOS). That clock counts from an
 * origin fixed at boot and shared by every process, never jumps with NTP or a changed wall
 * clock, and has nanosecond resolution. `performance.now()` would not do: its origin is each
 * process's own start. `Date.now()` would, but in whole milliseconds and subject to clock
 * adjustments.
 */
export function sharedClockMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
