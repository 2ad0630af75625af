import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    cli: 'src/cli.ts',
    'server-child': 'src/harness/server-child.ts',
    'sync-child': 'src/harness/sync-child.ts',
    'burst-watcher-child': 'src/harness/burst-watcher-child.ts',
    'burst-writer-child': 'src/harness/burst-writer-child.ts',
    'shard-replica-child': 'src/harness/shard-replica-child.ts',
  },
  format: ['esm'],
  target: 'node24',
  sourcemap: true,
  clean: true,
  splitting: false,
  // Peers and workspace packages are imported at run time, never bundled.
  skipNodeModulesBundle: true,
});
