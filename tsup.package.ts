import type { Options } from 'tsup';

/**
 * How the published packages (packages/*, tools/manifests, tools/operator-cli) are built: ESM
 * with declaration files and source maps, each `entry` a file of `dist/`, dependencies left
 * external. The target is the oldest Node.js their `engines` accept (22.19), so one place
 * changes when that does. Each package's tsup.config.ts passes its entries.
 */
export function packageBundle(entry: string[], options: Options = {}): Options {
  return {
    entry,
    format: ['esm'],
    target: 'node22',
    dts: true,
    sourcemap: true,
    clean: true,
    splitting: false,
    ...options,
  };
}
