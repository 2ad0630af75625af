import type { Options } from 'tsup';

/**
 * The tsup settings of every operator (its tsup.config.ts re-exports them): one
 * self-contained file per entry. dist/main.js runs with nothing but Node.js (the image copies
 * only it), and dist/manifests.js feeds the manifests generator. Workspace packages are
 * bundled from their source (the `@ops/source` condition), so an operator builds without
 * building them first.
 */
export const operatorBundleConfig: Options = {
  entry: { main: 'src/main.ts', manifests: 'src/manifests.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node24',
  bundle: true,
  noExternal: [/.*/],
  // ws's optional native speed-ups: required inside try/catch, absent is fine.
  external: ['bufferutil', 'utf-8-validate'],
  splitting: false,
  sourcemap: true,
  clean: true,
  // Bundled CommonJS dependencies call require(); give the ESM bundle one.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  esbuildOptions(options) {
    options.conditions = ['@ops/source', 'node', 'import'];
  },
};
