import { defineConfig, type Options } from 'tsup';

/**
 * How every operator under operators/ is built (its tsup.config.ts re-exports this): one
 * self-contained ESM file per entry, so dist/main.js runs with nothing but Node.js (the image
 * copies only it) and dist/manifests.js feeds ops-manifests. Workspace packages are bundled
 * from their sources (the `@ops/source` condition); the target is the Node.js major of
 * .node-version, which the images run (operators/*\/test/image.test.ts checks it).
 */
export const operatorBundle: Options = {
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

export default defineConfig(operatorBundle);
