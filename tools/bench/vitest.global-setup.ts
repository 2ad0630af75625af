import { build } from 'tsup';

/**
 * Builds `dist/server-child.js` (the API server child process of the benchmarks) and
 * `dist/sync-child.js` (one library's cold sync in a fresh process), the event-burst and
 * sharded-scale-out children, from the current sources, so the suite never runs a stale one. `@ops/apiserver` itself is imported
 * from its build, as `turbo run test` provides.
 */
export default async function setup(): Promise<void> {
  await build({
    config: false,
    entry: {
      'server-child': 'src/harness/server-child.ts',
      'sync-child': 'src/harness/sync-child.ts',
      'burst-watcher-child': 'src/harness/burst-watcher-child.ts',
      'burst-writer-child': 'src/harness/burst-writer-child.ts',
      'shard-replica-child': 'src/harness/shard-replica-child.ts',
    },
    format: ['esm'],
    target: 'node24',
    outDir: 'dist',
    clean: false,
    splitting: false,
    sourcemap: true,
    skipNodeModulesBundle: true,
    silent: true,
  });
}
