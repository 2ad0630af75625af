// The hooks both "From npm" test files share: the packed packages served, the README's steps
// read, and a user's shell in a fresh directory; everything stopped and removed afterwards.
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { type FromNpm, prepareFromNpm } from '../src/from-npm.js';
import type { ReadmeShell } from '../src/readme-shell.js';

/** The repository's root (real path). */
export const workspaceRoot = realpathSync(fileURLToPath(new URL('../../..', import.meta.url)));

/** What {@link useFromNpm}'s hooks prepare, read in the tests (after `beforeAll`). */
export interface FromNpmRun {
  fromNpm: FromNpm;
  /** The commands of the README's `from-npm` block. */
  steps: string[];
  /** A user's shell, started in `<work>/npm`. */
  shell: ReadmeShell;
}

/** Registers the hooks of the calling test file; its tests read the returned run. */
export function useFromNpm(): FromNpmRun {
  const run = {} as FromNpmRun;
  beforeAll(async () => {
    run.fromNpm = await prepareFromNpm(workspaceRoot);
    run.steps = run.fromNpm.steps('from-npm');
    run.shell = run.fromNpm.shellIn('npm');
  }, 300_000);
  afterAll(() => run.fromNpm?.close(), 300_000);
  return run;
}
