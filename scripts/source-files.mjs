// The TypeScript sources below a directory, for the repository's checks: `.ts` files that are
// not declaration files, and not tests when `isTest` says so. A missing directory has none.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Every `.ts` file under `directory` (recursively), except `.d.ts` files and those whose
 * name `isTest` accepts.
 */
export function sourceFiles(directory, isTest) {
  let entries;
  try {
    entries = readdirSync(directory, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path, isTest);
    const isSource = entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts');
    return isSource && !isTest(entry.name) ? [path] : [];
  });
}
