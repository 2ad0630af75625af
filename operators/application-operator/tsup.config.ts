import { defineConfig } from 'tsup';

// The operator ships as one self-contained file per entry: dist/main.js runs with nothing but
// Node.js (the image copies only it), and dist/manifests.js feeds the manifests generator.
export default defineConfig({
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
});
