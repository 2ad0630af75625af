import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The directory of `@ops/bench` (tools/bench): found by walking up from this module, so it is
 * right both from the sources (under vitest) and from the bundle in `dist/`.
 */
export const packageRoot: string = findRoot(dirname(fileURLToPath(import.meta.url)));

function findRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'tsup.config.ts')))
      return dir;
    if (dirname(dir) === dir)
      throw new Error(`no package.json with a tsup.config.ts above ${start}`);
  }
}
