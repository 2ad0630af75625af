// Runs pnpm the way the workspace's scripts need it: the pnpm running the current process
// when there is one (`npm_execpath`, set under `pnpm run`), else `pnpm` from PATH.
import { execFileSync } from 'node:child_process';

/**
 * Runs `pnpm <args>` in `cwd` and returns its standard output.
 *
 * @throws Error from execFileSync when pnpm fails (its output on the error), or with
 *   `code` 'ENOENT' when there is no pnpm to run.
 */
export function runPnpm(args, cwd) {
  const execPath = process.env.npm_execpath;
  if (execPath && /pnpm/.test(execPath)) {
    const isScript = /\.(c?js|mjs)$/.test(execPath);
    return execFileSync(
      isScript ? process.execPath : execPath,
      isScript ? [execPath, ...args] : args,
      { cwd, encoding: 'utf8' },
    );
  }
  return execFileSync('pnpm', args, { cwd, encoding: 'utf8' });
}
