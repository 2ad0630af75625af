/** Runs `pnpm <args>` in `cwd` (the pnpm running this process, else PATH's); its stdout. */
export function runPnpm(args: string[], cwd: string): string;
