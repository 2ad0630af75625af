import { packageBundle } from '../../tsup.package.js';

/** The root entry and one entry per subpath of package.json `exports`. */
const subpaths = [
  'cache',
  'client',
  'clock',
  'controller',
  'crd',
  'events',
  'health',
  'manager',
  'meta',
  'metrics',
  'operator',
  'queue',
  'sharding',
  'webhook',
] as const;

// Splitting puts the code the entries share in common chunks, so a class imported from the
// root and from a subpath is one class (instanceof, private fields) and ships once.
// The banner makes every file of dist/ import @ops/api/require-supported-node before anything
// else: ES modules evaluate their imports in order, so an unsupported Node.js is refused with
// a message naming the required release before a dependency (undici) fails there. (A first
// import in src/index.ts alone would not do: esbuild puts the shared chunks' imports first.)
export default packageBundle(
  ['src/index.ts', ...subpaths.map((subpath) => `src/${subpath}/index.ts`)],
  { splitting: true, banner: { js: "import '@ops/api/require-supported-node';" } },
);
